import ArgumentParsing
import CamrecCLI
import CamrecKit

/// `CameraOptions` typed: the options as given, turned into CamrecKit's request.
extension CameraOptions {
    /// The camera asked for (`--device`, `--size`, `--fps`), typed once for every
    /// camera-using subcommand.
    static func request(_ parsed: ParsedArguments) throws(UsageError) -> CameraRequest {
        try usage { () throws(CamrecError) in
            try CameraRequest.parse(devices: parsed.values("--device"), size: parsed.value("--size"), fps: parsed.value("--fps"))
        }
    }
}

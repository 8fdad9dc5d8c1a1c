import ArgumentParsing
import CamrecCLI
import CamrecKit

/// `MaskOptions` typed: the options as given, turned into CamrecKit's request.
extension MaskOptions {
    /// `--mask` and `--mask-image`, typed once; the image is read when the command runs
    /// (`MaskRequest.resolve()`).
    static func request(_ parsed: ParsedArguments) throws(UsageError) -> MaskRequest {
        try usage { () throws(CamrecError) in
            try MaskRequest.parse(masks: parsed.values("--mask"), image: parsed.value("--mask-image"))
        }
    }
}

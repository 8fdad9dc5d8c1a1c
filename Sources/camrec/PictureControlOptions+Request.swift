import ArgumentParsing
import CamrecCLI
import CamrecKit

/// `PictureControlOptions` typed: the options as given, turned into CamrecKit's request.
extension PictureControlOptions {
    /// `--set`, `--flash` and `--keep-controls`, typed.
    static func request(_ parsed: ParsedArguments) throws(UsageError) -> ControlRequest {
        try usage { () throws(ValueError) in
            try ControlRequest.parse(sets: parsed.values("--set"), flash: parsed.value("--flash"), keepControls: parsed.flag("--keep-controls"))
        }
    }
}

import ArgumentParsing
import CamrecCLI
import CamrecKit

/// What `EncodersCommand` does with its arguments: validates them into a request and runs it.
extension EncodersCommand: Subcommand {
    /// What to do.
    struct Options {
        var json: Bool
        var trial: Bool
    }

    static func validate(_ parsed: ParsedArguments) throws(UsageError) -> Options {
        Options(json: parsed.flag("--json"), trial: !parsed.flag("--no-trial"))
    }

    static func console(for parsed: ParsedArguments) -> Console { Console(json: parsed.flag("--json"), quiet: false) }

    static func run(_ options: Options, console: Console) throws(CamrecError) -> ExitStatus {
        let lines = EncoderListing.scan(trial: options.trial)
        if options.json {
            for line in lines { console.emit(line, type: "encoder") }
        } else if lines.isEmpty {
            console.say("camrec: no video encoder is installed: sudo apt-get install gstreamer1.0-plugins-ugly (x264enc)")
        } else {
            print(EncoderListing.humanText(lines), terminator: "")
        }
        return .success
    }
}

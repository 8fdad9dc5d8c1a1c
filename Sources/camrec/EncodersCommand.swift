import ArgumentParsing
import CamrecKit

/// `camrec encoders [--json] [--no-trial]`: the video encoders GStreamer has here for H.264,
/// H.265 and Motion JPEG, hardware or software, and whether each works.
enum EncodersCommand: Subcommand {
    static let spec = CommandSpec(
        name: "camrec encoders",
        abstract: "List the video encoders here, hardware and software, and whether each works.",
        usage: "camrec encoders [--json] [--no-trial]",
        options: [
            OptionSpec(["--json"], help: "print one JSON object per encoder on stdout"),
            OptionSpec(["--no-trial"], help: "only list them: do not encode test frames to see which work"),
        ],
        positionals: [],
        discussion: """
            Lists every installed element whose klass says video encoder and whose output is
            H.264, H.265 or Motion JPEG, in the order --encoder auto tries them: hardware
            first (klass Codec/Encoder/Video/Hardware), then camrec's software choice
            (x264enc, openh264enc; x265enc; jpegenc), then the rest. Each is tried by
            encoding \(EncoderSelection.trialFrames) test frames at \(EncoderTrial.listingSize)@\(EncoderTrial.listingRate.fraction): an
            installed hardware encoder often cannot open a device (vaapih264enc without a
            GPU, v4l2h264enc without its /dev/video node). The encoder a recording with
            --encoder auto would take is marked. Exit status 0.
            """
    )

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

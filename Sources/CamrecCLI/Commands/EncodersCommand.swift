import ArgumentParsing
import CamrecKit

/// `camrec encoders [--json] [--no-trial]`: the video encoders GStreamer has here for H.264,
/// H.265 and Motion JPEG, hardware or software, and whether each works.
public enum EncodersCommand {
    /// What the command takes and says: its options, arguments and help (`--help`, the man
    /// page, the completions and docs/cli.md are made from it).
    public static let spec = CommandSpec(
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
}

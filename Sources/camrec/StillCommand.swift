import ArgumentParsing
import CamrecKit

/// `camrec still [options] OUTPUT.jpg`: takes a photo (or a series) without a movie.
enum StillCommand: Subcommand {
    static let spec = CommandSpec(
        name: "camrec still",
        abstract: "Take a photo from a camera, after its auto-exposure has settled.",
        usage: "camrec still [options] OUTPUT",
        options: CameraOptions.specs + PictureControlOptions.specs + PictureOptions.specs + [
            OptionSpec(["--count", "-n"], value: "N", help: "take N photos (default: 1)"),
            OptionSpec(["--interval", "-i"], value: "T", help: "time between photos of a series (default: 1s)"),
            OptionSpec(["--settle"], value: "T", help: "wait at most T for the brightness to settle before the first photo; 0 takes the first frame (default: 3s)"),
            OptionSpec(["--still-quality", "-Q"], value: "Q", help: "JPEG quality 1-100 (default: 90)"),
            OptionSpec(["--force", "-f"], help: "replace OUTPUT if it exists (a single photo)"),
            LocationOption.spec,
            OptionSpec(["--json"], help: "print JSON lines on stdout: still, warning, result"),
            OptionSpec(["--quiet", "-q"], help: "print nothing on stderr but errors"),
        ],
        positionals: [PositionalSpec("OUTPUT", help: "the photo: .jpg, .jpeg or .png (the extension picks the format); with --count, NAME-0001.jpg, … or a pattern with %04d")],
        discussion: PictureControlOptions.discussion + "\n\nExit codes are those of camrec record (see camrec --help)."
    )

    static func validate(_ parsed: ParsedArguments) throws(UsageError) -> StillJob {
        let quality = try parsed.value("--still-quality", quality) ?? StillFormat.defaultQuality
        guard let output = parsed.positional("OUTPUT") else {
            throw UsageError("missing OUTPUT: give the photo to write, e.g. camrec still photo.jpg")
        }
        guard let format = StillFormat(path: output, quality: quality) else {
            throw UsageError("cannot tell the format of '\(output)': end OUTPUT with \(StillFormat.extensionList)")
        }
        let camera = try CameraOptions.request(parsed)
        let count = try parsed.value("--count", positiveInteger) ?? 1
        let interval = try parsed.value("--interval") { (text: String) throws(ValueError) in try TimeSpec.parse(text) } ?? .seconds(1)
        let settle = try parsed.value("--settle") { (text: String) throws(ValueError) in try TimeSpec.parse(text) } ?? .seconds(3)
        let controls = try stillControls(parsed)
        var job = StillJob(camera: camera, output: output, format: format, picture: try PictureOptions.request(parsed))
        job.count = count
        job.interval = interval
        job.settle = settle
        job.force = parsed.flag("--force")
        job.controls = controls
        job.location = try LocationOption.value(parsed)
        return job
    }

    static func run(_ job: StillJob, console: Console) throws(CamrecError) -> ExitStatus {
        // A reader of stdout or stderr that stops reading must never hold up a photo.
        StandardStream.queueWrites()
        return try job.run(console: console)
    }

    /// A photo may take longer frames: auto-exposure's frame rate is left as it is.
    private static func stillControls(_ parsed: ParsedArguments) throws(UsageError) -> ControlRequest {
        var request = try PictureControlOptions.request(parsed)
        request.keepFrameRate = false
        return request
    }

    private static func positiveInteger(_ text: String) throws(ValueError) -> Int {
        guard let value = Int(text), value > 0, value <= 100_000 else {
            throw ValueError("invalid count '\(text)': use a whole number from 1")
        }
        return value
    }

    static func quality(_ text: String) throws(ValueError) -> Int {
        guard let value = Int(text), (1...100).contains(value) else {
            throw ValueError("invalid quality '\(text)': use a whole number from 1 to 100")
        }
        return value
    }
}

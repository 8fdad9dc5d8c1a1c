import ArgumentParsing
import CamrecKit

/// `camrec still [options] OUTPUT.jpg`: takes a photo (or a series) without a movie.
enum StillCommand: Subcommand {
    static let spec = CommandSpec(
        name: "camrec still",
        abstract: "Take a photo from a camera, after its auto-exposure has settled.",
        usage: "camrec still [options] OUTPUT",
        options: CameraOptions.specs + PictureControlOptions.specs + PictureOptions.specs + MaskOptions.specs + [
            OptionSpec(["--count", "-n"], value: "N", help: "take N photos (default: 1)"),
            OptionSpec(["--interval", "-i"], value: "T", help: "time between photos of a series (default: 1s)"),
            OptionSpec(["--settle"], value: "T", help: "wait at most T for the brightness to settle before the first photo; 0 takes the first frame (default: 3s)"),
            OptionSpec(["--still-quality", "-Q"], value: "Q", help: "JPEG quality 1-100 (default: 90)"),
            OptionSpec(["--force", "-f"], help: "replace OUTPUT if it exists (a single photo)"),
            LocationOption.spec,
            OptionSpec(["--text"], help: "recognise the text in each photo (libtesseract): a text line with --json, the text in the result and in NAME.txt beside the photo"),
            OptionSpec(["--text-lang"], value: "L", help: "with --text: the languages' models, joined by +, e.g. eng+deu (default: eng)"),
            OptionSpec(["--json"], help: "print JSON lines on stdout: still, warning, text, result"),
            OptionSpec(["--quiet", "-q"], help: "print nothing on stderr but errors"),
        ],
        positionals: [PositionalSpec("OUTPUT", help: "the photo: .jpg, .jpeg or .png (the extension picks the format); with --count, NAME-0001.jpg, … or a pattern with %04d")],
        discussion: PictureControlOptions.discussion + "\n\nExit codes are those of camrec record (see camrec --help)."
    )

    static func validate(_ parsed: ParsedArguments) throws(UsageError) -> StillJob {
        let photo = try usage { () throws(CamrecError) in
            try StillJob.photo(output: parsed.positional("OUTPUT"), quality: parsed.value("--still-quality"))
        }
        let camera = try CameraOptions.request(parsed)
        let series = try usage { () throws(CamrecError) in
            try StillJob.Series(count: parsed.value("--count"), interval: parsed.value("--interval"), settle: parsed.value("--settle"))
        }
        let controls = try PictureControlOptions.request(parsed)
        var job = StillJob(camera: camera, photo: photo, series: series, controls: controls,
                           picture: try PictureOptions.request(parsed), force: parsed.flag("--force"))
        job.location = try LocationOption.value(parsed)
        job.textLanguages = try usage { () throws(CamrecError) in
            try StillJob.textLanguages(text: parsed.flag("--text"), lang: parsed.value("--text-lang"))
        }
        return job
    }

    static func run(_ job: StillJob, console: Console) throws(CamrecError) -> ExitStatus {
        // A reader of stdout or stderr that stops reading must never hold up a photo.
        StandardStream.queueWrites()
        return try job.run(console: console)
    }
}

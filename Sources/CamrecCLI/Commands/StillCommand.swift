import ArgumentParsing
import CamrecKit

/// `camrec still [options] OUTPUT.jpg`: takes a photo (or a series) without a movie.
public enum StillCommand {
    /// What the command takes and says: its options, arguments and help (`--help`, the man
    /// page, the completions and docs/cli.md are made from it).
    public static let spec = CommandSpec(
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
}

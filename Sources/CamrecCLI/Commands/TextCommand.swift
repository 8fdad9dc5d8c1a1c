import ArgumentParsing
import CamrecKit

/// `camrec text [options] IMAGE|MOVIE…`: the text in stills and in movies' frames.
public enum TextCommand {
    /// What the command takes and says: its options, arguments and help (`--help`, the man
    /// page, the completions and docs/cli.md are made from it).
    public static let spec = CommandSpec(
        name: "camrec text",
        abstract: "Recognise the text in stills and movies' frames, with each word's box.",
        usage: "camrec text [--lang L] [--region X,Y,W,H] [--every T] [--json] IMAGE|MOVIE...",
        options: [
            OptionSpec(["--lang", "-l"], value: "L", help: "the languages' models, joined by +, e.g. eng+deu (default: eng; each one installed: tesseract-ocr-L)"),
            OptionSpec(["--region"], value: "X,Y,W,H", help: "read only this part of each picture, in its pixels from the top left, e.g. 0,600,1280,120"),
            OptionSpec(["--every"], value: "T", help: "a movie's frame every T, the first at its start, e.g. 5s (default: 10s)"),
            OptionSpec(["--min-confidence"], value: "C", help: "leave out words Tesseract is less sure of, 0-1 (default: 0.7)"),
            OptionSpec(["--json"], help: "print a JSON text line for each picture: its words with their boxes (pixels and 0-1), confidences, lines and blocks, and the capture time"),
            OptionSpec(["--quiet", "-q"], help: "print nothing on stderr but errors"),
        ],
        positionals: [PositionalSpec("IMAGE|MOVIE", help: "a still (.jpg, .jpeg, .png) or a movie")],
        discussion: """
            The text is printed on stdout, a line of text per line found; with several
            pictures, each under a heading with its name and capture time. Each picture is
            turned grey, scaled up when small (text a dozen pixels high reads), thresholded
            by Tesseract's adaptive (Sauvola) method, and read again inverted when it looks
            like light text on a dark ground or the first reading finds little.

            libtesseract is loaded only when text is asked for: install libtesseract5 and
            tesseract-ocr-eng (and tesseract-ocr-LANG for other languages); camrec doctor
            lists the languages installed. A missing library or model exits with 69.

            Examples:
              camrec text label.jpg
              camrec text --json --lang eng+deu whiteboard.png
              camrec text --every 30s --region 0,600,1280,120 --json gate.mp4

            \(ExitCodeTable.all)
            """
    )
}

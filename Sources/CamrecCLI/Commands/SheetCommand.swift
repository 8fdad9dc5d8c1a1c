import ArgumentParsing
import CamrecKit

/// `camrec sheet [options] -o OUT MOVIE…`: a contact sheet of movies.
public enum SheetCommand {
    /// What the command takes and says: its options, arguments and help (`--help`, the man
    /// page, the completions and docs/cli.md are made from it).
    public static let spec = CommandSpec(
        name: "camrec sheet",
        abstract: "Make a contact sheet: frames of movies in a grid, each with its capture time.",
        usage: "camrec sheet [--count N | --every T] [--columns N] [--width W] -o OUT MOVIE...",
        options: [
            OptionSpec(["--output", "-o"], value: "OUT", help: "the sheet to write: .jpg, .jpeg or .png"),
            OptionSpec(["--count"], value: "N", help: "N frames, one in the middle of each of N equal spans of the movies (default: 12; at most 400)"),
            OptionSpec(["--every"], value: "T", help: "a frame every T of the movies, the first at their start, e.g. 30s (at most 400)"),
            OptionSpec(["--columns"], value: "N", help: "frames per row, 1-20 (default: 4)"),
            OptionSpec(["--width"], value: "W", help: "each frame's width in pixels, 64-1920 (default: 320); its height keeps the first movie's shape"),
            OptionSpec(["--force", "-f"], help: "replace OUT if it exists"),
            OptionSpec(["--json"], help: "print a JSON sheet line on stdout: each tile's movie, time, capture time and whether a keyframe stood for it"),
            OptionSpec(["--quiet", "-q"], help: "print nothing on stderr but errors"),
        ],
        positionals: [PositionalSpec("MOVIE", help: "a movie; several are one timeline, in order (a series' segments)")],
        discussion: """
            Each frame is captioned with when it was captured (a movie camrec recorded holds
            its first frame's capture time: docs/files.md), or else with its time in the
            movies. A keyframe within a quarter of the step between frames (at most half a
            second) stands for its moment and is the only frame decoded; otherwise the frame
            at the moment is decoded exactly. The sheet is written beside OUT and renamed
            into place once whole; an existing OUT is never replaced without --force.

            Examples:
              camrec sheet -o day.jpg cam-*.mp4
              camrec sheet --every 10m --columns 6 -o week.jpg cam/*.mkv

            \(ExitCodeTable.all)
            """
    )
}

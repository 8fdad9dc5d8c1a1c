import ArgumentParsing
import CamrecKit

/// `camrec ls [PATH…] [--json] [--utc]`: what was recorded, grouped into series, each movie
/// with its wall-clock start and end, frames, codecs, sound and health, read from headers only.
public enum LsCommand {
    /// The exit codes ls can return.
    public static let exitCodes: [(status: ExitStatus, meaning: String)] = [
        (.success, "listed (unfinished and unreadable movies, and foreign files, are listed, never an error)"),
        (.usage, "usage error: an unknown option, a malformed OUTPUT pattern"),
        (.noCamera, "nothing to list: PATH is a missing or empty folder, or no file matches the OUTPUT pattern"),
    ]

    /// What the command takes and says: its options, arguments and help (`--help`, the man
    /// page, the completions and docs/cli.md are made from it).
    public static let spec = CommandSpec(
        name: "camrec ls",
        abstract: "List what was recorded: series, segments, clips, stills, gaps and health.",
        usage: "camrec ls [--json] [--utc] [--thumbs] [PATH...]",
        options: [
            OptionSpec(["--json"], help: "print one JSON line per file and one per series on stdout"),
            OptionSpec(["--utc"], help: "show times in UTC instead of local time"),
            OptionSpec(["--thumbs"], help: "make (or reuse) a 160-pixel JPEG of each movie and clip in .thumbs/ beside it"),
        ],
        positionals: [PositionalSpec("PATH", help: "a folder (default: the current one), a movie, or an OUTPUT pattern as given to camrec record (cam.mp4, cam-%Y%m%d-%H%M%S.mp4)", optional: true)],
        discussion: """
            Lists each folder's files (not its subfolders, not hidden files), or what an
            OUTPUT names: cam.mp4 lists cam.mp4, its segments cam-0001.mp4 …, its cameras'
            cam-1-0001.mp4 …, its clips cam-clip-0001.mp4 …, its stills cam-still-0001.jpg …
            and their .partial files; a --segment pattern lists the files it names.
            Only headers are read (never the samples), so a folder of thousands of files
            lists in a second or two.

            Files are grouped into series: one name's movies (a run's segments and the
            later runs'; with several cameras each camera's), clips and stills, in time
            order. For each movie: the wall-clock start of its first frame and its end,
            duration, frames, size, video codec and size, sound codec (or none), and its
            health:
              complete     finalised
              unfinished   a .partial file or a fragmented movie: the command that
                           finishes it is printed (camrec recover FILE)
              unreadable   with why (cut short before its index, not a movie, empty)
            Start times come from the capture time camrec writes into each file (to the
            millisecond); a movie without it shows its header's creation time (whole
            seconds) and a still without EXIF its file time, marked * (JSON: start_source).
            Matroska stores no frame count: it is the duration times the frame rate,
            marked ~ (JSON: frames_estimated). Between consecutive movies of a series a
            gap (the next starts more than 1.5 frames after the previous ends) or an
            overlap (more than 1.5 frames before: the clock stepped back) is shown; each
            gap starts a new run. A still whose time lies within a clip is that clip's
            Live Photo. Files that are not movies or stills (and movies camrec cannot
            read, as unreadable) are listed too, never an error.

            --thumbs makes a 160-pixel-wide JPEG of each complete movie and clip, from the
            keyframe nearest its middle, as .thumbs/NAME.jpg beside it (JSON: thumbnail),
            and reuses one that is newer than its movie; this decodes a frame per movie.

            With --json: {"type":"library-file","path":"cam-0001.mp4","kind":"movie","series":"cam",
            "health":"complete","start":"2026-12-01T10:04:30.250+01:00","duration":1.0,
            "frames":30,...} per file, then {"type":"library-series","name":"cam","runs":1,
            "gaps":[...],...} per series; docs/json.md and docs/events.schema.json say
            every field.

            Examples:
              camrec ls
              camrec ls /data/cam
              camrec ls --json /data/lab.mp4
              camrec ls '/data/cam-%Y%m%d-%H%M%S.mp4'

            \(ExitCodeTable.of(exitCodes))
            """
    )
}

import ArgumentParsing
import CamrecKit

/// `camrec export SERIES [--from T] [--to T] -o OUT`: a time range of a series, across its
/// segments, as one movie holding exactly the frames captured in it.
public enum ExportCommand {
    /// The exit codes export can return.
    public static let exitCodes: [(status: ExitStatus, meaning: String)] = [
        (.success, "exported"),
        (.usage, "usage error: a bad option or time, --from not before --to, a SERIES that names several series"),
        (.invalidInput, "no frame in the range; an unfinished (run camrec recover), unreadable or non-MP4/MOV movie in it"),
        (.noCamera, "SERIES names no movie, or movies of the range are missing (named)"),
        (.cannotCreateOutput, "OUT exists (use --force) or cannot be written"),
        (.diskFull, "the disk filled up: nothing was written"),
        (.aborted, "stopped by a signal: nothing was written"),
    ]

    /// What the command takes and says: its options, arguments and help (`--help`, the man
    /// page, the completions and docs/cli.md are made from it).
    public static let spec = CommandSpec(
        name: "camrec export",
        abstract: "Export a time range of a recorded series, across its segments, frame-exactly.",
        usage: "camrec export [--from T] [--to T] [--split-at-gaps] [--reencode] [--speed N | --timelapse T] -o OUT SERIES",
        options: [
            OptionSpec(["--output", "-o"], value: "OUT", help: "the movie to write: .mp4 or .mov (several: OUT-1.mp4, OUT-2.mp4, ...)"),
            OptionSpec(["--from"], value: "T", help: "the first instant: a time of day (10:04:30.250), a date and time (2026-12-01 10:04:30, ISO 8601 with a zone), or an offset into the series (90, 2m, +1:30; -5m: before its end) (default: its start)"),
            OptionSpec(["--to"], value: "T", help: "the end, not included, in the same forms (default: the series' end)"),
            OptionSpec(["--split-at-gaps"], help: "one movie per stretch without a gap, instead of one movie with a chapter after each gap"),
            OptionSpec(["--reencode"], help: "join movies of another size or codec (after a reconnect) into one movie by encoding them again, instead of a movie each"),
            OptionSpec(["--speed"], value: "N", help: "a time-lapse N times faster than real time: a frame every N frames' time, played at the series' frame rate, without sound"),
            OptionSpec(["--timelapse"], value: "T", help: "a time-lapse with a frame every T of capture time, e.g. 2s or 1m (--speed says the same as a factor)"),
            OptionSpec(["--utc"], help: "times without a zone are UTC, and times are shown in UTC (default: local time)"),
            OptionSpec(["--force", "-f"], help: "replace OUT if it exists"),
            OptionSpec(["--json"], help: "print an export JSON line per movie written on stdout"),
            OptionSpec(["--quiet", "-q"], help: "print nothing on stderr but errors"),
        ] + UnattendedOptions.onFileSpecs,
        positionals: [PositionalSpec("SERIES", help: "the series: the OUTPUT given to camrec record (cam.mp4) or one of its movies (camrec ls lists them)")],
        discussion: """
            The movie holds exactly the frames captured from --from up to --to (each
            frame's capture time, which camrec writes into every movie: docs/files.md),
            across any number of segments, with the sound cut at the same instants. The
            frames are copied, not re-encoded, but for a few at each edge (those before
            the first keyframe in the range), as camrec trim does. Where the series has a
            gap (the camera was lost, camrec was restarted), the movie runs on without it
            and has a chapter named by the wall-clock time of each stretch, so a viewer
            sees where time jumps; --split-at-gaps writes a movie per stretch instead.
            Segments whose parameters differ (another size or codec after a reconnect)
            are not joined by copying: each part is its own movie (OUT-1.mp4, OUT-2.mp4,
            ...), or, with --reencode, the parts are joined into one movie by encoding them
            again (H.264 and AAC, every frame kept, each picture scaled to the first part's
            size with borders where its shape differs, a chapter where each part begins).

            A time of day without a date is on the first day of the series where it fits;
            times without a zone are local (UTC with --utc). Unfinished segments (camrec
            recover finishes them) and unreadable ones in the range are refused, naming
            each; nothing is written then, nor when OUT exists without --force. Each movie
            is written beside OUT, checked (its frames counted and decoded) and renamed
            into place once whole, with its first frame's capture time.

            A time-lapse (--speed 60, --timelapse 2s) keeps one frame for every instant
            from --from on, the step apart: the frame captured then, or, when the step is at
            least the distance between keyframes, the nearest keyframe (then only keyframes
            are decoded). It is re-encoded to H.264, plays at the series' frame rate, and
            has no sound.

            With --json: {"type":"export","path":"out.mp4","series":"cam","start":
            "2026-12-01T10:04:30.250+01:00","duration":150.0,"frames":4500,"movies":[...],
            "chapters":[...],...} per movie; docs/json.md says every field.

            Examples:
              camrec export cam.mp4 --from 10:04:30 --to 10:07:00 -o incident.mp4
              camrec export /data/cam.mp4 --from '2026-12-01 23:58' --to '2026-12-02 00:03' -o midnight.mp4
              camrec export cam.mp4 --from -5m -o last-five-minutes.mp4
              camrec export cam.mp4 --from 06:00 --to 18:00 --speed 600 -o day.mp4

            \(ExitCodeTable.of(exitCodes))
            """
    )
}

import ArgumentParsing
import CamrecKit

/// `camrec trim [--start T] [--end T] [-o OUT | --in-place] [--force] [--mode M] [--json] INPUT`:
/// cuts the start and/or end of a saved movie.
public enum TrimCommand {
    /// The exit codes trim can return, with what each means for a trim.
    public static let exitCodes: [(status: ExitStatus, meaning: String)] = [
        (.success, "success"),
        (.failure, "another error (the message says what), e.g. a stage that made no progress for 30 s"),
        (.usage, "usage error: unknown option, malformed value, missing argument, OUT not ending with .mp4, .mov, .mkv or .webm"),
        (.invalidInput, "invalid input: not a movie file, empty, truncated, no video, a video codec trim does not handle, times outside the video"),
        (.unavailable, "a GStreamer plugin trim needs is missing (the message names the package)"),
        (.cannotCreateOutput, "OUT exists (use --force), or its folder is missing or not writable, or INPUT is open for writing by another process"),
        (.diskFull, "disk full while writing (nothing is left behind)"),
        (.aborted, "interrupted by SIGINT, SIGTERM or SIGHUP (nothing is left behind)"),
    ]

    /// What the command takes and says: its options, arguments and help (`--help`, the man
    /// page, the completions and docs/cli.md are made from it).
    public static let spec = CommandSpec(
        name: "camrec trim",
        abstract: "Cut the ends of a movie (MP4, MOV, MKV or AVI), frame-accurately by default.",
        usage: "camrec trim [--start T] [--end T] [-o OUT | --in-place] [options] INPUT",
        options: [
            OptionSpec(["--start"], value: "T", help: "new first instant: 2, 2.5, 90s, 00:00:02.500; negative counts back from the end"),
            OptionSpec(["--end"], value: "T", help: "new last instant (exclusive); negative counts back from the end (-3 drops the last 3 s)"),
            OptionSpec(["--output", "-o"], value: "OUT", help: "the file to write, ending with .mp4, .mov, .mkv or .webm (default: NAME-trimmed.EXT beside INPUT; .mkv for an AVI)"),
            OptionSpec(["--in-place"], help: "replace INPUT atomically (it survives any failure)"),
            OptionSpec(["--force", "-f"], help: "replace OUT if it exists"),
            OptionSpec(["--mode"], value: "MODE", help: "accurate (default: re-encode only the edge GOPs), keyframe (pure copy from the keyframe at or before the start) or reencode (everything)"),
            OptionSpec(["--json"], help: "print JSON lines on stdout: progress (after a second), then the result"),
            OptionSpec(["--quiet", "-q"], help: "print nothing on stderr but errors"),
        ] + UnattendedOptions.onFileSpecs,
        positionals: [PositionalSpec("INPUT", help: "the movie to trim")],
        discussion: """
            Times are on the input's presentation timeline, as ffprobe shows frame times:
            a movie whose timestamps start later than 0 (Matroska made with
            -output_ts_offset, a cut stream) has its first frame there, not at 0. A cut
            that lies wholly before that frame is counted from it instead; --start -10
            or --end 50 beyond the video are clamped to it; a warning says either. The
            output starts at 0. In accurate mode its first frame is the first with a
            time >= --start and its last the last with a time < --end. Only the edges are re-encoded, in the source's
            own codec and format (bit depth, chroma, profile, level); HEVC and 10-bit AV1
            are cut at keyframes instead (the result says so; --mode reencode gives
            H.264), MJPEG is all keyframes and cut exactly. Every track the output can
            hold is kept; a track left out is named in a warning.

            The output is written to a hidden .OUT.trim-PID.part file beside OUT and
            renamed into place once complete and checked. On any failure, and on SIGINT,
            SIGTERM or SIGHUP, that file is removed and the input is untouched. A stage
            that makes no progress for 30 s is given up on. A trim that takes longer than
            a second shows its progress on a terminal (with --json: progress lines).

            Examples:
              camrec trim --start 2 --end 5 in.mp4
              camrec trim --end -3 --in-place in.mkv
              camrec trim --start 00:01:00 --mode keyframe -o clip.mp4 in.mp4

            \(ExitCodeTable.of(exitCodes))
            """
    )
}

import ArgumentParsing
import CamrecKit

/// `camrec recover [-o OUT | --in-place] [--force] [--json] FILE…`: turns the `.partial`
/// files a killed, powered-off or disk-full recording left into finished movies.
public enum RecoverCommand {
    /// The exit codes recover can return, with what each means for a recovery.
    public static let exitCodes: [(status: ExitStatus, meaning: String)] = [
        (.success, "every FILE was recovered or already complete"),
        (.failure, "another error (the message says what), e.g. FILE is open in a running process, or changed meanwhile"),
        (.usage, "usage error: no FILE, -o with --in-place, -o not a folder with several FILEs, OUT of another container"),
        (.invalidInput, "FILE is not a movie, is empty, cut short at its start, or holds no whole frame"),
        (.cannotCreateOutput, "OUT exists (use --force, or -o another name), or its folder is missing or not writable"),
        (.diskFull, "disk full while writing (nothing is left behind)"),
        (.aborted, "interrupted by SIGINT, SIGTERM or SIGHUP (the file being written is removed)"),
    ]

    /// What the command takes and says: its options, arguments and help (`--help`, the man
    /// page, the completions and docs/cli.md are made from it).
    public static let spec = CommandSpec(
        name: "camrec recover",
        abstract: "Turn unfinished recordings (.partial files) into finished movies.",
        usage: "camrec recover [-o OUT | --in-place] [--force] [--json] FILE...",
        options: [
            OptionSpec(["--output", "-o"], value: "OUT", help: "the file to write (one FILE), or an existing folder to write into (any number of FILEs)"),
            OptionSpec(["--in-place"], help: "replace each FILE by its finished movie: NAME.partial.EXT becomes NAME-recovered-STAMP.EXT (and is removed); any other FILE keeps its name"),
            OptionSpec(["--force", "-f"], help: "replace an existing OUT"),
            OptionSpec(["--json"], help: "print one JSON result line per FILE on stdout"),
            OptionSpec(["--quiet", "-q"], help: "print nothing on stderr but errors"),
        ],
        positionals: [PositionalSpec("FILE", help: "a movie camrec could not finalise: NAME.partial.mp4, .mov or .mkv (any MP4, MOV or MKV will do)")],
        discussion: """
            A recording that is killed (kill -9), loses power or fills the disk leaves
            NAME.partial.EXT beside the OUTPUT it was meant for. It plays, mostly, but it is
            not a finished movie: MP4/MOV are fragmented (a torn last fragment, the index of
            the rest scattered in fragments), Matroska has no index and no duration.
            camrec recover copies everything that is whole on disk into a finished movie:
            every frame of every complete fragment (MP4, MOV) or every whole block (MKV), at
            its exact time, with its audio, without re-encoding. The torn tail is left out
            and reported (lost_tail_bytes).

            Where the movie goes:
              default      beside FILE: NAME-recovered-STAMP.EXT for NAME.partial.EXT (or
                           .partial-N.EXT), STAMP being when FILE was last written
                           (20261202-061500), so it never meets the newer NAME.EXT;
                           NAME-recovered.EXT for any other name; a taken name gets -2, -3
              -o OUT       that file (one FILE; same container: .mp4/.mov or .mkv)
              -o FOLDER    FOLDER/NAME-recovered-STAMP.EXT for each FILE (as by default)
              --in-place   NAME.partial.EXT: the movie takes its default name and FILE is
                           removed once it is there; any other FILE is replaced by one
                           rename once the movie is whole
            An existing file is never replaced without --force (-o OUT). FILE is only ever
            read (except with --in-place), and a FILE that is already a finished movie is
            reported as complete and left alone. camrec's own .partial file that holds no
            frame (empty: the recording stopped before its first frame) is removed, with a
            line saying so (status removed). A FILE that another process has open (a
            recording still running) is refused. Each movie is written to a hidden
            .NAME.recover-PID.part file beside it, read back, flushed to disk and renamed;
            on any failure or stop signal that file is removed.

            Every FILE gets a line: on stderr for people, or with --json one JSON object
            on stdout:
              {"type":"result","input":"a.partial.mp4","output":"a.mp4","status":"recovered",
               "container":"mp4","frames":205,"duration":6.834,"bytes":180342,
               "lost_tail_bytes":25738,"tracks":[{"kind":"video","codec":"avc1",...}]}
            status is recovered, complete (no output), removed (an empty .partial file) or
            refused (message, exit_code).
            FILEs after a refused one are still recovered; the exit status is that of the
            first refused FILE.

            Examples:
              camrec recover movie.partial.mp4
              camrec recover --json -o recovered/ cam/*.partial.*
              camrec recover --in-place movie.partial.mkv

            \(ExitCodeTable.of(exitCodes))
            """
    )
}

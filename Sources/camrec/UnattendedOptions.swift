import ArgumentParsing
import CamrecKit

/// The options of runs nobody watches: segments, retention and reconnect.
enum UnattendedOptions {
    static let specs = [
        OptionSpec(["--segment"], value: "T", help: "cut the run into movies of exactly T of video each (10m, 1h; none: only on `ctl split` and reconnects); OUTPUT may then hold strftime fields (cam-%Y%m%d-%H%M%S.mp4) and/or a counter (%04d); a plain name gets NAME-0001.EXT, NAME-0002.EXT, … (several cameras: NAME-1-0001.EXT, …, NAME-2-0001.EXT, …)", summary: "cut the run into movies of T each (10m, 1h)"),
        OptionSpec(["--utc"], help: "with --segment: time fields in names are UTC (default: local time)", summary: "time fields in names are UTC"),
        OptionSpec(["--keep"], value: "N", help: "with --segment: keep only the newest N movies of OUTPUT's name pattern (this run's and earlier runs'; several cameras: of each camera's series), deleting the oldest", summary: "keep only the newest N movies"),
        OptionSpec(["--keep-size"], value: "SIZE", help: "with --segment: keep the movies of OUTPUT's name pattern within SIZE in all (500M, 20G; several cameras: each camera's series), deleting the oldest", summary: "keep the movies within SIZE in all (20G)"),
        OptionSpec(["--min-free"], value: "SIZE", help: "with --segment: delete the oldest movies of OUTPUT's name pattern to keep SIZE free on its file system; when nothing is left to delete, finalise and stop (disk-full, exit 74)", summary: "delete the oldest to keep SIZE free"),
        OptionSpec(["--reconnect"], help: "when the camera is lost, finish the movie, wait for the same camera to come back (even at another /dev/videoN) and go on in a new movie (implies --segment none unless --segment is given; with --standby, go on making clips)", summary: "wait for a lost camera, then go on"),
        OptionSpec(["--recover-partials"], help: "at start, recover the unfinished movies (NAME.partial.EXT) an earlier run of the same OUTPUT or segment series left, as camrec recover --in-place does; empty ones are removed", summary: "first recover earlier runs' .partial movies"),
        OptionSpec(["--reconnect-timeout"], value: "T", help: "with --reconnect: stop (camera-lost, exit 79) when the camera is not back after T (default: wait for ever)", summary: "give a lost camera up after T (exit 79)"),
    ]
}

/// The unattended-run options, typed once.
struct UnattendedChoice {
    var segments: SegmentSettings?
    var reconnect: ReconnectSettings?
    /// Whether `--segment` was given (`--reconnect` alone implies segments for one camera).
    var segmentGiven = false
    /// `--keep`, `--keep-size`, `--min-free`: for the movies of a segmented run and for
    /// event clips; nil when none is given.
    var retention: RetentionPolicy?
    /// `--recover-partials`.
    var recoverPartials = false

    init(_ parsed: ParsedArguments, output: String) throws(UsageError) {
        let reconnect = parsed.flag("--reconnect")
        recoverPartials = parsed.flag("--recover-partials")
        let segmentText = parsed.value("--segment")
        let length = try parsed.value("--segment") { (text: String) throws(ValueError) -> TimeSpec? in
            if MaxDuration.unlimitedWords.contains(text.lowercased()) { return nil }
            let length = try TimeSpec.parse(text)
            guard length.nanoseconds > 0 else { throw ValueError("a segment must be longer than 0, e.g. 10m; none cuts only on request") }
            return length
        }
        let segmented = segmentText != nil || reconnect
        segmentGiven = segmentText != nil
        // --utc also names clips (--clips PATTERN).
        let given = (parsed.flag("--utc") && parsed.value("--clips") == nil ? ["--utc"] : [])
            + ["--keep", "--keep-size", "--min-free"].filter { parsed.value($0) != nil }
        // Retention also keeps event clips in check (not --utc: it names clips only with --clips).
        let clips = ClipChoice.isWanted(parsed)
        if !segmented, let option = given.first, !(clips && option != "--utc") {
            throw UsageError("\(option) applies to segmented runs and event clips: add --segment T (e.g. --segment 10m) or clip options (--pre-roll T)")
        }
        if segmented || clips {
            let keep = try parsed.value("--keep") { (text: String) throws(ValueError) -> Int in
                guard let count = Int(text), count >= 1 else { throw ValueError("--keep takes a number of movies (and of clips), 1 or more, e.g. --keep 48") }
                return count
            }
            let policy = RetentionPolicy(
                keep: keep, keepBytes: try parsed.value("--keep-size", ByteCount.parse),
                minFree: try parsed.value("--min-free", ByteCount.parse))
            retention = policy.isActive ? policy : nil
        }
        if !reconnect && parsed.value("--reconnect-timeout") != nil {
            throw UsageError("--reconnect-timeout needs --reconnect")
        }
        if segmented {
            let naming: SegmentNaming
            do {
                naming = try SegmentNaming(output: output, utc: parsed.flag("--utc"))
            } catch {
                throw UsageError(error.message)
            }
            segments = SegmentSettings(length: length.flatMap { $0 }, naming: naming, retention: retention ?? RetentionPolicy())
        }
        if reconnect {
            let timeout = try parsed.value("--reconnect-timeout") { (text: String) throws(ValueError) -> TimeSpec in
                let timeout = try TimeSpec.parse(text)
                guard timeout.nanoseconds > 0 else { throw ValueError("the timeout must be above 0, e.g. 5m") }
                return timeout
            }
            self.reconnect = ReconnectSettings(timeout: timeout)
        }
    }
}

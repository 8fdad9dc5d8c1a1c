import ArgumentParsing
import CamrecKit

/// The options of runs nobody watches: segments, retention, reconnect and `--on-file` commands.
public enum UnattendedOptions {
    /// The options, with their help.
    public static let specs: [OptionSpec] = [
        OptionSpec(["--segment"], value: "T", help: "cut the run into movies of exactly T of video each (10m, 1h; none: only on `ctl split` and reconnects); OUTPUT may then hold strftime fields (cam-%Y%m%d-%H%M%S.mp4) and/or a counter (%04d); a plain name gets NAME-0001.EXT, NAME-0002.EXT, … (several cameras: NAME-1-0001.EXT, …, NAME-2-0001.EXT, …)", summary: "cut the run into movies of T each (10m, 1h)"),
        OptionSpec(["--utc"], help: "with --segment: time fields in names are UTC (default: local time); with --schedule: its windows are UTC too", summary: "time fields in names are UTC"),
        OptionSpec(["--keep"], value: "N", help: "with --segment: keep only the newest N movies of OUTPUT's name pattern (this run's and earlier runs'; several cameras: of each camera's series), deleting the oldest", summary: "keep only the newest N movies"),
        OptionSpec(["--keep-size"], value: "SIZE", help: "with --segment: keep the movies of OUTPUT's name pattern within SIZE in all (500M, 20G; several cameras: each camera's series), deleting the oldest", summary: "keep the movies within SIZE in all (20G)"),
        OptionSpec(["--min-free"], value: "SIZE", help: "with --segment: delete the oldest movies of OUTPUT's name pattern to keep SIZE free on its file system; when nothing is left to delete, finalise and stop (disk-full, exit 74)", summary: "delete the oldest to keep SIZE free"),
        OptionSpec(["--reconnect"], help: "when the camera is lost, finish the movie, wait for the same camera to come back (even at another /dev/videoN) and go on in a new movie (implies --segment none unless --segment is given; with --standby, go on making clips)", summary: "wait for a lost camera, then go on"),
        OptionSpec(["--recover-partials"], help: "at start, recover the unfinished movies (NAME.partial.EXT) an earlier run of the same OUTPUT or segment series left, as camrec recover --in-place does; empty ones are removed", summary: "first recover earlier runs' .partial movies"),
    ] + onFileSpecs + onEventSpecs + [
        OptionSpec(["--reconnect-timeout"], value: "T", help: "with --reconnect: stop (camera-lost, exit 79) when the camera is not back after T (default: wait for ever)", summary: "give a lost camera up after T (exit 79)"),
    ]

    /// `--on-file` and its two options, for record, trim and export.
    public static let onFileSpecs = [
        OptionSpec(["--on-file"], value: "CMD", help: "run CMD for every file camrec finishes (record: each movie, segment, clip and still; trim and export: each movie written), once it is synced and in place: CMD is split into words as a shell would, and nothing else (no shell runs unless CMD starts with one: sh -c '…'); {file} in a word is the file's path; its environment has CAMREC_FILE, CAMREC_KIND, CAMREC_START (ms since 1970), CAMREC_DURATION, CAMREC_FRAMES, CAMREC_CAMERA, CAMREC_SERIES, and its standard input the file's JSON line; each ends in a hook line", summary: "run CMD for each finished file"),
        OptionSpec(["--on-file-jobs"], value: "N", help: "with --on-file: run at most N commands at once (default: 2); the others wait in order", summary: "--on-file: N commands at once (default: 2)"),
        OptionSpec(["--on-file-timeout"], value: "T", help: "with --on-file: stop a command (SIGTERM to its process group, SIGKILL 2 s later) that runs longer than T (default: 10m); at the run's end camrec waits at most T (and 3 s) for the commands still queued", summary: "--on-file: stop one after T (default: 10m)"),
    ]

    /// `--on-event` and its two options (record).
    public static let onEventSpecs = [
        OptionSpec(["--on-event"], value: "CMD", help: "run CMD for every event of the run: motion, sound, clip-started, camera-lost, camera-back, disk-low (each also a JSON line); split into words as --on-file's CMD; {event} in a word is the event's name; its environment has CAMREC_EVENT, CAMREC_TIME (ms since 1970), CAMREC_CAMERA, CAMREC_CLIP (clip-started), CAMREC_SERIES, and its standard input the event's JSON line; each ends in a hook line; at most 100 wait, more are dropped", summary: "run CMD for each event (motion, camera lost, …)"),
        OptionSpec(["--on-event-jobs"], value: "N", help: "with --on-event: run at most N commands at once (default: 2)", summary: "--on-event: N commands at once (default: 2)"),
        OptionSpec(["--on-event-timeout"], value: "T", help: "with --on-event: stop a command that runs longer than T (default: 10m), as --on-file-timeout", summary: "--on-event: stop one after T (default: 10m)"),
    ]
}

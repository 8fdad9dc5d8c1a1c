import ArgumentParsing
import CamrecKit

/// `camrec [record] [options] OUTPUT`: records a movie from a camera.
public enum RecordCommand {
    /// What the command takes and says: its options, arguments and help (`--help`, the man
    /// page, the completions and docs/cli.md are made from it).
    public static let spec = CommandSpec(
        name: "camrec",
        abstract: "Record a movie from a camera (v4l2src → H.264 → MP4, MOV or MKV).",
        usage: "camrec [record] [options] OUTPUT",
        groups: [
            OptionGroup("camera", title: "Camera", abstract: "Camera: which camera, at what size and frame rate, and its controls (exposure, focus, flash).",
                        options: CameraOptions.specs + PictureControlOptions.specs + [PictureControlOptions.settleSpec, CameraOptions.buffersSpec, CameraOptions.loopSpec],
                        discussion: PictureControlOptions.discussion),
            OptionGroup("output", title: "Output and limits", abstract: "Output and limits: when the recording stops, and what camrec prints.", options: [
                OptionSpec(["--max-duration", "-t"], value: "T", help: "stop by itself after T: 600, 90s, 10m, 1h2m3s, 00:10:00; 0 or none for no limit (default: 10m; with --schedule none: the windows end the movies, and a T given caps each)", summary: "stop after T (default: 10m; 0: no limit)"),
                OptionSpec(["--timelapse"], value: "T", help: "a time-lapse: keep one camera frame every T of capture time (e.g. 10s, 500ms; longer than one camera frame) and play them at the movie's frame rate (--fps); --max-duration, --segment and --still-every stay capture time; no --audio, no event clips", summary: "keep one frame every T, played at the normal rate"),
                OptionSpec(["--force", "-f"], help: "replace OUTPUT if it exists"),
                OptionSpec(["--json"], help: "print JSON lines on stdout: schedule, started, settled, still, segment, clip-started, clip, motion, sound, deleted, disk-low, hook, camera-lost, camera-back, warning, result", summary: "print JSON lines on stdout"),
                OptionSpec(["--quiet", "-q"], help: "print nothing on stderr but errors"),
                OptionSpec(["--print-pipeline"], help: "print the gst-launch-1.0 line that would run, and exit", summary: "print the gst-launch-1.0 line, and exit"),
                OptionSpec(["--pipeline"], value: "FILE", help: "record with this pipeline template instead of the built-in one (pipelines/record.pipeline: same placeholders and element names)", summary: "record with this pipeline template"),
                OptionSpec(["--version"], help: "print the version and exit"),
            ], discussion: """
                SIGINT, SIGTERM or SIGHUP stop the recording and finalise the file; a second
                signal aborts at once (the file still plays). SIGUSR1 takes a still: the newest
                camera frame at full size (an MJPEG camera's own JPEG, unless --rotate, --flip,
                --mirror or an overlay changes the picture), written beside the movie
                without touching the recording. SIGUSR2 makes an event clip (with --pre-roll or
                --post-roll). On an interactive terminal, the key s takes a still, c makes a
                clip and q stops. The movie is written to
                NAME.partial.EXT and renamed to OUTPUT once finalised; after a crash that file
                holds all but about the last second (camrec recover finishes it).
                """),
            OptionGroup("unattended", title: "Unattended runs", abstract: "Unattended runs: segments, retention, reconnecting to a lost camera, recording windows, and remote control.",
                        options: UnattendedOptions.specs + ScheduleOptions.specs + [
                OptionSpec(["--control"], value: "PATH", help: "create a control socket (mode 0600) for `camrec ctl PATH still|stop|status|split|clip|text|set NAME=VALUE`", summary: "a control socket for camrec ctl PATH …"),
            ]),
            OptionGroup("encoding", title: "Encoding", abstract: "Encoding: the movie's video codec, its encoder, quality and keyframes.", options: EncodingOptions.specs + [
                OptionSpec(["--keyframe-interval", "-g"], value: "T", help: "time between keyframes (default: 1s, 0.5s with --segment); a crash loses at most about this much of an MP4/MOV", summary: "time between keyframes (default: 1s)"),
            ], discussion: EncodingOptions.discussion),
            OptionGroup("sound", title: "Sound", abstract: "Sound: recording sound with the picture, kept in sync with it.",
                        options: AudioOptions.specs, discussion: AudioOptions.discussion),
            OptionGroup("picture", title: "Picture", abstract: "Picture: rotation, mirroring, privacy masks, and text or an image burnt into the picture.",
                        options: PictureOptions.specs + MaskOptions.specs),
            OptionGroup("stills", title: "Stills and clips", abstract: "Stills and clips: photos while recording, and event clips around triggers.", options: [
                OptionSpec(["--stills"], value: "PATTERN", help: "where stills go: a pattern with one counter (shots/img-%04d.jpg; its extension, .jpg, .jpeg or .png, picks the format) or a folder (default: beside OUTPUT, NAME-still-0001.jpg); checked at start like OUTPUT; existing files are never replaced", summary: "where stills go: a pattern or a folder"),
                OptionSpec(["--still-format"], value: "FMT", help: "jpeg (default) or png; a --stills pattern's extension decides (a different --still-format is an error)", summary: "jpeg (default) or png"),
                OptionSpec(["--still-quality"], value: "Q", help: "JPEG quality, 1-100 (default: 90)"),
                OptionSpec(["--still-every"], value: "T", help: "take a still every T of recorded video (the first at T), e.g. 30s", summary: "take a still every T of video, e.g. 30s"),
                LocationOption.spec,
            ] + ClipOptions.specs, discussion: ClipOptions.discussion),
            OptionGroup("ocr", title: "Text", abstract: "Text: reading the text in the picture while recording (libtesseract).",
                        options: TextOptions.specs, discussion: TextOptions.discussion),
            OptionGroup("live", title: "Live view", abstract: "Live view: a preview window, and the recording served live over RTSP.",
                        options: PreviewOptions.specs + ServeOptions.specs, discussion: PreviewOptions.discussion),
            OptionGroup("multicam", title: "Several cameras", abstract: "Several cameras: one movie per camera, or all composed onto one canvas.",
                        options: LayoutOptions.multiCameraSpecs,
                        discussion: LayoutOptions.severalCamerasDiscussion + "\n\n" + LayoutOptions.canvasDiscussion),
        ],
        positionals: [PositionalSpec("OUTPUT", help: "the movie to write (.mp4, .mov or .mkv)")],
        discussion: """
            Subcommands (camrec help SUBCOMMAND shows one's help):
              camrec devices [options]          list the cameras and sound sources
              camrec still [options] OUTPUT     take a photo (waits for exposure to settle)
              camrec preview [options]          show the camera in a window, not recording
              camrec ctl SOCKET COMMAND         control a recording started with --control
              camrec trim [options] INPUT       cut the start or end of a movie
              camrec recover [options] FILE…    finish movies left as .partial by a crash
              camrec ls [options] [PATH…]       list what was recorded: series, gaps, health
              camrec export [options] SERIES    a time range of a series as one movie
              camrec sheet [options] MOVIE…     a contact sheet of movies' frames, captioned
              camrec text [options] IMAGE…      recognise the text in stills and movies
              camrec react [options] VIDEO OUT  record yourself reacting to a video
              camrec doctor [options] [OUTPUT]  check what a recording needs, with fixes
              camrec encoders [options]         list video encoders and whether each works
              camrec help [SUBCOMMAND|TOPIC]    a subcommand's help, or a topic in full

            Examples:
              camrec --max-duration 600 out.mp4
              camrec --device test --max-duration 5s --json test.mkv
              camrec --timelapse 10s --max-duration 8h day.mp4

            \(ExitCodeTable.all)
            """
    )
}

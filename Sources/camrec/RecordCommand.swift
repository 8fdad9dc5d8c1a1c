import FoundationEssentials
import ArgumentParsing
import CamrecKit

/// `camrec [record] [options] OUTPUT`: records a movie from a camera.
enum RecordCommand: Subcommand {
    static let spec = CommandSpec(
        name: "camrec",
        abstract: "Record a movie from a camera (v4l2src → H.264 → MP4, MOV or MKV).",
        usage: "camrec [record] [options] OUTPUT",
        groups: [
            OptionGroup("camera", title: "Camera", abstract: "Camera: which camera, at what size and frame rate, and its controls (exposure, focus, flash).",
                        options: CameraOptions.specs + PictureControlOptions.specs + [PictureControlOptions.settleSpec],
                        discussion: PictureControlOptions.discussion),
            OptionGroup("output", title: "Output and limits", abstract: "Output and limits: when the recording stops, and what camrec prints.", options: [
                OptionSpec(["--max-duration", "-t"], value: "T", help: "stop by itself after T: 600, 90s, 10m, 1h2m3s, 00:10:00; 0 or none for no limit (default: 10m)", summary: "stop after T (default: 10m; 0: no limit)"),
                OptionSpec(["--force", "-f"], help: "replace OUTPUT if it exists"),
                OptionSpec(["--json"], help: "print JSON lines on stdout: started, settled, still, segment, clip, deleted, camera-lost, camera-back, warning, result", summary: "print JSON lines on stdout"),
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
            OptionGroup("unattended", title: "Unattended runs", abstract: "Unattended runs: segments, retention, reconnecting to a lost camera, and remote control.",
                        options: UnattendedOptions.specs + [
                OptionSpec(["--control"], value: "PATH", help: "create a control socket (mode 0600) for `camrec ctl PATH still|stop|status|split|clip|set NAME=VALUE`", summary: "a control socket for camrec ctl PATH …"),
            ]),
            OptionGroup("encoding", title: "Encoding", abstract: "Encoding: the movie's video codec, its encoder, quality and keyframes.", options: EncodingOptions.specs + [
                OptionSpec(["--keyframe-interval", "-g"], value: "T", help: "time between keyframes (default: 1s, 0.5s with --segment); a crash loses at most about this much of an MP4/MOV", summary: "time between keyframes (default: 1s)"),
            ], discussion: EncodingOptions.discussion),
            OptionGroup("sound", title: "Sound", abstract: "Sound: recording sound with the picture, kept in sync with it.",
                        options: AudioOptions.specs, discussion: AudioOptions.discussion),
            OptionGroup("picture", title: "Picture", abstract: "Picture: rotation, mirroring, and text or an image burnt into the picture.",
                        options: PictureOptions.specs),
            OptionGroup("stills", title: "Stills and clips", abstract: "Stills and clips: photos while recording, and event clips around triggers.", options: [
                OptionSpec(["--stills"], value: "PATTERN", help: "where stills go: a pattern with one counter (shots/img-%04d.jpg; its extension, .jpg, .jpeg or .png, picks the format) or a folder (default: beside OUTPUT, NAME-still-0001.jpg); checked at start like OUTPUT; existing files are never replaced", summary: "where stills go: a pattern or a folder"),
                OptionSpec(["--still-format"], value: "FMT", help: "jpeg (default) or png; a --stills pattern's extension decides (a different --still-format is an error)", summary: "jpeg (default) or png"),
                OptionSpec(["--still-quality"], value: "Q", help: "JPEG quality, 1-100 (default: 90)"),
                OptionSpec(["--still-every"], value: "T", help: "take a still every T of recorded video (the first at T), e.g. 30s", summary: "take a still every T of video, e.g. 30s"),
                LocationOption.spec,
            ] + ClipOptions.specs, discussion: ClipOptions.discussion),
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
              camrec sheet [options] MOVIE…     a contact sheet of movies' frames, captioned
              camrec doctor [options] [OUTPUT]  check what a recording needs, with fixes
              camrec encoders [options]         list video encoders and whether each works
              camrec help [SUBCOMMAND|TOPIC]    a subcommand's help, or a topic in full

            Examples:
              camrec --max-duration 600 out.mp4
              camrec --device test --max-duration 5s --json test.mkv

            \(CommandDispatcher.exitCodeTable)
            """
    )

    /// What the command line asks for.
    enum Request {
        case version
        case record(RecordJob)
    }

    static func validate(_ parsed: ParsedArguments) throws(UsageError) -> Request {
        parsed.flag("--version") ? .version : .record(try RecordOptions.job(parsed))
    }

    static func run(_ request: Request, console: Console) throws(CamrecError) -> ExitStatus {
        // A reader of stdout or stderr that stops reading must never hold up a recording.
        StandardStream.queueWrites()
        switch request {
        case .version:
            print("camrec \(CommandDispatcher.version)")
            return .success
        case .record(let job):
            return try job.run(console: console)
        }
    }
}

/// The record command's options, turned into typed values once: a `RecordJob`.
enum RecordOptions {
    /// The recording the options ask for; every problem is a usage error, found in the
    /// order the options are read.
    static func job(_ parsed: ParsedArguments) throws(UsageError) -> RecordJob {
        let camera = try CameraOptions.request(parsed)
        let picture = try PictureOptions.request(parsed)
        let encoding = try EncodingChoice(parsed)
        let audio = try AudioOptions.request(parsed)
        let preview = try PreviewOptions.request(parsed)
        let serve = try ServeChoice(parsed)
        let maxDuration = try parsed.value("--max-duration", MaxDuration.parseLimit) ?? MaxDuration.defaultLimit
        guard let output = parsed.positional("OUTPUT") else {
            throw UsageError("missing OUTPUT: give the movie to write, e.g. camrec out.mp4 (see camrec --help)")
        }
        guard let container = MediaContainer(recordingPath: output) else {
            throw UsageError("cannot tell the format of '\(output)': end OUTPUT with .mp4, .mov or .mkv")
        }
        let clips = try ClipChoice(parsed, output: output, container: container)
        if clips.standby, parsed.value("--segment") != nil {
            throw UsageError("--standby records no movie, so --segment does not apply to it: leave it out, or record continuously with clips instead")
        }
        var template = PipelineTemplate.record
        if let file = parsed.value("--pipeline") {
            guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
                throw UsageError("--pipeline \(file): cannot read it: give a readable text file like pipelines/record.pipeline")
            }
            template = PipelineTemplate(text: text)
        }
        var unattended = try UnattendedChoice(parsed, output: output)
        // --reconnect names its movies as segments; standby makes none, only clips.
        if clips.standby { unattended.segments = nil }
        let stills = try stillSettings(parsed, moviePath: unattended.segments.map { plainName($0.naming) } ?? output)
        let controlPath = parsed.value("--control")
        if let controlPath, controlPath == output {
            throw UsageError("--control \(controlPath) is OUTPUT too: give the control socket another path, e.g. /tmp/camrec.sock")
        }
        let layout = try LayoutChoice(parsed)
        let controls = try PictureControlOptions.request(parsed)
        let settle = try PictureControlOptions.settle(parsed)
        let keyframeInterval = try parsed.value("--keyframe-interval") { (text: String) throws(ValueError) -> TimeSpec in
            let interval = try TimeSpec.parse(text)
            guard interval.nanoseconds > 0, interval <= .seconds(10) else {
                throw ValueError("invalid keyframe interval '\(text)': use a time above 0 and at most 10s, e.g. 1s or 0.5")
            }
            return interval
        }

        let force = parsed.flag("--force")
        var request = RecordingRequest(output: output, devices: camera.devices, stills: stills)
        request.outputPerDevice = parsed.flag("--output-per-device")
        request.allOrNothing = parsed.flag("--all-or-nothing")
        request.layout = layout.layout
        request.canvas = layout.canvas
        request.force = force
        request.stillsPattern = parsed.value("--stills")
        request.location = try LocationOption.value(parsed)
        request.clips = clips.settings
        request.clipsPattern = clips.patternText
        request.utc = clips.utc
        request.standby = clips.standby
        request.segments = unattended.segments
        request.segmentGiven = unattended.segmentGiven
        request.retention = unattended.retention
        request.settle = settle
        request.codecCopy = encoding.codec == .copy
        request.preview = preview.mode != .off
        request.serve = serve.settings != nil
        request.customPipeline = template.text != PipelineTemplate.record.text

        var settings = RunSettings(maxDuration: maxDuration, container: container, encoding: encoding.request(
            keyframeInterval: keyframeInterval?.seconds
                ?? EncoderSettings.defaultKeyframeInterval(segmented: unattended.segments != nil)))
        settings.overwrite = force
        settings.settle = settle
        settings.reconnect = unattended.reconnect
        settings.recoverPartials = unattended.recoverPartials
        settings.motion = clips.motion
        settings.motionMask = clips.motionMask
        settings.preview = preview.settings
        settings.serve = serve.settings
        settings.template = template

        var job = RecordJob(request: request, settings: settings, picture: picture, camera: camera)
        (job.audio, job.audioBitrate) = audio
        job.preview = preview
        job.controls = controls
        job.controlPath = controlPath
        job.printPipeline = parsed.flag("--print-pipeline")
        job.stillQualityGiven = parsed.value("--still-quality") != nil
        job.warnings = serve.warnings
        return job
    }

    /// A segmented run's movie name without its fields (`cam-%Y%m%d.mp4` → `cam.mp4`), for
    /// the stills' default names beside the movies.
    static func plainName(_ naming: SegmentNaming) -> String { naming.stillBase }

    /// `--still-format` and `--still-quality`: the format asked for (nil: from the name)
    /// and the JPEG quality.
    static func stillFormat(_ parsed: ParsedArguments) throws(UsageError) -> (format: StillFormat?, quality: Int) {
        let quality = try parsed.value("--still-quality", StillCommand.quality) ?? StillFormat.defaultQuality
        switch parsed.value("--still-format")?.lowercased() {
        case nil: return (nil, quality)
        case "jpeg", "jpg": return (.jpeg(quality: quality), quality)
        case "png": return (.png, quality)
        case let other?: throw UsageError("--still-format: unknown format '\(other)': use jpeg or png")
        }
    }

    static func stillSettings(_ parsed: ParsedArguments, moviePath: String) throws(UsageError) -> StillSettings {
        let (format, quality) = try stillFormat(parsed)
        let every = try parsed.value("--still-every") { (text: String) throws(ValueError) -> TimeSpec in
            let period = try TimeSpec.parse(text)
            guard period.nanoseconds > 0 else { throw ValueError("the period must be above 0") }
            return period
        }
        do {
            return try StillSettings.resolve(pattern: parsed.value("--stills"), format: format, quality: quality,
                                             every: every, moviePath: moviePath)
        } catch {
            throw UsageError(error.message)
        }
    }
}

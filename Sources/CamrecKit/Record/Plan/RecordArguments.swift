import FoundationEssentials

/// The record command's options as given (strings and flags; the camera and the picture
/// already typed, as every camera command types them), and ``job(environment:)``, which
/// turns them into a `RecordJob` with every rule that needs no camera: the command line
/// only reads options.
public struct RecordArguments: Sendable, Equatable {
    /// `--device`, `--size`, `--fps`.
    public var camera: CameraRequest
    /// `--rotate`, `--flip`, `--mirror`, the overlays.
    public var picture: PictureRequest
    /// OUTPUT; nil when missing.
    public var output: String?
    /// `--codec`, `--encoder`, `--quality`, `--bitrate`, `--keyframe-interval`.
    public var codec, encoder, quality, bitrate, keyframeInterval: String?
    /// `--audio`, `--audio-bitrate`.
    public var audio, audioBitrate: String?
    /// `--preview` (given bare or with a value), `--preview-stops`.
    public var preview = false, previewStops = false
    /// `--preview=VALUE`.
    public var previewValue: String?
    /// `--serve`, `--serve-auth`, `--serve-auth-file`, `--serve-insecure`.
    public var serve = ServeRequest()
    /// `--max-duration`.
    public var maxDuration: String?
    /// `--timelapse`.
    public var timelapse: String?
    /// The event-clip options.
    public var clips = ClipRequest()
    /// `--pipeline FILE`.
    public var pipeline: String?
    /// `--segment`, `--utc`, retention, `--reconnect…`, `--recover-partials`.
    public var unattended = UnattendedRequest()
    /// `--stills`, `--still-format`, `--still-quality`, `--still-every`.
    public var stills, stillFormat, stillQuality, stillEvery: String?
    /// `--control PATH`.
    public var control: String?
    /// `--layout`, `--canvas`.
    public var layout = LayoutRequest()
    /// `--output-per-device`, `--all-or-nothing`.
    public var outputPerDevice = false, allOrNothing = false
    /// `--set` (every one given).
    public var sets: [String] = []
    /// `--flash`.
    public var flash: String?
    /// `--keep-controls`.
    public var keepControls = false
    /// `--settle`.
    public var settle: String?
    /// `--camera-buffers N`.
    public var cameraBuffers: String?
    /// `--loop`.
    public var loop = false
    /// `camrec react`: the movie's sound mixed with `--audio`'s (default: the system's
    /// default input), each at its gain (linear); nil: `--audio` alone.
    public var mix: SoundMix?
    /// `camrec react`: a movie played as a camera also plays its sound on the default output.
    public var playsAloud = false
    /// `--text`, `--text-changes`.
    public var text = false, textChanges = false
    /// `--text-every`, `--text-lang`, `--text-region`.
    public var textEvery, textLang, textRegion: String?
    /// `--force`, `--print-pipeline`.
    public var force = false, printPipeline = false

    /// The options of a recording from `camera` with `picture` into `output`; set the rest.
    public init(camera: CameraRequest, picture: PictureRequest, output: String?) {
        self.camera = camera
        self.picture = picture
        self.output = output
    }

    /// The recording these options ask for; `environment` may hold `--serve`'s login. Every
    /// refusal is a usage error, found in the order the options are read.
    public func job(environment: [String: String] = ProcessInfo.processInfo.environment) throws(CamrecError) -> RecordJob {
        var encoding = try EncodingRequest.parse(codec: codec, encoder: encoder, quality: quality, bitrate: bitrate)
        let sound = try AudioRequest.parse(source: audio, bitrate: audioBitrate)
        let previewRequest = try PreviewRequest.parse(given: preview, value: previewValue, stops: previewStops)
        let (serveSettings, warnings) = try serve.resolve(environment: environment)
        let schedule = try OptionValue.parse("--schedule", unattended.schedule) { (text: String) throws(ValueError) in
            try Schedule(parsing: text)
        }
        // With a schedule, the windows' ends stop the movies; --max-duration, given, caps each.
        let limit = try OptionValue.parse("--max-duration", maxDuration, MaxDuration.parseLimit)
            ?? (schedule == nil ? MaxDuration.defaultLimit : nil)
        guard let output else {
            throw OptionValue.refusal("missing OUTPUT: give the movie to write, e.g. camrec out.mp4 (see camrec --help)")
        }
        guard let container = MediaContainer(recordingPath: output) else {
            throw OptionValue.refusal("cannot tell the format of '\(output)': end OUTPUT with .mp4, .mov or .mkv")
        }
        let (clipSettings, motion) = try clips.resolve(output: output, container: container, utc: unattended.utc)
        let soundTrigger = try clips.soundTrigger(hasSound: sound.source.isWanted)
        if clips.standby, unattended.segment != nil {
            throw OptionValue.refusal("--standby records no movie, so --segment does not apply to it: leave it out, or record continuously with clips instead")
        }
        let lapse = try Self.timelapse(timelapse, sound: sound.source, clips: clipSettings != nil || motion != nil || clips.standby,
                                       copy: encoding.codec == .copy, serve: serveSettings != nil)
        let textSettings = try RecordingTextSettings.parse(text: text, every: textEvery, changes: textChanges, lang: textLang,
                                                           region: textRegion)
        if textSettings != nil, let timelapse {
            throw OptionValue.refusal("--timelapse \(timelapse) retimes the frames the text would be read from: read the text in a run without --timelapse, or afterwards with camrec text --every T")
        }
        try lapse?.check(limit: limit)
        let template = try Self.template(pipeline)
        let run = try unattended.resolve(output: output, clips: clips)
        let hooks = try HookSettings.resolve(command: unattended.onFile, jobs: unattended.onFileJobs,
                                             timeout: unattended.onFileTimeout, path: environment["PATH"])
        let eventHooks = try HookSettings.resolve("--on-event", command: unattended.onEvent, jobs: unattended.onEventJobs,
                                                  timeout: unattended.onEventTimeout, path: environment["PATH"])
        // --reconnect names its movies as segments; standby makes none, only clips.
        let segments = clips.standby ? nil : run.segments
        let stillSettings = try StillSettings.parse(pattern: stills, format: stillFormat, quality: stillQuality, every: stillEvery,
                                                    moviePath: segments.map(\.naming.stillBase) ?? output)
        if let control, control == output {
            throw OptionValue.refusal("--control \(control) is OUTPUT too: give the control socket another path, e.g. /tmp/camrec.sock")
        }
        let (canvasLayout, canvas) = try layout.resolve()
        let controls: ControlRequest
        do {
            controls = try ControlRequest.parse(sets: sets, flash: flash, keepControls: keepControls)
        } catch {
            throw OptionValue.refusal(error.message)
        }
        let settleTime = try OptionValue.parse("--settle", settle) { (text: String) throws(ValueError) in try TimeSpec.parse(text) } ?? .zero
        encoding.keyframeInterval = try EncodingRequest.keyframeInterval(keyframeInterval, segmented: segments != nil)

        var request = RecordingRequest(output: output, devices: camera.devices, stills: stillSettings)
        request.outputPerDevice = outputPerDevice
        request.allOrNothing = allOrNothing
        request.layout = canvasLayout
        request.canvas = canvas
        request.force = force
        request.stillsPattern = stills
        request.clips = clipSettings
        request.clipsPattern = clips.pattern
        request.utc = unattended.utc
        request.standby = clips.standby
        request.segments = segments
        request.segmentGiven = unattended.segment != nil
        request.scheduled = schedule != nil
        request.retention = run.retention
        request.settle = settleTime
        request.codecCopy = encoding.codec == .copy
        request.masked = picture.mask.isWanted
        request.preview = previewRequest.mode != .off
        request.serve = serveSettings != nil
        request.customPipeline = template.text != PipelineTemplate.record.text

        var settings = RunSettings(maxDuration: limit, container: container, encoding: encoding)
        settings.overwrite = force
        settings.settle = settleTime
        settings.cameraBuffers = try OptionValue.parse("--camera-buffers", cameraBuffers) { (text: String) throws(ValueError) -> Int in
            guard let count = Int(text), (CameraQueueDepth.fewest...CameraQueueDepth.most).contains(count) else {
                throw ValueError("give how many buffers the camera fills, \(CameraQueueDepth.fewest) to \(CameraQueueDepth.most), e.g. --camera-buffers 8")
            }
            return count
        }
        settings.timelapse = lapse
        if loop, !camera.devices.contains(where: { $0.hasPrefix(MovieSource.prefix) }) {
            throw CamrecError(.usage, "--loop repeats a movie played as a camera: give --device file:PATH too, e.g. --device file:clip.mp4 --loop")
        }
        settings.loop = loop
        settings.playsAloud = playsAloud
        settings.reconnect = run.reconnect
        settings.recoverPartials = unattended.recoverPartials
        settings.motion = motion
        settings.motionMask = clips.motionMask
        settings.soundTrigger = soundTrigger
        settings.text = textSettings
        settings.preview = previewRequest.settings
        settings.serve = serveSettings
        settings.template = template

        var job = RecordJob(request: request, settings: settings, picture: picture, camera: camera)
        (job.audio, job.audioBitrate) = sound
        if let mix {
            job.audio = .mix(microphone: sound.source == .none ? .systemDefault : sound.source,
                             movieGain: mix.movieGain, microphoneGain: mix.microphoneGain)
        }
        job.preview = previewRequest
        job.controls = controls
        job.controlPath = control
        job.printPipeline = printPipeline
        job.stillQualityGiven = stillQuality != nil
        job.hooks = hooks
        job.eventHooks = eventHooks
        let standbyBetween = try ScheduleSettings.standbyBetween(unattended.betweenWindows, scheduled: schedule != nil,
                                                                 clips: clipSettings != nil, standby: clips.standby)
        job.schedule = schedule.map { ScheduleSettings(schedule: $0, utc: unattended.utc) }
        job.schedule?.standbyBetween = standbyBetween
        job.warnings = warnings
        if let lapse, maxDuration == nil, schedule == nil {
            // A time-lapse is for long runs: the default limit would make a very short movie.
            let frames = MaxDuration.frames(in: limit ?? MaxDuration.defaultLimit, at: lapse.captureRate)
            job.warnings.append("--timelapse \(lapse.interval.description) stops after the default --max-duration of \(MaxDuration.defaultLimit.description) of capture time (\(frames) frames): give --max-duration, e.g. 8h, or none to record until stopped")
        }
        return job
    }

    /// `--timelapse` (nil: not given), refusing what a time-lapse cannot go with: sound
    /// (its frames play many times faster than they were captured), event clips (cut from
    /// the encoded stream, which runs on the time-lapse's clock), the camera's own stream
    /// (`--codec copy`: frames are dropped and retimed) and the live stream (`--serve`).
    static func timelapse(_ text: String?, sound: AudioRequest, clips: Bool, copy: Bool,
                          serve: Bool) throws(CamrecError) -> TimeLapse? {
        guard let lapse = try TimeLapse.parse(text) else { return nil }
        let given = "--timelapse \(text ?? "")"
        if sound.isWanted {
            throw OptionValue.refusal("\(given) makes a silent movie (its frames play faster than they were captured): leave out --audio, or record sound without --timelapse")
        }
        if clips {
            throw OptionValue.refusal("\(given) cannot make event clips (--on-motion, --pre-roll, --post-roll, --max-clip, --clips, --standby): record the clips in a run of their own")
        }
        if copy {
            throw OptionValue.refusal("\(given) keeps one frame in many and retimes it, so the camera's stream cannot be stored as it comes: leave out --codec copy")
        }
        if serve {
            throw OptionValue.refusal("\(given) cannot be served live (--serve): its frames come one every \(lapse.interval.description); serve the camera from a run without --timelapse")
        }
        return lapse
    }

    /// The pipeline template: `--pipeline FILE`'s text, else the built-in one.
    private static func template(_ file: String?) throws(CamrecError) -> PipelineTemplate {
        guard let file else { return .record }
        guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
            throw OptionValue.refusal("--pipeline \(file): cannot read it: give a readable text file like pipelines/record.pipeline")
        }
        return PipelineTemplate(text: text)
    }
}

import FoundationEssentials
import Synchronization

/// One `camrec` recording as its options ask for it, and the order in which it starts:
/// the picture resolved (a bad `--overlay-image` first), the planner's checks, one camera's
/// names checked before any camera is looked at, the preview windows opened before the
/// cameras, the sound looked up, the cameras found, the plan, `RunSetup`, the camera
/// controls, the live stream, then `RecordingRun` driven by `RunControls`. One path for one
/// camera, several in movies of their own, or several on a canvas: the plan decides which.
public struct RecordJob {
    /// What the planner is asked for.
    public var request: RecordingRequest
    /// What every movie of the run records with; ``run(console:)`` fills in `picture`.
    public var settings: RunSettings
    /// Rotation, mirroring and overlays, the overlay image unread.
    public var picture: PictureRequest
    /// The camera(s), size and rate.
    public var camera: CameraRequest
    /// `--audio`.
    public var audio: AudioRequest = .none
    /// `--audio-bitrate`, kbit/s (nil: the default for the codec and channels).
    public var audioBitrate: Int?
    /// `--preview`, `--preview-stops`.
    public var preview = PreviewRequest(mode: .off)
    /// `--set`, `--flash`, `--keep-controls`.
    public var controls = ControlRequest()
    /// `--control PATH`; nil: no control socket.
    public var controlPath: String?
    /// `--print-pipeline`: print the gst-launch-1.0 lines and create nothing.
    public var printPipeline = false
    /// `--on-file`: the command run for each finished file; nil: none.
    public var hooks: HookSettings?
    /// `--on-event`: the command run for each event; nil: none.
    public var eventHooks: HookSettings?
    /// `--schedule`: record only inside its windows; nil: record now.
    public var schedule: ScheduleSettings?
    /// Whether `--still-quality` was given (it does nothing for an MJPEG camera's stills).
    public var stillQualityGiven = false
    /// Said as warnings before the run starts, after the setup's own (e.g. a password on
    /// the command line).
    public var warnings: [String] = []
    /// `camrec react --separate`: the video played beside the recording; nil otherwise.
    public var separateVideo: SeparateVideo?

    /// A recording of `request` with `settings`, from `camera`, with `picture`.
    public init(request: RecordingRequest, settings: RunSettings, picture: PictureRequest, camera: CameraRequest) {
        self.request = request
        self.settings = settings
        self.picture = picture
        self.camera = camera
    }

    /// Records, showing its events on `console`; the exit status is the result's.
    public func run(console: Console) throws(CamrecError) -> ExitStatus {
        // A bad --overlay-image is refused before the output or the camera is looked at.
        let picture = try self.picture.resolve()
        // What no camera could change is refused before any camera is looked for.
        try RecordingPlanner.check(request)
        // libtesseract and its models are looked for before any camera (exit 69).
        if !printPipeline { try settings.text?.checkInstalled() }
        let several = request.isSeveralCameras
        let devices = several ? camera.devices : [camera.device ?? "0"]
        // One camera's names are known now, so a bad OUTPUT fails before the camera is
        // touched; several cameras' may hold {device}, known once the cameras are found.
        let earlyPlan = several ? nil : try Self.plan(request, devicePaths: devices, checking: !printPipeline)
        let printer = RecordingPrinter(console: console)
        // The preview windows' pipelines start threads: they must block the signals that
        // the watcher below takes, or a stop signal delivered to one of them would kill camrec.
        if preview.mode != .off, !printPipeline { SignalWatcher.block(SignalWatcher.recordingSignals) }
        // The windows open before the cameras: without a display, nothing is touched. One
        // per camera's movie, one for a canvas.
        let windows = printPipeline ? 0 : (several && request.layout == nil ? devices.count : 1)
        let previews = try LiveOutputs.openPreviews(preview, windows: windows, printer: printer, console: console)
        defer { for window in previews { window.close() } }
        var settings = self.settings
        settings.picture = picture
        // The sound source is looked up before the camera is opened (its camera's
        // microphone needs the camera's path first).
        let earlySound = audio.waitsForCameras ? nil : try sound(camera: nil)
        let prefer = EncodingPlanner.preferredFamilies(settings.encoding, needsDecoding: settings.needsDecoding(composes: request.layout != nil))
        var cameras: [CameraResolver.Resolution] = []
        for device in devices {
            cameras.append(try (several ? camera.one(device) : camera).resolve(prefer: prefer, movies: true))
        }
        let plan: RecordingPlan
        if let earlyPlan {
            plan = earlyPlan
        } else {
            plan = try Self.plan(request, devicePaths: cameras.map(\.source.deviceName), checking: !printPipeline)
        }
        var setup = try RunSetup.make(plan: plan, cameras: cameras, devices: devices, settings: settings) { camera throws(CamrecError) in
            if audio == .movie {
                // The movie's own sound; in movies of their own, only the first movie records sound.
                let input = try AudioInput.movie(among: cameras.map(\.source), firstOnly: several && request.layout == nil)
                return AudioSettings(input: input, container: settings.container, bitrate: audioBitrate)
            }
            if case .mix(let microphone, let movieGain, let microphoneGain) = audio {
                // camrec react: the movie's sound and a microphone (a camera's: the first camera's).
                let movie = try AudioInput.movie(among: cameras.map(\.source))
                let firstCamera = cameras.lazy.compactMap { if case .camera(let path, _) = $0.source { path } else { nil } }.first
                guard let input = try AudioSourceResolver.live.resolve(microphone, camera: firstCamera) else {
                    return AudioSettings(input: movie, container: settings.container, bitrate: audioBitrate)
                }
                let mixed = AudioInput(element: .mix(moviePath: movie.element.moviePath ?? "", microphone: input.element,
                                                     movieGain: movieGain, microphoneGain: microphoneGain),
                                       channels: 2, rate: 48000, reason: movie.reason + " mixed with " + input.reason)
                return AudioSettings(input: mixed, container: settings.container, bitrate: audioBitrate)
            }
            return audio == .camera ? try sound(camera: camera) : earlySound
        }
        for config in setup.recorded {
            try config.text?.check(frameSize: config.picture.orientation.outputSize(config.size))
        }
        // --mask rectangles in pixels must lie inside each camera's (turned) picture.
        for (index, config) in setup.cameras.enumerated() {
            try config.picture.mask.check(frame: config.picture.orientation.outputSize(config.size),
                                          camera: several ? "camera \(index + 1) (\(devices[index])): " : "")
        }
        let controls = try CameraControlSet(self.controls, setup: setup, devices: devices, check: !printPipeline) { warning in
            printer.show(.warning(warning))
        }
        if printPipeline {
            for line in try setup.commandLines() { print(line) }
            return .success
        }
        for warning in setup.warnings + warnings + startWarnings(setup) {
            printer.show(.warning(warning))
        }
        // Put back what camrec changed, before the result line, or on the way out of a failure.
        defer { controls.restore() }
        try controls.apply(to: &setup)
        setup.showPreviews(previews.count)
        SignalWatcher.block(SignalWatcher.recordingSignals)
        // camrec react --separate: the video to watch, opened before the camera starts.
        let playback = try separateVideo.map { video throws(CamrecError) in
            try SeparateVideoPlayback(video, warn: { printer.show(.warning($0)) })
        }
        defer { playback?.close() }
        // The live stream listens before the cameras' pipelines start (a taken port stops camrec here).
        let servers = try LiveOutputs.startServers(for: setup, console: console)
        defer { for server in servers { server.close() } }
        let queue = { (settings: HookSettings, ledger: String?) in
            HookQueue(settings: settings, ledgerFor: ledger, report: { printer.show($0) }, warn: { printer.show(.warning($0)) })
        }
        let hooks = self.hooks == nil && eventHooks == nil ? nil
            : RunHooks(files: self.hooks.map { queue($0, request.output) }, events: eventHooks.map { queue($0, nil) },
                       series: request.output)
        // An earlier run's files whose commands never ended go first.
        hooks?.resumeEarlierRuns()
        // A failure still waits for the commands of the files already published.
        defer { hooks?.finish() }
        let events: @Sendable (RecordingEvent) -> Void = { event in
            if case .started = event { playback?.recordingStarted() }
            printer.show(event)
            hooks?.published(event)
        }
        // A stop signal once the run has ended (camrec waits for the commands) gives up that wait.
        let ended = Mutex(false)
        let stopSignal: @Sendable () -> Void = { if ended.withLock({ $0 }) { hooks?.abandon() } }
        // The result line comes last: after the commands of its files have ended.
        var result: RecordingResult
        if let schedule {
            // A run per window, each ending its movie at the window's end; between them
            // the camera is closed and camrec waits on the clock.
            let lead = ScheduleSettings.cameraLead.nanoseconds + settings.settle.nanoseconds
            let scheduled = ScheduledRun(schedule: schedule.schedule, zone: schedule.zone, utc: schedule.utc, lead: lead,
                                         clock: try SystemScheduleClock())
            let driven = try RunControls(run: scheduled, controlPath: controlPath, setHandler: controls.setHandler,
                                         previews: previews, console: console, onStopSignal: stopSignal)
            defer { driven.end() }
            let standby: ((RecordingWindow) throws(CamrecError) -> any WindowRun)? = schedule.standbyBetween ? { gap in
                RecordingRun(setup.standby(gap), previews: previews, servers: servers)
            } : nil
            result = try scheduled.run(makeRun: { window in
                RecordingRun(setup.windowed(RecordingWindow(window)), previews: previews, servers: servers)
            }, makeStandbyRun: standby, windowEnded: { hooks?.published($0) }, events: events)
        } else {
            let run = RecordingRun(setup, previews: previews, servers: servers)
            playback?.endRecording { run.requestStop(.sourceEnded, requests: 1) }
            let driven = try RunControls(run: run, controlPath: controlPath, setHandler: controls.setHandler,
                                         previews: previews, console: console, onStopSignal: stopSignal)
            defer { driven.end() }
            result = try run.run(events: events)
        }
        controls.restore()
        ended.withLock { $0 = true }
        // An aborted run (asked twice to stop) does not wait for its commands either: the
        // files whose command has not ended are left for the next run.
        if result.reason == .aborted { hooks?.abandon() }
        if let hooks {
            hooks.published(result)
            let pending = hooks.pending
            if pending > 0, result.reason != .aborted {
                console.say("camrec: waiting for \(pending) --on-file/--on-event command\(pending == 1 ? "" : "s") to end "
                            + "(stop again to leave them for the next run)")
            }
            hooks.finish()
            if self.hooks != nil { Self.retainAfterHooks(setup, result: &result, printer: printer) }
        }
        playback?.close()
        if let line = playback?.line(for: result) { printer.show(line) }
        printer.show(result)
        return result.exitStatus
    }

    /// Retention once more once the `--on-file` commands have ended: a movie or clip kept
    /// for its command while the run went on may go now (stopping: only `--keep` and
    /// `--keep-size`, as at every run's end).
    private static func retainAfterHooks(_ setup: RunSetup, result: inout RecordingResult, printer: RecordingPrinter) {
        for config in setup.recorded {
            var keepers: [RetentionKeeper] = []
            if let segments = config.segments, segments.retention.isActive {
                keepers.append(RetentionKeeper(policy: segments.retention, naming: segments.naming))
            }
            if let clips = config.clips, let policy = clips.retention {
                keepers.append(RetentionKeeper(policy: policy, naming: clips.naming(moviePath: clips.namedAfter ?? config.outputPath)))
            }
            for keeper in keepers {
                for var file in keeper.apply(stopping: true).deleted {
                    if setup.recorded.count > 1 { file.device = config.source.deviceName }
                    printer.show(.deleted(file))
                    result.files.removeAll { $0.path == file.path }
                }
            }
        }
    }

    /// The sound for a recording from `camera` (its path; nil for the test pattern, or
    /// before any camera is found); nil without sound.
    private func sound(camera: String?) throws(CamrecError) -> AudioSettings? {
        guard let input = try AudioSourceResolver.live.resolve(audio, camera: camera) else { return nil }
        return AudioSettings(input: input, container: settings.container, bitrate: audioBitrate)
    }

    /// The plan for cameras at `devicePaths`; `checking`: its destinations are checked
    /// (not for --print-pipeline, which creates nothing: an existing OUTPUT is no reason to refuse it).
    private static func plan(_ request: RecordingRequest, devicePaths: [String], checking: Bool) throws(CamrecError) -> RecordingPlan {
        let plan = try RecordingPlanner.plan(request, devicePaths: devicePaths)
        if checking { try plan.checkDestinations() }
        return plan
    }

    /// Options that are valid but will not do what was asked of them with these cameras.
    private func startWarnings(_ setup: RunSetup) -> [String] {
        let mjpeg = setup.cameras.contains { camera in
            if case .camera(_, let format) = camera.source { return format.fourcc == "MJPG" }
            return false
        }
        if stillQualityGiven, mjpeg, request.stills.format != .png, !setup.cameras[0].picture.isActive {
            return ["--still-quality is not used: stills from an MJPEG camera are its own JPEG frames, byte for byte"]
        }
        return []
    }
}

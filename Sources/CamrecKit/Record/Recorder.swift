import FoundationEssentials
import GStreamer
import Synchronization
import V4L2

/// Runs one recording: builds the pipeline, gates it at the maximum duration, reads the
/// bus on the calling thread, stops cleanly on request and finalises the file. With
/// `--reconnect`, a lost camera ends the pipeline's movie; the recorder waits for the same
/// camera and goes on with a new pipeline, in the next movie of the same run.
///
/// `run` blocks; call `requestStop` from any thread (signal watcher, control socket).
public final class Recorder: Sendable {
    /// The configuration it records with.
    public let config: RecordConfig
    private let template: PipelineTemplate
    private let control = RecordingControl()
    /// The preview window (`--preview`), kept across the pipelines of a run; nil without.
    private let preview: PreviewWindow?
    /// The RTSP server (`--serve`), kept across the pipelines of a run; nil without.
    private let server: LiveStreamServer?
    /// What closing the window does with `--preview-stops`; nil: this recording stops.
    private let previewStops: (@Sendable () -> Void)?

    /// A recorder for `config`; `preview` (opened by the caller, which closes it) shows the
    /// camera's frames while it records, when `config.preview` asks for it; `server`
    /// (started by the caller, which closes it) serves the encoded stream when `config.serve` does.
    /// `previewStops` replaces what closing the window does with `--preview-stops` (several
    /// cameras: every camera stops), instead of stopping this recording.
    public init(config: RecordConfig, template: PipelineTemplate = .record, preview: PreviewWindow? = nil,
                server: LiveStreamServer? = nil, previewStops: (@Sendable () -> Void)? = nil) {
        self.config = config
        self.template = template
        self.preview = preview
        self.server = server
        self.previewStops = previewStops
    }

    /// Asks the recording to stop: the first request finalises the file (EOS), a second
    /// one aborts at once (the fragmented file on disk still plays). `requests` above 1
    /// asks that many times at once (signals that arrived together).
    public func requestStop(_ reason: StopReason, requests: Int = 1) {
        control.requestStop(reason, requests: requests)
    }

    /// Asks for a still from the running recording; false when none is running (not yet
    /// started, or already finishing).
    @discardableResult
    public func requestStill(_ trigger: StillTrigger,
                             completion: (@Sendable (Result<ResultFile, CamrecError>) -> Void)? = nil) -> Bool {
        control.stills?.request(trigger, completion: completion) ?? false
    }

    /// Asks for the text of the next frame (`camrec ctl … text`); false when no recording
    /// runs or it reads no text (`--text`, `--text-every`).
    @discardableResult
    public func requestText(completion: @escaping @Sendable (Result<TextResult, CamrecError>) -> Void) -> Bool {
        control.text?.request(completion) ?? false
    }

    /// Starts a new movie file at the next frame (`camrec ctl … split`); false when no
    /// recording runs.
    public func requestSplit(atCaptureTime captureTime: UInt64? = nil) -> Bool {
        control.requestSplit(atCaptureTime: captureTime)
    }

    /// Asks for an event clip now (`camrec ctl … clip`, SIGUSR2, the key c); `after`
    /// overrides `--post-roll` for this trigger; `still` makes it a Live Photo (as
    /// `--live-photo` makes every clip). Nil when no recording runs.
    ///
    /// Several cameras: `atCaptureTime` places the trigger at that capture time (ns on the
    /// pipelines' clock, CLOCK_MONOTONIC), the same instant for every camera.
    public func requestClip(atCaptureTime: UInt64? = nil, after: TimeSpec? = nil,
                            still: Bool = false) -> Result<ClipTrigger, CamrecError>? {
        control.requestClip(at: atCaptureTime, after: after, still: still).map { result in
            result.map { outcome in
                switch outcome {
                case .started(let path, let number): ClipTrigger(path: path, clip: number, extended: false)
                case .extended(let path, let number): ClipTrigger(path: path, clip: number, extended: true)
                }
            }
        }
    }

    /// The capture time (ns on the pipelines' clock) of the newest frame the clips have
    /// been fed; nil without clips, before the first frame, or when no recording runs.
    public func newestClipFrameTime() -> UInt64? {
        control.newestClipFrame()
    }

    /// The running recording's state; nil before it starts and after it ends.
    public func status() -> RecorderStatus? {
        control.status()
    }

    /// Records until the limit, a stop request, or a failure; returns every file made.
    public func run(events: @escaping @Sendable (RecordingEvent) -> Void) throws(CamrecError) -> RecordingResult {
        // A schedule's window names its first movie after its start (the camera opens before it).
        let now = Date()
        let named = config.window.map { Date(timeIntervalSince1970: Double($0.start.seconds) + Double($0.start.nanoseconds) / 1e9) }
        let plan = try OutputPlan(config: config, now: max(now, named ?? now))
        // Standby writes no movie: the claim only checked that the folder takes files.
        if config.standby { plan.discardOpen() }
        // Unfinished movies an earlier camrec left here are mentioned once, never touched
        // (one camera or a canvas; several cameras in movies of their own: once for the
        // run, by `MultiCameraRecorder`).
        if config.startBarrier == nil || config.composition != nil {
            var stale = StalePartials.find(besideOutput: config.outputPath, excluding: plan.openPartialPaths)
            if config.recoverPartials {
                stale = StalePartials.recoverSeries(stale, output: config.outputPath, naming: config.segments?.naming) {
                    events(.warning($0))
                }
            }
            if let warning = StalePartials.warning(for: stale) { events(.warning(warning)) }
        }
        // The camera's identity, read before the first pipeline opens it: what finds it
        // again after an unplug, at whatever /dev/videoN it comes back.
        var identity: DeviceIdentity?
        // A canvas (--layout) takes its cameras back into their cells itself (CellReconnection).
        if config.reconnect != nil, config.composition == nil, case .camera(let path, _) = config.source {
            identity = try? DeviceIdentity.read(path: path)
        }
        if let preview, let settings = config.preview {
            // Weak: the window may outlive the recorder (the caller closes it).
            preview.onClose { [weak self, previewStops] reason in
                if settings.stopsRecording {
                    events(.warning(reason + ": stopping the recording (--preview-stops)"))
                    if let previewStops { previewStops() } else { self?.requestStop(.control) }
                } else {
                    events(.warning(reason + ": the recording goes on without it"))
                }
            }
        }
        var sessionConfig = config
        var run = RunTotals()
        run.timelapse = config.timelapse.map { ($0, config.rate) }
        var machine = RunMachine(reconnects: identity != nil)
        while true {
            var actions: [RunMachine.Action]
            do {
                let session = try RecordingSession(config: sessionConfig, pipeline: RecordPipeline(config: sessionConfig, template: template),
                                                   control: control, plan: plan, clipsBefore: run.lastClip, preview: preview,
                                                   server: server)
                let result = try session.run(announce: run.sessions == 0, events: events)
                run.add(result, frames: session.recordedFrames)
                if run.gridOrigin == nil { run.gridOrigin = session.firstFrameClockTime }
                actions = machine.handle(.pipelineEnded(result.reason, message: result.message, stopAsked: control.pendingStop.count > 0))
            } catch {
                plan.discardOpen()
                actions = machine.handle(.pipelineFailed(error, stopAsked: control.pendingStop.count > 0))
            }
            // Carries out what the machine says until the next pipeline is to start.
            var lostAt = ContinuousClock.now
            var back: CaptureDevice?
            nextPipeline: while !actions.isEmpty {
                switch actions.removeFirst() {
                case .fail(let error):
                    throw error
                case .end(let reason, let message):
                    return run.result(ending: reason, message: message)
                case .waitForCamera(let lost):
                    guard let identity else { return run.result(ending: .cameraLost, message: lost) }
                    lostAt = ContinuousClock.now
                    events(.cameraLost(lost))
                    switch waitForCamera(identity, timeout: config.reconnect?.timeout, status: run) {
                    case .stopped(let reason):
                        actions += machine.handle(.waitStopped(reason))
                    case .timedOut:
                        actions += machine.handle(.waitTimedOut(camera: "\(identity)", timeout: config.reconnect?.timeout))
                    case .back(let device):
                        back = device
                        actions += machine.handle(.cameraBack(framesLeft: framesLeft(after: run)))
                    }
                case .startNext:
                    guard let device = back else { return run.result(ending: .error, message: "no camera to go on with") }
                    do {
                        try plan.reserveNext()
                    } catch {
                        actions += machine.handle(.nextMovieRefused(error))
                        continue
                    }
                    // Standby writes no movie: the claim only checked that the folder takes files.
                    if config.standby { plan.discardOpen() }
                    events(.cameraBack(device: device.path, gap: (ContinuousClock.now - lostAt) / .seconds(1)))
                    // A camera plugged in again has its power-on controls: set camrec's again.
                    for warning in config.cameraBack?(0, device.path) ?? [] { events(.warning(warning)) }
                    sessionConfig = nextConfig(after: run, device: device)
                    break nextPipeline
                }
            }
        }
    }

    /// How the wait for a lost camera ended.
    private enum Wait {
        case back(CaptureDevice)
        case timedOut
        case stopped(StopReason)
    }

    /// Waits for the camera with `identity` (``CameraWait``) until it is there, `timeout`
    /// passes, or a stop is asked for; `ctl status` says "reconnecting" meanwhile.
    private func waitForCamera(_ identity: DeviceIdentity, timeout: TimeSpec?, status run: RunTotals) -> Wait {
        let (frames, dropped) = (run.frames, run.dropped)
        let seconds = config.elapsed(frames: frames, movieSeconds: Double(frames) / max(config.rate.framesPerSecond, 1))
        control.attachWaiting {
            RecorderStatus(state: "reconnecting", path: identity.stableName ?? identity.card, elapsed: seconds,
                           frames: frames, stills: 0, droppedFrames: dropped, maxDuration: self.config.maxDuration?.seconds)
        }
        defer { control.detach() }
        let outcome = CameraWait(for: identity, timeout: timeout).wait(calledOff: { control.pendingStop.count > 0 }) { interval in
            control.waitForStop(upTo: interval)
        }
        switch outcome {
        case .back(let device): return .back(device)
        case .timedOut: return .timedOut
        case .calledOff: return .stopped(control.pendingStop.reason ?? .signal)
        }
    }

    /// The frames of `--max-duration` left to record after `run` (the gap does not count:
    /// the limit is on video); nil without a limit.
    private func framesLeft(after run: RunTotals) -> Int? {
        config.maxDuration.map { MaxDuration.frames(in: $0, at: config.gateRate) - run.frames }
    }

    /// The configuration for the pipeline after a reconnect: the camera at its new node,
    /// in the format chosen as before, and what is left of `--max-duration`.
    private func nextConfig(after run: RunTotals, device: CaptureDevice) -> RecordConfig {
        var next = config
        if let left = framesLeft(after: run) {
            // (A time-lapse's frames each stand for one interval of capture time.)
            next.maxDuration = TimeSpec(nanoseconds: Int64((Double(max(left, 1)) / max(config.gateRate.framesPerSecond, 1e-9) * 1e9).rounded()))
        }
        if case .camera(_, let format) = config.source {
            next.source = .camera(path: device.path, format: format)
        }
        // Several cameras: the segments go on being cut where the other cameras' are.
        next.segmentGrid = run.gridOrigin
        return next
    }
}

/// What the pipelines of one run made, added up.
private struct RunTotals: Sendable {
    var sessions = 0
    var files: [ResultFile] = []
    var dropped: UInt64 = 0
    var corrupt: UInt64 = 0
    var shed: UInt64?
    var keyframeInterval: Double?
    var droppedAudioMs: Int?
    var audioClockPPM: Int?
    var lostMovies: [String] = []
    /// `--timelapse`, and the movie's rate: the result reports it, with the frames kept.
    var timelapse: (TimeLapse, movieRate: FrameRateValue)?

    /// Adds a pipeline's result and the frames it recorded (`frames`: all of them, also
    /// those of movies retention deleted since, and in standby, where no movie is made).
    mutating func add(_ result: RecordingResult, frames: Int) {
        sessions += 1
        self.frames += frames
        // The latest pipeline's: the drift its sound clock learnt last.
        audioClockPPM = result.audioClockPPM ?? audioClockPPM
        if let lost = result.droppedAudioMs { droppedAudioMs = (droppedAudioMs ?? 0) + lost }
        if let interval = result.keyframeInterval { keyframeInterval = max(keyframeInterval ?? 0, interval) }
        files += result.files
        lostMovies += result.lostMovies ?? []
        dropped += result.droppedFrames
        corrupt += result.corruptFrames
        if let left = result.shedFrames { shed = (shed ?? 0) + left }
    }

    /// Frames recorded: what `--max-duration` counts.
    var frames = 0
    /// Several cameras: the clock time of the run's first recorded frame, where its
    /// segment grid began; nil before it, and for one camera.
    var gridOrigin: UInt64?
    /// The highest clip number so far (retention deletes the oldest, never the newest).
    var lastClip: Int { files.filter { $0.kind == "clip" }.compactMap(\.index).max() ?? 0 }

    func result(ending reason: StopReason, message: String?) -> RecordingResult {
        // Movies first (in the order they were made), then stills.
        let ordered = files.filter { $0.kind == "movie" } + files.filter { $0.kind != "movie" }
        var result = RecordingResult(reason: reason, files: ordered, droppedFrames: dropped, corruptFrames: corrupt, message: message)
        result.keyframeInterval = keyframeInterval
        result.shedFrames = shed
        result.droppedAudioMs = droppedAudioMs
        result.audioClockPPM = audioClockPPM
        result.lostMovies = lostMovies.isEmpty ? nil : lostMovies
        result.timelapse = timelapse.map { $0.0.report(movieRate: $0.movieRate, framesKept: frames) }
        return result
    }
}

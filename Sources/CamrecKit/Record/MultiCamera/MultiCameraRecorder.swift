#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Records several cameras in one run (`--device` given more than once): one `Recorder`
/// per camera, each with its own pipeline, gate, muxer and output plan, all on the
/// system clock (CLOCK_MONOTONIC, which the cameras' buffer timestamps are taken on),
/// and one `StartBarrier` that starts every movie at the same instant of that clock.
///
/// `run` blocks until every camera has ended; stop and still requests go to all of them.
public final class MultiCameraRecorder: Sendable {
    /// One recorder per camera, in `--device` order.
    public let recorders: [Recorder]
    private let barrier: StartBarrier
    /// `--all-or-nothing`: a camera that ends lost (or failing) mid-run stops the others.
    private let allOrNothing: Bool
    /// The recorders again, for the cameras' motion detections (set once they exist), and
    /// the run's event merger while it runs (for warnings about one camera's trigger).
    private let shared = RunShared()
    /// Each camera's last status, for `status` once that camera has ended.
    private let lastStatus: Mutex<[RecorderStatus?]>

    /// Records with `configs` (one per camera, in order; each with its own output). With
    /// `allOrNothing`, a camera lost mid-run stops the whole run (every movie finalised);
    /// otherwise the others go on without it. `servers` (`--serve`, started by the caller,
    /// which closes them: `LiveStreamServer.startCameras`) serve each camera's encoded
    /// stream at its own mount, in `configs` order. `previews` (`--preview`, opened by the
    /// caller, which closes them) show each camera in a window of its own, in `configs`
    /// order; with `--preview-stops`, closing any of them stops every camera.
    public init(configs: [RecordConfig], template: PipelineTemplate = .record, allOrNothing: Bool = false,
                servers: [LiveStreamServer] = [], previews: [PreviewWindow?] = []) {
        self.allOrNothing = allOrNothing
        precondition(!configs.isEmpty, "a run needs a camera")
        let rate = configs[0].rate.framesPerSecond
        let barrier = StartBarrier(cameras: configs.count, frameInterval: UInt64(1e9 / max(rate, 1)))
        self.barrier = barrier
        lastStatus = Mutex(Array(repeating: nil, count: configs.count))
        let shared = self.shared
        let made = configs.enumerated().map { index, config in
            var config = config
            config.startBarrier = StartBarrier.Member(barrier: barrier, camera: index)
            // Motion seen by one camera (or the run's sound) makes a clip on every camera, at
            // the frame's (the sound's) instant.
            if config.motion != nil || config.soundTrigger != nil {
                config.runTrigger = { @Sendable capture, after in
                    let recorders = shared.state.withLock { $0.recorders }
                    return Self.clip(recorders, at: capture, after: after, camera: index, merger: shared.state.withLock { $0.merger })
                }
            }
            return Recorder(config: config, template: template,
                            preview: previews.indices.contains(index) ? previews[index] : nil,
                            server: servers.indices.contains(index) ? servers[index] : nil,
                            previewStops: { @Sendable in
                                for recorder in shared.state.withLock({ $0.recorders }) { recorder.requestStop(.control) }
                            })
        }
        recorders = made
        shared.state.withLock { $0.recorders = made }
    }

    /// Starts a new movie in every camera's series at one instant, now: each camera's
    /// first frame captured at or after it starts its next movie (`camrec ctl … split`);
    /// false when no camera records.
    public func requestSplit() -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let instant = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
        return recorders.map { $0.requestSplit(atCaptureTime: instant) }.contains(true)
    }

    /// One trigger for every camera (`camrec ctl SOCKET clip`, SIGUSR2, the key c): each
    /// camera makes its clip from its own pre-roll, all at the same capture instant: the
    /// newest frame any camera has encoded. With `still` (or `--live-photo`), each camera
    /// takes its own Live Photo (its newest frame, the clip's trigger on it). The fields
    /// are the first camera that took the trigger's, `cameras` every one's; a camera
    /// that could not take it is a warning. Nil when no camera records.
    public func requestClip(after: TimeSpec? = nil, still: Bool = false) -> Result<ClipTrigger, CamrecError>? {
        let instant = recorders.compactMap { $0.newestClipFrameTime() }.max()
        let livePhoto = still || recorders.contains { $0.config.clips?.livePhoto ?? false }
        var taken: [ClipTrigger] = []
        var refused: [(Int, CamrecError)] = []
        var running = false
        for (index, recorder) in recorders.enumerated() {
            // A Live Photo's instant is its still's frame; otherwise the run's instant.
            let outcome = recorder.requestClip(atCaptureTime: livePhoto ? nil : instant, after: after, still: still)
            switch outcome {
            case nil: continue
            case .success(var trigger)?:
                running = true
                trigger.device = recorder.config.source.deviceName
                taken.append(trigger)
            case .failure(let error)?:
                running = true
                refused.append((index, error))
            }
        }
        guard running else { return nil }
        let merger = shared.state.withLock { $0.merger }
        guard var first = taken.first else {
            guard let (index, error) = refused.first else { return nil }
            return .failure(CamrecError(error.kind, (merger?.name(index) ?? "camera \(index + 1)") + ": " + error.message))
        }
        for (index, error) in refused {
            merger?.note(.warning("\(merger?.name(index) ?? "camera \(index + 1)"): no clip: \(error.message)"))
        }
        first.cameras = taken
        return .success(first)
    }

    /// Camera `camera`'s motion at capture time `capture`: a clip on every camera at that
    /// instant; returns that camera's clip number (nil: it made none, with a warning).
    private static func clip(_ recorders: [Recorder], at capture: UInt64, after: TimeSpec?, camera: Int,
                             merger: CameraEventMerger?) -> Int? {
        var number: Int?
        for (index, recorder) in recorders.enumerated() {
            switch recorder.requestClip(atCaptureTime: capture, after: after) {
            case .success(let trigger)?: if index == camera { number = trigger.clip }
            case .failure(let error)?:
                merger?.note(.warning("\(merger?.name(index) ?? "camera \(index + 1)"): a trigger, but no clip: \(error.message)"))
            case nil: break
            }
        }
        return number
    }

    /// The run's state (`camrec ctl SOCKET status`): the first camera's fields, with
    /// `device`, but the run's `state` ("recording" while any camera records), and every
    /// camera's own status in `cameras` (a camera that has ended keeps its last status,
    /// with state "ended"; one before the movies started is "starting"). Nil when no
    /// camera records.
    public func status() -> RecorderStatus? {
        let current = recorders.map { $0.status() }
        guard current.contains(where: { $0 != nil }) else { return nil }
        let cameras = lastStatus.withLock { last in
            recorders.indices.map { index -> RecorderStatus in
                var status: RecorderStatus
                if let now = current[index] {
                    status = now
                    last[index] = now
                } else if var ended = last[index] {
                    ended.state = "ended"
                    status = ended
                } else {
                    // Never seen running: before the common start, or it ended before it was asked.
                    let config = recorders[index].config
                    status = RecorderStatus(state: barrier.start == nil ? "starting" : "ended", path: config.outputPath,
                                            elapsed: 0, frames: 0, stills: 0, droppedFrames: 0,
                                            maxDuration: config.maxDuration?.seconds)
                }
                status.device = recorders[index].config.source.deviceName
                return status
            }
        }
        var run = cameras[0]
        let states = cameras.map(\.state)
        if let state = ["recording", "reconnecting", "stopping"].first(where: states.contains) { run.state = state }
        run.cameras = cameras
        return run
    }

    /// Asks every camera's recording to stop (see `Recorder.requestStop`).
    public func requestStop(_ reason: StopReason, requests: Int = 1) {
        for recorder in recorders { recorder.requestStop(reason, requests: requests) }
    }

    /// Records until every camera has stopped; returns every camera's files, each with
    /// its device. A camera that fails before the movies start stops the others (which
    /// have recorded nothing: the barrier holds their frames) and its error is thrown.
    public func run(events: @escaping @Sendable (RecordingEvent) -> Void) throws(CamrecError) -> RecordingResult {
        let merger = CameraEventMerger(devices: recorders.map(\.config.source.deviceName), events: events)
        shared.state.withLock { $0.merger = merger }
        // The recorders' motion triggers hold `shared`, which holds the recorders: the run's
        // end breaks that cycle (motion comes no more once every camera has ended).
        defer { shared.state.withLock { $0 = ([], nil) } }
        // Unfinished movies an earlier camrec left here, once for the run (before any camera
        // claims its own partial file, which would look like one).
        var stale: [String] = []
        for recorder in recorders {
            for path in StalePartials.find(besideOutput: recorder.config.outputPath) where !stale.contains(path) {
                stale.append(path)
            }
        }
        if let warning = StalePartials.warning(for: stale) { events(.warning(warning)) }
        // Each camera's outcome once it has ended; the run waits until all are in.
        let outcomes = Monitor<[Result<RecordingResult, CamrecError>?]>(Array(repeating: nil, count: recorders.count))
        for (index, recorder) in recorders.enumerated() {
            NamedThread.start("camrec-cam\(index + 1)") { [barrier, recorders, allOrNothing] in
                let outcome: Result<RecordingResult, CamrecError>
                do throws(CamrecError) {
                    outcome = .success(try recorder.run { event in merger.forward(event, camera: index) })
                } catch {
                    outcome = .failure(error)
                }
                // Ended before the movies started: the others would wait for it for ever.
                // They are stopped at once, without finalising (abort's requests): they hold
                // no frame, and a muxer that has caps but no buffer fails its finalising
                // (GStreamer-CRITICAL in mp4mux).
                if barrier.start == nil {
                    for other in recorders where other !== recorder { other.requestStop(.control, requests: RecordingMachine.abortRequests) }
                } else if case .success(let result) = outcome, result.reason == .sourceEnded {
                    // A movie played as a camera ended: the run ends there, every movie finalised.
                    for other in recorders where other !== recorder { other.requestStop(.sourceEnded) }
                } else if allOrNothing, Self.endsTheRun(outcome) {
                    // --all-or-nothing: the others stop too, their movies finalised.
                    merger.note(.warning("--all-or-nothing: \(merger.name(index)) ended, so the other cameras stop too"))
                    for other in recorders where other !== recorder { other.requestStop(.cameraLost) }
                }
                outcomes.withLockWaking { $0[index] = outcome }
            }
        }
        let finished = outcomes.wait(until: { $0.allSatisfy { $0 != nil } }) { all, _ in all.compactMap { $0 } }
        return try merger.merge(finished)
    }

    /// Whether a camera's end mid-run stops an `--all-or-nothing` run: it was lost, or it
    /// failed (disk full, an error); a stop that was asked for (signal, limit) was asked of all.
    static func endsTheRun(_ outcome: Result<RecordingResult, CamrecError>) -> Bool {
        switch outcome {
        case .failure: return true
        case .success(let result): return [.cameraLost, .diskFull, .error].contains(result.reason)
        }
    }
}

/// What a run's cameras share after it is set up: the recorders (for motion, which
/// triggers every camera) and the event merger while the run runs.
private final class RunShared: Sendable {
    let state = Mutex<(recorders: [Recorder], merger: CameraEventMerger?)>(([], nil))
}

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

    /// Records with `configs` (one per camera, in order; each with its own output). With
    /// `allOrNothing`, a camera lost mid-run stops the whole run (every movie finalised);
    /// otherwise the others go on without it.
    public init(configs: [RecordConfig], template: PipelineTemplate = .record, allOrNothing: Bool = false) {
        self.allOrNothing = allOrNothing
        precondition(!configs.isEmpty, "a run needs a camera")
        let rate = configs[0].rate.framesPerSecond
        let barrier = StartBarrier(cameras: configs.count, frameInterval: UInt64(1e9 / max(rate, 1)))
        self.barrier = barrier
        recorders = configs.enumerated().map { index, config in
            var config = config
            config.startBarrier = StartBarrier.Member(barrier: barrier, camera: index)
            return Recorder(config: config, template: template)
        }
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
        // Unfinished movies an earlier camrec left here, once for the run (before any camera
        // claims its own partial file, which would look like one).
        var stale: [String] = []
        for recorder in recorders {
            for path in StalePartials.find(besideOutput: recorder.config.outputPath) where !stale.contains(path) {
                stale.append(path)
            }
        }
        if let warning = StalePartials.warning(for: stale) { events(.warning(warning)) }
        let outcomes = Mutex<[Result<RecordingResult, CamrecError>?]>(Array(repeating: nil, count: recorders.count))
        let done = ThreadCondition()
        for (index, recorder) in recorders.enumerated() {
            NamedThread.start("camrec-cam\(index + 1)") { [barrier, recorders, allOrNothing] in
                let outcome: Result<RecordingResult, CamrecError>
                do throws(CamrecError) {
                    outcome = .success(try recorder.run { event in merger.forward(event, camera: index) })
                } catch {
                    outcome = .failure(error)
                }
                // Ended before the movies started: the others would wait for it for ever.
                // They are stopped at once, without finalising (two requests): they hold
                // no frame, and a muxer that has caps but no buffer fails its finalising
                // (GStreamer-CRITICAL in mp4mux).
                if barrier.start == nil {
                    for other in recorders where other !== recorder { other.requestStop(.control, requests: 2) }
                } else if allOrNothing, Self.endsTheRun(outcome) {
                    // --all-or-nothing: the others stop too, their movies finalised.
                    merger.note(.warning("--all-or-nothing: \(merger.name(index)) ended, so the other cameras stop too"))
                    for other in recorders where other !== recorder { other.requestStop(.cameraLost) }
                }
                done.withLock {
                    outcomes.withLock { $0[index] = outcome }
                    done.broadcast()
                }
            }
        }
        var finished: [Result<RecordingResult, CamrecError>] = []
        done.withLock {
            while true {
                let all = outcomes.withLock { $0 }
                if all.allSatisfy({ $0 != nil }) {
                    finished = all.compactMap { $0 }
                    return
                }
                done.wait()
            }
        }
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

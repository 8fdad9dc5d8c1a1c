import GStreamer

extension RecordingSession {
    /// The gate's probe on the recording branch (the source pad of the queue named "record"):
    /// every frame is admitted or dropped by `gate` (`--max-duration`, `--segment`'s cuts,
    /// `--still-every`), after the camera-to-movie rate decimation, the sound's start
    /// (`--audio`: the movie starts with the first frame at or after the first sound) and,
    /// with several cameras, the start barrier. Where a segment starts the encoder is asked
    /// for a keyframe there and the muxer splits at it. An end of stream before the first
    /// frame goes no further (nothing is to be finalised).
    static func installGateProbe(config: RecordConfig, pipeline: Pipeline, gate: FrameGate, sound: SoundBranch?,
                                 control: RecordingControl, bus: Bus, plan: OutputPlan, muxer: Element?,
                                 encoderPad: Pad?,
                                 firstCaptureNoted: (@Sendable (_ file: Int, _ time: WallTime) -> Void)? = nil) throws(CamrecError) -> ProbeToken {
        let audioGate = sound?.gate
        // With sound, the recording branch's running time is later than the camera's
        // timestamps by the sound encoder's priming (`SoundBranch.videoOffset`).
        let videoOffset = sound?.videoOffset ?? 0
        let startSegment: @Sendable (UInt64) -> Void = { [plan] pts in
            plan.movieStarts()
            let runningTime = pts + videoOffset
            if let event = Event.forceKeyUnit(atRunningTime: runningTime) { encoderPad?.send(event) }
            do {
                try muxer?.emitAction("split-at-running-time", runningTime)
            } catch {
                bus.postApplicationMessage(RecordingControl.Wake.splitFailed)
            }
        }
        do {
            let pad = try pipeline.element(named: "record").staticPad("src")
            if videoOffset > 0 { pad.offset = Int64(videoOffset) }
            var decimator: RateDecimator?
            var timelapse: TimeLapseFilter?
            // A canvas (--layout) is made at the movie's rate.
            var cameraRate = config.rate
            if config.composition == nil, case .camera(_, let format) = config.source { cameraRate = format.rate }
            if let lapse = config.timelapse {
                // A time-lapse keeps frames on its own grid, whatever the camera's rate.
                timelapse = TimeLapseFilter(TimeLapseGrid(interval: lapse.interval, cameraRate: cameraRate, movieRate: config.rate))
            } else if cameraRate != config.rate {
                decimator = RateDecimator(cameraRate: cameraRate, movieRate: config.rate)
            }
            let passthrough = config.encoder.isPassthrough
            let movieFrame = UInt64((1e9 / max(config.rate.framesPerSecond, 0.001)).rounded())
            let composed = config.composition != nil
            let (startBarrier, pipeline, segmentGrid) = (config.startBarrier, pipeline, config.segmentGrid)
            let windowed = config.window != nil
            return pad.addProbe([.buffer, .downstreamEvent]) { [decimator, timelapse] info in
                if let event = info.event {
                    // An end of stream before any frame went through (a camera that fails as it
                    // starts: its source sends EOS as it stops) has nothing to finalise, and a
                    // muxer that never started must not be told to (qtmux then writes a header
                    // without caps: GStreamer-CRITICAL). The gate stays shut.
                    return event.type == .endOfStream && gate.closeIfEmpty() ? .drop : .pass
                }
                guard let buffer = info.buffer else { return .pass }
                let pts = buffer.pts
                let keyframe = !passthrough || buffer.isKeyframe
                var slot: UInt64?
                if let decimator {
                    guard let kept = decimator.keep(pts: pts) else { return .drop }
                    slot = kept.time
                }
                // --schedule: when the frame was captured, on the wall clock (the camera
                // opened before the window; the movie ends at the window's end). Read once,
                // outside the gate's lock.
                var capture: WallTime?
                if windowed, let pts, let now = pipeline.clockTime {
                    capture = CaptureTime.of(runningTime: pts, baseTime: pipeline.baseTime, clockNow: now, wallNow: .now())
                }
                if let capture, gate.isBeforeWindow(pts: pts, capture: capture) { return .drop }
                if let audioGate, !audioGate.hasStarted, let pts {
                    switch audioGate.mayStart(at: pts) {
                    case .go: break
                    case .hold: return .drop
                    case .goWithoutSound: bus.postApplicationMessage(RecordingControl.Wake.noSound)
                    }
                }
                // Several cameras: none starts its movie before all have a frame. With
                // --settle, a camera offers its frames only once it has settled (its settling
                // frames go on to be measured and dropped): every movie starts together,
                // after the last camera settled. A canvas settles the other way round: only
                // its frames on which every camera has a picture are measured (a camera not
                // there yet would leave a black cell, which is stable).
                if let startBarrier, gate.firstFramePTS == nil, let pts {
                    if !composed, gate.isSettling(pts: pts) { return .pass }
                    guard startBarrier.admits(at: pts &+ pipeline.baseTime) else { return .drop }
                    if composed, gate.isSettling(pts: pts) { return .pass }
                    gate.prepareFirstFrame(pts: pts, baseTime: pipeline.baseTime, gridOrigin: segmentGrid)
                }
                // --timelapse: one frame every interval, after the start (the barrier, the
                // settle window, which measures every camera frame), retimed one movie frame
                // after the last kept one.
                var movieTime: UInt64?
                if let timelapse {
                    if let pts, gate.isSettling(pts: pts) { return .pass }
                    guard let kept = timelapse.keep(pts: pts) else {
                        if let pts { gate.passOver(pts: pts) }
                        return .drop
                    }
                    slot = kept.capture
                    movieTime = kept.movie
                }
                var decision = gate.admit(pts: pts, slot: slot, movieTime: movieTime, keyframe: keyframe, capture: capture) {
                    // The sound ends where the last frame does.
                    if let audioGate, let end = gate.videoEnd { audioGate.close(at: end) }
                    bus.postApplicationMessage(RecordingControl.Wake.limit)
                } onSegmentStart: { pts in
                    startSegment(pts)
                } onStillDue: { pts in
                    control.stills?.request(.periodic, notBefore: pts)
                }
                // The sound starts where the first frame does.
                if let audioGate, !audioGate.hasStarted, let first = gate.firstFramePTS { audioGate.videoStarted(at: first) }
                // When each movie file's first frame was captured (its files' dates).
                if case .pass = decision, let noted = gate.noteFirstCapture({ pts in
                    pipeline.clockTime.map { CaptureTime.of(runningTime: pts, baseTime: pipeline.baseTime, clockNow: $0, wallNow: .now()) }
                }) {
                    firstCaptureNoted?(noted.file, noted.time)
                }
                // The encoder and the muxer see the time-lapse's timestamps: the movie plays
                // its kept frames one movie frame apart.
                if case .pass = decision, let movieTime {
                    guard var retimed = buffer.writableCopy() else { return .drop }
                    retimed.pts = movieTime
                    retimed.dts = nil
                    retimed.duration = movieFrame
                    decision = .replace(retimed.finished())
                }
                return decision
            }
        } catch {
            throw CamrecError(.usage, "the pipeline template needs a queue named 'record' on the recording branch (\(error))")
        }
    }
}

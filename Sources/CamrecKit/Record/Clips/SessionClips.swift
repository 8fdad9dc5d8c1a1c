import GStreamer

/// A recording session's event clips: the `ClipRecorder` fed by the pipeline's clip
/// appsinks, the motion trigger, and the triggers the control hands on (`ctl clip`,
/// SIGUSR2, a key, a Live Photo), each placing its capture time on the clips' timeline.
final class SessionClips {
    let recorder: ClipRecorder
    private let feedToken: AppSinkCallbacksToken
    private let soundToken: AppSinkCallbacksToken?
    private var motion: MotionWatcher?
    private let gate: FrameGate
    private let pipeline: Pipeline

    /// Starts the clips of `config` (nil without clip options), fed by `elements`' clip
    /// appsinks; numbers go on after `clipsBefore` clips of the run's earlier pipelines.
    init?(config: RecordConfig, elements: RecordingElements, gate: FrameGate, pipeline: Pipeline, clipsBefore: Int,
          events: @escaping @Sendable (RecordingEvent) -> Void) throws(CamrecError) {
        guard let settings = config.clips, let feed = elements.clipFeed else { return nil }
        // The clip writer parses the encoder's output as the movie's branch does.
        let parser = config.encoder.parser
        let chain = (parser.hasPrefix("! ") ? String(parser.dropFirst(2)) + " ! " : "") + config.container.muxer
        // Several cameras trigger at the newest frame of any of them, up to a few frames
        // before this camera's own newest: half a second more pre-roll covers that.
        let recorder = ClipRecorder(settings: settings, moviePath: settings.namedAfter ?? config.outputPath, muxer: chain,
                                    frameDuration: UInt64(gate.frameDuration * 1e9), clipsBefore: clipsBefore,
                                    slack: config.startBarrier == nil || config.composition != nil ? 0 : 500_000_000,
                                    captureTime: Self.captureTime(gate: gate, pipeline: pipeline), tags: config.stills.tags,
                                    events: events)
        self.recorder = recorder
        self.gate = gate
        self.pipeline = pipeline
        feedToken = recorder.attach(to: feed)
        soundToken = elements.clipSound.map { recorder.attachSound(to: $0) }
        if let motion = config.motion {
            do throws(CamrecError) {
                self.motion = try Self.watchMotion(motion, pipeline: pipeline, size: config.picture.orientation.outputSize(config.size),
                                                   recorder: recorder, gate: gate, runTrigger: config.motionTrigger, events: events)
            } catch {
                remove()
                throw error
            }
        }
    }

    /// Stops feeding the clips (the session's pipeline is ending).
    func remove() {
        feedToken.remove()
        soundToken?.remove()
        motion?.remove()
    }

    /// Ends the clip being written and waits for those being finished.
    func finish() -> [ResultFile] { recorder.finish() }

    /// The trigger the control hands on: a capture time on the pipeline's clock (nil: the
    /// newest frame) placed on the clips' timeline, or a Live Photo (with `stills`).
    func trigger(livePhoto: Bool, stills: StillTaker) -> ClipTrigger.Request {
        let (recorder, gate, pipeline) = (recorder, gate, pipeline)
        // A capture time (the clock: base time + the gate's PTS) and the clips' timeline
        // differ by the base time and by the movie's first frame in both (the picture's
        // delay for AAC priming), as for a Live Photo's frame.
        return { @Sendable capture, after, still in
            guard still || livePhoto else {
                var time: UInt64?
                if let capture, let first = gate.firstFramePTS, let clipFirst = recorder.firstFrameTime {
                    time = UInt64(max(0, Int64(bitPattern: capture) - Int64(bitPattern: pipeline.baseTime)
                                      + Int64(bitPattern: clipFirst) - Int64(bitPattern: first)))
                }
                return recorder.trigger(at: time, after: after)
            }
            return LivePhotoTrigger.trigger(recorder, stills: stills, gate: gate, after: after)
        }
    }

    /// When the frame at a clip time was captured, on the wall clock: the clips' timeline
    /// and the gate's differ by the movie's first frame in both, as for a trigger.
    private static func captureTime(gate: FrameGate, pipeline: Pipeline) -> @Sendable (UInt64, UInt64) -> WallTime? {
        { @Sendable time, clipsFirst in
            guard let first = gate.firstFramePTS, let clock = pipeline.clockTime else { return nil }
            let pts = UInt64(max(0, Int64(bitPattern: time) - Int64(bitPattern: clipsFirst) + Int64(bitPattern: first)))
            return CaptureTime.of(runningTime: pts, baseTime: pipeline.baseTime, clockNow: clock, wallNow: .now())
        }
    }

    /// The capture time (on the pipeline's clock) of the newest frame the clips have.
    func newest() -> @Sendable () -> UInt64? {
        let (recorder, gate, pipeline) = (recorder, gate, pipeline)
        return { @Sendable in
            guard let newest = recorder.newestFrameTime, let first = gate.firstFramePTS,
                  let clipFirst = recorder.firstFrameTime else { return nil }
            return UInt64(max(0, Int64(bitPattern: newest) - Int64(bitPattern: clipFirst) + Int64(bitPattern: first)
                              + Int64(bitPattern: pipeline.baseTime)))
        }
    }

    /// Starts the motion trigger: each detection triggers a clip at its frame and is a
    /// `motion` event.
    private static func watchMotion(_ settings: MotionSettings, pipeline: Pipeline, size: FrameSize, recorder: ClipRecorder,
                                    gate: FrameGate, runTrigger: (@Sendable (UInt64) -> Int?)?,
                                    events: @escaping @Sendable (RecordingEvent) -> Void) throws(CamrecError) -> MotionWatcher {
        do {
            return try MotionWatcher(settings: settings, pipeline: pipeline, width: MotionSettings.width,
                                     height: MotionSettings.height(for: size)) { pts, area in
                // Frames before the movie's first (held back by --settle, or the sound's start) start nothing.
                guard let first = gate.firstFramePTS, pts >= first, let clipFirst = recorder.firstFrameTime else { return }
                var clip: Int?
                if let runTrigger {
                    // Several cameras: the run triggers every camera at this frame's capture time.
                    clip = runTrigger(pts &+ pipeline.baseTime)
                } else {
                    let time = UInt64(max(0, Int64(bitPattern: pts) + Int64(bitPattern: clipFirst) - Int64(bitPattern: first)))
                    switch recorder.trigger(at: time) {
                    case .success(.started(_, let number)), .success(.extended(_, let number)): clip = number
                    case .failure(let error): events(.warning("motion at a frame, but no clip: \(error.message)"))
                    }
                }
                let seconds = Double(pts - first) / 1e9
                events(.motion(MotionLine(time: (seconds * 1000).rounded() / 1000, area: (area * 10000).rounded() / 10000, clip: clip)))
            }
        } catch {
            throw CamrecError(.usage, "the pipeline template needs {motion} for --on-motion (\(error))")
        }
    }
}

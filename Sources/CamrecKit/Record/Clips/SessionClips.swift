import GStreamer

/// A recording session's event clips: the `ClipRecorder` fed by the pipeline's clip
/// appsinks, the motion and sound triggers, and the triggers the control hands on (`ctl
/// clip`, SIGUSR2, a key, a Live Photo), each placing its capture time on the clips' timeline.
final class SessionClips {
    let recorder: ClipRecorder
    private let feedToken: AppSinkCallbacksToken
    private let soundToken: AppSinkCallbacksToken?
    private var motion: MotionWatcher?
    private let gate: FrameGate
    private let pipeline: Pipeline
    /// `--on-sound`'s detector, fed on the session's bus thread only.
    private var soundTrigger: SoundTrigger?
    /// Several cameras: where a trigger goes (every camera's clips); nil: this recorder's.
    private let runTrigger: (@Sendable (UInt64, TimeSpec?) -> Int?)?
    private let events: @Sendable (RecordingEvent) -> Void

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
        // --on-sound triggers at a sound's onset, known once it has lasted T: T and half a
        // second more (the sound's way through the pipeline) go back that far.
        var slack: UInt64 = config.startBarrier == nil || config.composition != nil ? 0 : 500_000_000
        if let sound = config.soundTrigger { slack = max(slack, sound.hold + 500_000_000) }
        let recorder = ClipRecorder(settings: settings, moviePath: settings.namedAfter ?? config.outputPath, muxer: chain,
                                    frameDuration: UInt64(gate.frameDuration * 1e9), clipsBefore: clipsBefore,
                                    slack: slack,
                                    captureTime: Self.captureTime(gate: gate, pipeline: pipeline), tags: config.stills.tags,
                                    events: events)
        self.recorder = recorder
        self.gate = gate
        self.pipeline = pipeline
        self.events = events
        runTrigger = config.runTrigger
        soundTrigger = config.soundTrigger.map(SoundTrigger.init)
        feedToken = recorder.attach(to: feed)
        soundToken = elements.clipSound.map { recorder.attachSound(to: $0) }
        if let motion = config.motion {
            do throws(CamrecError) {
                self.motion = try Self.watchMotion(motion, pipeline: pipeline, size: config.picture.orientation.outputSize(config.size),
                                                   recorder: recorder, gate: gate, runTrigger: config.runTrigger, events: events)
            } catch {
                remove()
                throw error
            }
        }
    }

    /// `--on-sound`: the level of a stretch of sound (the `level` element's message), which
    /// may trigger a clip at the loud sound's onset and be a `sound` event. Called on the
    /// session's bus thread.
    func heard(_ fields: MessageFields) {
        guard var trigger = soundTrigger, let time = fields.unsigned("running-time"),
              let duration = fields.unsigned("duration"), let loudest = fields.doubles("rms")?.max() else { return }
        let outcome = trigger.feed(time: time, duration: duration, level: loudest)
        soundTrigger = trigger
        // Sound before the movie's first frame (held back by --settle) starts nothing.
        guard let outcome, let first = gate.firstFramePTS, let clipFirst = recorder.firstFrameTime else { return }
        // Each trigger keeps the clip going until the next extension is due, and the
        // post-roll after it: the clip ends a post-roll (and at most half a second) after
        // the sound fell below the level.
        let keepOn = recorder.settings.postRoll.nanoseconds + Int64(SoundTrigger.extensionInterval)
        switch outcome {
        case .stillLoud(let time):
            // The clip goes on while the sound does; said in no line (the clip's triggers list it).
            let at = max(time, first)
            if let runTrigger {
                _ = runTrigger(at &+ pipeline.baseTime, TimeSpec(nanoseconds: keepOn))
            } else {
                _ = recorder.trigger(at: at - first + clipFirst, after: TimeSpec(nanoseconds: keepOn))
            }
        case .trigger(let fired):
            let onset = max(fired.onset, first)
            var clip: Int?
            let heard = Int64(max(fired.confirmed, onset) - onset)
            if let runTrigger {
                clip = runTrigger(onset &+ pipeline.baseTime, TimeSpec(nanoseconds: heard + keepOn))
            } else {
                switch recorder.trigger(at: onset - first + clipFirst, after: TimeSpec(nanoseconds: heard + keepOn)) {
                case .success(.started(_, let number)), .success(.extended(_, let number)): clip = number
                case .failure(let error): events(.warning("loud sound, but no clip: \(error.message)"))
                }
            }
            events(.sound(SoundLine(time: (Double(onset - first) / 1e6).rounded() / 1e3, level: (fired.level * 10).rounded() / 10,
                                    clip: clip)))
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
                                    gate: FrameGate, runTrigger: (@Sendable (UInt64, TimeSpec?) -> Int?)?,
                                    events: @escaping @Sendable (RecordingEvent) -> Void) throws(CamrecError) -> MotionWatcher {
        do {
            return try MotionWatcher(settings: settings, pipeline: pipeline, width: MotionSettings.width,
                                     height: MotionSettings.height(for: size)) { pts, area in
                // Frames before the movie's first (held back by --settle, or the sound's start) start nothing.
                guard let first = gate.firstFramePTS, pts >= first, let clipFirst = recorder.firstFrameTime else { return }
                var clip: Int?
                if let runTrigger {
                    // Several cameras: the run triggers every camera at this frame's capture time.
                    clip = runTrigger(pts &+ pipeline.baseTime, nil)
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

import Foundation
import GStreamer

/// One run of a `Recorder`: the pipeline, its gate and the bus loop.
final class RecordingSession {
    private let control: RecordingControl
    private let config: RecordConfig
    private let plan: OutputPlan
    private let pipeline: Pipeline
    private let bus: Bus
    /// The camera (the element named "src"): its errors are a lost or unusable camera.
    private let camera: Element?
    private let gate: FrameGate
    private let gateToken: ProbeToken
    private let frameGuard: FrameGuard?
    private let frameGuardToken: ProbeToken?
    private let commandLine: String
    private let stillSink: AppSink
    private var stills: StillTaker?

    init(config: RecordConfig, pipeline builder: RecordPipeline, control: RecordingControl,
         plan: OutputPlan) throws(CamrecError) {
        self.config = config
        self.control = control
        self.plan = plan
        do {
            commandLine = try builder.commandLine()
            pipeline = try Pipeline.parse(try builder.description(location: plan.location))
        } catch let error as TemplateError {
            throw CamrecError(.usage, error.message)
        } catch let error as GStreamerError {
            throw FailureMapping.camrecError(for: error, camera: nil)
        } catch {
            throw CamrecError(.failure, "\(error)")
        }
        guard let bus = pipeline.bus else { throw CamrecError(.failure, "the pipeline has no bus") }
        self.bus = bus
        camera = try? pipeline.element(named: "src")
        let gate = FrameGate(limit: config.maxDuration, rate: config.rate, stillEvery: config.stills.every)
        self.gate = gate
        do {
            let pad = try pipeline.element(named: "record").staticPad("src")
            var decimator: RateDecimator?
            if case .camera(_, let format) = config.source, format.rate != config.rate {
                decimator = RateDecimator(cameraRate: format.rate, movieRate: config.rate)
            }
            gateToken = pad.addProbe(.buffer) { [decimator] info in
                guard let buffer = info.buffer else { return .pass }
                let pts = buffer.pts
                var slot: UInt64?
                if let decimator {
                    guard let kept = decimator.keep(pts: pts) else { return .drop }
                    slot = kept.time
                }
                return gate.admit(pts: pts, slot: slot) {
                    bus.postApplicationMessage(RecordingControl.Wake.limit)
                } onStillDue: { pts in
                    control.stills?.request(.periodic, notBefore: pts)
                }
            }
        } catch {
            throw CamrecError(.usage, "the pipeline template needs a queue named 'record' on the recording branch (\(error))")
        }
        do {
            let installed = try FrameGuard.install(for: config.source, in: pipeline) {
                bus.postApplicationMessage(RecordingControl.Wake.corruptFrame)
            }
            frameGuard = installed?.0
            frameGuardToken = installed?.1
        } catch {
            throw CamrecError(.usage, "the pipeline template needs a source named 'src' (\(error))")
        }
        do {
            stillSink = try AppSink(pipeline.element(named: "stills"))
        } catch {
            throw CamrecError(.usage, "the pipeline template needs an appsink named 'stills' (\(error))")
        }
    }

    func run(events: @escaping @Sendable (RecordingEvent) -> Void) throws(CamrecError) -> RecordingResult {
        defer {
            control.detach()
            gateToken.remove()
            frameGuardToken?.remove()
            _ = try? pipeline.setState(.null)
        }
        let stills = StillTaker(sink: stillSink, settings: config.stills, gate: gate, events: events)
        do {
            try pipeline.setStateThrowingPostedError(.playing)
        } catch {
            _ = stills.finish()
            plan.discard()
            throw FailureMapping.camrecError(for: error, camera: camera)
        }
        self.stills = stills
        let (gate, config, control) = (gate, config, control)
        let frameDuration = frameDuration
        control.attach(bus: bus, stills: stills) {
            RecorderStatus(
                state: control.pendingStop.count > 0 || gate.isClosed ? "stopping" : "recording",
                path: config.outputPath, elapsed: gate.recordedSeconds(frameDuration: frameDuration),
                frames: gate.frames, stills: 0, droppedFrames: gate.droppedFrames,
                maxDuration: config.maxDuration?.seconds)
        }
        events(.started(startInfo()))
        return try loop(events: events)
    }

    /// Stops the still triggers and takes the stills already asked for (their frames are
    /// still in the pipeline), then stops the pipeline. Returns the stills written.
    private func stopPipeline() -> [ResultFile] {
        let files = stills?.finish() ?? []
        _ = try? pipeline.setState(.null)
        return files
    }

    private func startInfo() -> RecordingStart {
        let device: String
        let format: String
        let reason: String?
        switch config.source {
        case .testPattern:
            (device, format, reason) = ("test", "test", nil)
        case .camera(let path, let cameraFormat):
            (device, format, reason) = (path, cameraFormat.fourcc, cameraFormat.reason)
        }
        return RecordingStart(
            path: config.outputPath, partialPath: plan.location, device: device, format: format,
            size: config.size.description, fps: config.rate.description, formatReason: reason,
            maxDuration: config.maxDuration?.seconds, pipeline: commandLine)
    }

    private var corruptFrames: UInt64 { frameGuard?.corruptFrames ?? 0 }

    private var frameDuration: Double { 1 / max(config.rate.framesPerSecond, 1) }

    /// Reads the bus until the file is finalised (EOS), aborted, or failed: translates each
    /// message into an event of the `RecordingMachine`, ticks it on every turn (message or
    /// not, so that a busy bus cannot hold off the finalise deadline), and carries out
    /// its actions.
    private func loop(events: @escaping @Sendable (RecordingEvent) -> Void) throws(CamrecError) -> RecordingResult {
        var machine = RecordingMachine(start: .now)
        var lastFrames = 0
        while true {
            let message = bus.pop(timeoutNanoseconds: 100_000_000)
            let now = ContinuousClock.now
            var actions = message.flatMap { event(for: $0, at: now) }.map { machine.handle($0) } ?? []
            actions += machine.handle(.tick(now))
            for action in actions {
                switch action {
                case .sendEndOfStream:
                    pipeline.send(.endOfStream())
                case .report(.stopping(let reason)):
                    events(.stopping(reason))
                case .report(.warning(let text)):
                    events(.warning(text))
                case .reportProgress(let interval):
                    let frames = gate.frames
                    events(.progress(RecordingProgress(
                        seconds: gate.recordedSeconds(frameDuration: frameDuration), frames: frames,
                        bytes: plan.bytesWritten, limit: config.maxDuration?.seconds,
                        fps: Double(frames - lastFrames) / max(interval / .seconds(1), 0.001))))
                    lastFrames = frames
                case .finish(let requested, let message):
                    return try finish(requested: requested, message: message)
                case .keepUnfinalised(let reason, let cause):
                    return keepUnfinalised(reason: reason, cause: cause)
                case .fail(let error):
                    _ = stopPipeline()
                    if gate.frames == 0 { plan.discard() }
                    throw FailureMapping.camrecError(for: error, camera: camera)
                }
            }
        }
    }

    /// The machine's event for a bus message; nil for messages it does not care about.
    private func event(for message: Message, at now: ContinuousClock.Instant) -> RecordingMachine.Event? {
        switch message {
        case .endOfStream:
            return .endOfStream
        case .application(_, RecordingControl.Wake.limit):
            return .limitReached(now)
        case .application(_, RecordingControl.Wake.stop):
            let (reason, count) = control.pendingStop
            return .stopRequested(reason ?? .signal, count: count, now)
        case .application(_, RecordingControl.Wake.corruptFrame):
            return .firstCorruptFrame
        case .error(let failure):
            if let camera, failure.source.is(camera) { return .cameraFailed(failure, framesRecorded: gate.frames, now) }
            if failure.isResourceError(.noSpaceLeft) { return .diskFull }
            return .failed(.element(failure))
        case .warning(let failure):
            return .warning("\(failure.source.name): \(failure.message)")
        default:
            return nil
        }
    }

    /// The file is finalised (EOS reached the sink): commits it. `requested` is the stop
    /// that was asked for, nil when the source ended by itself.
    private func finish(requested: StopReason?, message: String?) throws(CamrecError) -> RecordingResult {
        let reason = requested ?? .signal
        let stillFiles = stopPipeline()
        guard gate.frames > 0 else {
            plan.discard()
            if requested == .signal || requested == .control {
                // Asked to stop before the first frame came: nothing to keep, nothing wrong.
                return RecordingResult(reason: reason, files: stillFiles, droppedFrames: 0,
                                       message: "stopped before the first frame: no movie was made")
            }
            throw CamrecError(.failure, "no frames were recorded: the source delivered nothing")
        }
        let movie = try plan.commitFinalised(frames: gate.frames, seconds: gate.recordedSeconds(frameDuration: frameDuration))
        return RecordingResult(reason: reason, files: [movie] + stillFiles,
                               droppedFrames: gate.droppedFrames, corruptFrames: corruptFrames, message: message)
    }

    /// Stops at once and keeps what the movie holds (see `OutputPlan.keepUnfinalised`).
    private func keepUnfinalised(reason: StopReason, cause: String) -> RecordingResult {
        let stillFiles = stopPipeline()
        guard gate.frames > 0, let kept = plan.keepUnfinalised() else {
            plan.discard()
            let note = cause + ": nothing of the movie was written, so no file was kept"
            return RecordingResult(reason: reason, files: stillFiles, droppedFrames: gate.droppedFrames,
                                   corruptFrames: corruptFrames, message: note)
        }
        var note = cause + ": the recording so far is kept as written, not finalised (it plays)"
        if let problem = kept.note { note += "; \(problem)" }
        return RecordingResult(reason: reason, files: [kept.file] + stillFiles, droppedFrames: gate.droppedFrames,
                               corruptFrames: corruptFrames, message: note)
    }
}

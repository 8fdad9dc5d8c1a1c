import Foundation
import GStreamer

/// One run of a `Recorder`: the pipeline, its gate and the bus loop.
final class RecordingSession {
    private let recorder: Recorder
    private let config: RecordConfig
    private let output: OutputFile
    private let pipeline: Pipeline
    private let bus: Bus
    private let gate: MaxDurationGate
    private let gateToken: ProbeToken
    private let frameGuard: FrameGuard?
    private let frameGuardToken: ProbeToken?
    private let commandLine: String
    private let stillSink: AppSink
    private var stills: StillTaker?

    init(recorder: Recorder, output: OutputFile) throws(CamrecError) {
        self.recorder = recorder
        config = recorder.config
        self.output = output
        let builder = recorder.pipelineBuilderForSession
        do {
            commandLine = try builder.commandLine()
            pipeline = try Pipeline.parse(try builder.description(location: output.partialPath))
        } catch let error as TemplateError {
            throw CamrecError(.usage, error.message)
        } catch let error as GStreamerError {
            throw FailureMapping.camrecError(for: error)
        } catch {
            throw CamrecError(.failure, "\(error)")
        }
        guard let bus = pipeline.bus else { throw CamrecError(.failure, "the pipeline has no bus") }
        self.bus = bus
        let gate = MaxDurationGate(limit: config.maxDuration, rate: config.rate)
        self.gate = gate
        do {
            let pad = try pipeline.element(named: "record").staticPad("src")
            var decimator: RateDecimator?
            if case .camera(_, let format) = config.source, format.rate != config.rate {
                decimator = RateDecimator(cameraRate: format.rate, movieRate: config.rate)
            }
            gateToken = pad.addProbe(.buffer) { [decimator] data in
                guard case .buffer(let timing) = data else { return .pass }
                if let decimator, !decimator.keep(pts: timing.pts) { return .drop }
                return gate.admit(pts: timing.pts) { bus.postApplicationMessage(Recorder.limitMessage) }
            }
        } catch {
            throw CamrecError(.usage, "the pipeline template needs a queue named 'record' on the recording branch (\(error))")
        }
        if case .camera(_, let format) = config.source {
            let kind: FrameCheck.Kind = switch format.decoding {
            case .none: .raw
            case .jpeg: .jpeg
            case .h264: .h264
            }
            let frameGuard = FrameGuard(kind: kind)
            self.frameGuard = frameGuard
            do {
                let pad = try pipeline.element(named: "src").staticPad("src")
                frameGuardToken = pad.addBufferProbe { buffer in
                    frameGuard.admit(buffer) { bus.postApplicationMessage(Recorder.corruptFrameMessage) }
                }
            } catch {
                throw CamrecError(.usage, "the pipeline template needs a source named 'src' (\(error))")
            }
        } else {
            frameGuard = nil
            frameGuardToken = nil
        }
        do {
            stillSink = try AppSink(pipeline.element(named: "stills"))
        } catch {
            throw CamrecError(.usage, "the pipeline template needs an appsink named 'stills' (\(error))")
        }
    }

    func run(events: @escaping @Sendable (RecordingEvent) -> Void) throws(CamrecError) -> RecordingResult {
        defer {
            recorder.attach(nil, stills: nil, status: nil)
            gateToken.remove()
            frameGuardToken?.remove()
            _ = try? pipeline.setState(.null)
        }
        let stills = StillTaker(sink: stillSink, settings: config.stills, gate: gate, events: events)
        do {
            try pipeline.setState(.playing)
        } catch {
            _ = stills.finish()
            output.discard()
            throw FailureMapping.camrecError(for: error)
        }
        self.stills = stills
        let (gate, config, recorder) = (gate, config, recorder)
        let frameDuration = frameDuration
        recorder.attach(pipeline, stills: stills) {
            RecorderStatus(
                state: recorder.pendingStop().count > 0 || gate.isClosed ? "stopping" : "recording",
                path: config.outputPath, elapsed: gate.recordedSeconds(frameDuration: frameDuration),
                frames: gate.frames, stills: 0, droppedFrames: gate.droppedFrames,
                maxDuration: config.maxDuration?.seconds)
        }
        events(.started(startInfo()))
        let periodic = config.stills.every.map { PeriodicTrigger(every: $0) { stills.request(.periodic) } }
        defer { periodic?.stop() }
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
            path: config.outputPath, partialPath: output.partialPath, device: device, format: format,
            size: config.size.description, fps: config.rate.description, formatReason: reason,
            maxDuration: config.maxDuration?.seconds, pipeline: commandLine)
    }

    private var corruptFrames: UInt64 { frameGuard?.corruptFrames ?? 0 }

    private var frameDuration: Double { 1 / max(config.rate.framesPerSecond, 1) }

    /// Reads the bus until the file is finalised (EOS), aborted, or failed.
    private func loop(events: @escaping @Sendable (RecordingEvent) -> Void) throws(CamrecError) -> RecordingResult {
        var stopping: StopReason?
        var lastProgress = ContinuousClock.now
        var lastFrames = 0
        var lostMessage: String?
        // Finalising should take well under a second; a pipeline that never delivers EOS
        // (a wedged element) is stopped unfinalised rather than hanging a script.
        var finaliseDeadline: ContinuousClock.Instant?
        func beginStop(_ reason: StopReason) {
            stopping = reason
            events(.stopping(reason))
            finaliseDeadline = .now + .seconds(10)
        }
        while true {
            guard let message = bus.pop(timeoutNanoseconds: 100_000_000) else {
                let now = ContinuousClock.now
                if let deadline = finaliseDeadline, now > deadline {
                    return keepUnfinalised(reason: stopping ?? .error,
                                           cause: "the pipeline did not finalise the file within 10 s")
                }
                if now - lastProgress >= .milliseconds(500) {
                    let frames = gate.frames
                    let elapsed = (now - lastProgress) / .seconds(1)
                    events(.progress(RecordingProgress(
                        seconds: gate.recordedSeconds(frameDuration: frameDuration), frames: frames,
                        bytes: output.partialSize, limit: config.maxDuration?.seconds,
                        fps: Double(frames - lastFrames) / elapsed)))
                    lastProgress = now
                    lastFrames = frames
                }
                continue
            }
            switch message {
            case .endOfStream:
                return try finish(requested: stopping, message: lostMessage)
            case .application(_, Recorder.limitMessage):
                if stopping == nil {
                    beginStop(.maxDuration)
                    pipeline.send(.endOfStream())
                }
            case .application(_, Recorder.stopMessage):
                let (reason, count) = recorder.pendingStop()
                if count > 1 { return abort() }
                if stopping == nil {
                    beginStop(reason ?? .signal)
                    pipeline.send(.endOfStream())
                }
            case .error(let failure):
                if failure.source == "src", stopping == .cameraLost { continue }  // follow-up errors of the same loss
                if failure.source == "src", gate.frames > 0 {
                    // The camera went away. GstBaseSrc sends EOS downstream after a fatal
                    // flow error (a second EOS from us would make the muxer finalise
                    // twice), so the muxer finalises what we have; the deadline covers
                    // the case where that EOS never comes.
                    lostMessage = "camera lost: \(failure.message)"
                    events(.warning("camera lost (\(failure.message)): finalising the recording so far"))
                    beginStop(.cameraLost)
                    continue
                }
                if failure.isResourceError(.noSpaceLeft) {
                    return keepUnfinalised(reason: .diskFull, cause: "disk full")
                }
                _ = stopPipeline()
                output.discardIfEmpty(frames: gate.frames)
                throw FailureMapping.camrecError(for: .element(failure))
            case .application(_, Recorder.corruptFrameMessage):
                events(.warning("the camera delivered a corrupt frame (cut short): corrupt frames are left out of the movie and stills, and counted (corrupt_frames)"))
            case .warning(let failure):
                events(.warning("\(failure.source): \(failure.message)"))
            default:
                continue
            }
        }
    }

    /// The file is finalised (EOS reached the sink): commits it. `requested` is the stop
    /// that was asked for, nil when the source ended by itself.
    private func finish(requested: StopReason?, message: String?) throws(CamrecError) -> RecordingResult {
        let reason = requested ?? .signal
        let stillFiles = stopPipeline()
        guard gate.frames > 0 else {
            output.discard()
            if requested == .signal || requested == .control {
                // Asked to stop before the first frame came: nothing to keep, nothing wrong.
                return RecordingResult(reason: reason, files: stillFiles, droppedFrames: 0,
                                       message: "stopped before the first frame: no movie was made")
            }
            throw CamrecError(.failure, "no frames were recorded: the source delivered nothing")
        }
        try output.commit()
        return RecordingResult(reason: reason, files: [movieFile(at: output.finalPath)] + stillFiles,
                               droppedFrames: gate.droppedFrames, corruptFrames: corruptFrames, message: message)
    }

    private func abort() -> RecordingResult {
        keepUnfinalised(reason: .aborted, cause: "aborted")
    }

    /// Stops at once and moves the unfinalised file into place when it holds anything that
    /// plays. Its counts are measured from the file, not from what entered the encoder
    /// (the muxer may not have written the last fragment), and a torn tail is cut off.
    private func keepUnfinalised(reason: StopReason, cause: String) -> RecordingResult {
        let stillFiles = stopPipeline()
        let measured = gate.frames > 0
            ? UnfinalisedMovie.measure(path: output.partialPath, container: config.container, frameDuration: frameDuration)
            : nil
        guard let movie = measured, movie.frames > 0 else {
            output.discard()
            let note = cause + ": nothing of the movie was written, so no file was kept"
            return RecordingResult(reason: reason, files: stillFiles, droppedFrames: gate.droppedFrames, corruptFrames: corruptFrames, message: note)
        }
        movie.cutTornTail(of: output.partialPath)
        var note = cause + ": the recording so far is kept as written, not finalised (it plays)"
        let path: String
        do {
            try output.commit()
            path = output.finalPath
        } catch {
            path = output.partialPath
            note += "; \(error.message)"
        }
        let file = ResultFile(path: path, kind: "movie", duration: movie.seconds, frames: movie.frames,
                              bytes: OutputFile.size(of: path))
        return RecordingResult(reason: reason, files: [file] + stillFiles, droppedFrames: gate.droppedFrames, corruptFrames: corruptFrames, message: note)
    }

    private func movieFile(at path: String) -> ResultFile {
        ResultFile(path: path, kind: "movie", duration: gate.recordedSeconds(frameDuration: frameDuration),
                   frames: gate.frames, bytes: OutputFile.size(of: path))
    }
}

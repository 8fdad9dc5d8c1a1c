import FoundationEssentials
import GStreamer

/// One run of a `Recorder`: the pipeline, its gate and the bus loop.
final class RecordingSession {
    let control: RecordingControl
    let config: RecordConfig
    let plan: OutputPlan
    let pipeline: Pipeline
    /// Stops the pipeline, giving up (and saying so) on one that never stops.
    let stopper: PipelineStopper
    private let bus: Bus
    /// The pipeline's named elements, looked up once.
    let elements: RecordingElements
    let gate: FrameGate
    /// Frames the gate let through so far (what `--max-duration` counts; in standby, the
    /// frames encoded for the clips).
    var recordedFrames: Int { gate.frames }
    /// Several cameras: the clock time of the first frame recorded; nil before it (and for one camera).
    var firstFrameClockTime: UInt64? { gate.firstFrameClockTime }
    private let gateToken: ProbeToken
    /// Warns once when the encoder cannot keep up in the first seconds; nil for passthrough
    /// and time-lapses (whose frames are retimed before the encoder).
    let encoderPace: EncoderPaceWatch?
    /// Leaves frames out evenly while the encoder is behind; nil for passthrough and time-lapses.
    let shedding: LoadShedWatch?
    let frameGuard: FrameGuard?
    private let frameGuardToken: ProbeToken?
    /// `--layout`: the canvas's parts (start barrier, cameras' stills, reconnect).
    let canvas: CanvasSession?
    /// Has v4l2src queue `CameraQueueDepth` buffers with the camera instead of 4.
    private let cameraQueue: CameraQueueDepth.Probes?
    private let commandLine: String
    /// `--settle`: measures and drops the settling frames at the encoder's input.
    private let settleToken: ProbeToken?
    /// Sets each frame's `--overlay` text; nil without one.
    private var overlayToken: ProbeToken?
    private var stills: StillTaker?
    /// Reads text from the frames and stills (`--text`, `--text-every`); nil without.
    private var text: TextReader?
    private let locationToken: SignalToken?
    /// The muxers of the movie files (fragment headers mended, Matroska dates).
    private let muxers: MovieMuxers
    /// The movies this session publishes.
    let movies: MovieLedger
    /// The sound branch (`--audio`); nil for a silent movie.
    let sound: SoundBranch?
    /// Event clips while the session runs.
    var clips: SessionClips?
    /// Clips the run's earlier pipelines made (numbers go on after a reconnect).
    private let clipsBefore: Int
    /// The preview window (`--preview`), fed by the appsink "preview"; nil without.
    private let window: PreviewWindow?
    /// The RTSP server (`--serve`), fed by the appsinks "serve" and "servesound"; nil without.
    private let server: LiveStreamServer?
    /// The movies played as cameras (`--device file:`), while the pipeline runs.
    var movieFeeds: MovieFeeds?

    init(config: RecordConfig, pipeline builder: RecordPipeline, control: RecordingControl,
         plan: OutputPlan, clipsBefore: Int = 0, preview window: PreviewWindow? = nil,
         server: LiveStreamServer? = nil) throws(CamrecError) {
        self.clipsBefore = clipsBefore
        self.config = config
        self.control = control
        self.plan = plan
        do {
            commandLine = try builder.commandLine()
            pipeline = try Pipeline.withBuiltIns(try builder.description(location: plan.sinkLocation))
        } catch let error as TemplateError {
            throw CamrecError(.usage, error.message)
        } catch let error as GStreamerError {
            throw FailureMapping.camrecError(for: error, camera: nil)
        } catch {
            throw CamrecError(.failure, "\(error)")
        }
        stopper = PipelineStopper(pipeline)
        guard let bus = pipeline.bus else { throw CamrecError(.failure, "the pipeline has no bus") }
        self.bus = bus
        let elements = try RecordingElements(in: pipeline, config: config, preview: window != nil, serve: server != nil)
        self.elements = elements
        self.window = elements.preview == nil ? nil : window
        self.server = elements.serve == nil ? nil : server
        let muxers = MovieMuxers(in: pipeline)
        self.muxers = muxers
        // Where a segment starts, the encoder makes that frame a keyframe and splitmuxsink
        // starts the new file with it: the cut is exact, and each file starts at 0.
        let encoderPad = elements.encoderOutput
        let gate = FrameGate(limit: config.maxDuration, rate: config.rate, segment: config.segments?.length,
                             stillEvery: config.stills.every, settle: config.settle,
                             measuresKeyframes: config.encoder.isPassthrough,
                             captureRate: config.timelapse?.captureRate, window: config.window)
        self.gate = gate
        locationToken = try muxers.nameSegments(of: elements.muxer, plan: plan, gate: gate)
        let sound = try SoundBranch.install(config.audio, in: pipeline, length: gate.movieLength)
        self.sound = sound
        // Before the gate's probe on the same pad: a frame left out never reaches the gate.
        shedding = config.timelapse == nil && !config.encoder.isPassthrough ? LoadShedWatch(pipeline: pipeline, bus: bus, gate: gate, rate: config.rate) : nil
        settleToken = try Self.installSettleProbe(config: config, pipeline: pipeline, gate: gate)
        gateToken = try Self.installGateProbe(config: config, pipeline: pipeline, gate: gate, sound: sound, control: control,
                                              bus: bus, plan: plan, muxer: elements.muxer, encoderPad: encoderPad,
                                              firstCaptureNoted: muxers.movieDate(segmented: elements.muxer != nil))
        if config.timelapse == nil, !config.encoder.isPassthrough,
           let encoderInput = try? pipeline.element(named: "encoder").staticPad("sink") {
            encoderPace = EncoderPaceWatch(encoderInput: encoderInput, pipeline: pipeline, bus: bus,
                                           settings: config.encoder, rate: config.rate) { [shedding] in (shedding?.shed ?? 0) > 0 }
        } else {
            encoderPace = nil
        }
        // Several cameras' stored streams start at their own keyframes: each movie says when.
        let storedTogether = config.encoder.isPassthrough && config.composition == nil ? config.startBarrier : nil
        var startOrigin: (@Sendable () -> UInt64?)?
        if let storedTogether { startOrigin = { storedTogether.barrier.start } }
        movies = MovieLedger(plan: plan, gate: gate, segmented: config.segments != nil, startOrigin: startOrigin)
        if let composition = config.composition {
            canvas = try CanvasSession(composition, reconnect: config.reconnect, cameraBuffers: config.cameraBuffers,
                                       elements: elements, pipeline: pipeline)
        } else {
            canvas = nil
        }
        // A canvas's cameras are named camera1, …, not "src": their frames are not checked here.
        do {
            let installed = config.composition != nil ? nil : try FrameGuard.install(for: config.source, in: pipeline) {
                bus.postApplicationMessage(RecordingControl.Wake.corruptFrame)
            }
            frameGuard = installed?.0
            frameGuardToken = installed?.1
        } catch {
            throw CamrecError(.usage, "the pipeline template needs a source named 'src' (\(error))")
        }
        cameraQueue = config.composition != nil ? nil : try? CameraQueueDepth.install(for: config.source, buffers: config.cameraBuffers, in: pipeline)
        do {
            var decimator: RateDecimator?
            // A time-lapse's frames are picked after the text is drawn: {frame} and
            // {elapsed} then count the camera's frames and capture time.
            if config.timelapse == nil, case .camera(_, let format) = config.source, format.rate != config.rate {
                decimator = RateDecimator(cameraRate: format.rate, movieRate: config.rate)
            }
            overlayToken = try OverlayTextProbe.install(config.picture.text, in: pipeline, device: config.source.deviceName,
                                                        rate: config.rate, decimator: decimator)
        } catch {
            throw CamrecError(.usage, "the pipeline template needs {picture}, with a textoverlay named '\(PictureSettings.textElement)' for --overlay (\(error))")
        }
    }

    /// Runs the pipeline until it ends; `announce` reports `started` (the first pipeline
    /// of a run; after a reconnect, `camera-back` says it goes on).
    func run(announce: Bool = true, events: @escaping @Sendable (RecordingEvent) -> Void) throws(CamrecError) -> RecordingResult {
        defer {
            control.detach()
            locationToken?.disconnect()
            sound?.remove()
            gateToken.remove()
            shedding?.remove()
            settleToken?.remove()
            frameGuardToken?.remove()
            overlayToken?.remove()
            canvas?.remove()
            _ = stopper.stop()
            muxers.remove()
        }
        let moviePath = config.segments == nil ? nil : movies.moviePath
        // Passthrough H.264: stills decode the kept GOP when asked (the camera's JPEGs need
        // no decoding).
        var kept: (GOPKeeper, AppSinkCallbacksToken)?
        if config.encoder.isPassthrough, config.encoder.codec == .h264 { kept = GOPKeeper.attach(to: elements.stills) }
        defer {
            kept?.0.close()
            kept?.1.remove()
        }
        let text = try Self.startTextReader(config: config, pipeline: pipeline, gate: gate, moviePath: moviePath, events: events)
        defer { text?.finish() }
        self.text = text
        let followers = canvas?.makeStillTakers(settings: config.stills, gate: gate, events: events) ?? []
        let stills = StillTaker(sink: elements.stills, settings: config.stills, gate: gate, moviePath: moviePath,
                                keeper: kept?.0, followers: followers,
                                capturedAs: canvas?.capturedAs, events: text?.readingStills(config.text, events) ?? events)
        do {
            clips = try SessionClips(config: config, elements: elements, gate: gate, pipeline: pipeline,
                                     clipsBefore: clipsBefore, events: events)
        } catch {
            _ = stills.finish()
            throw error
        }
        defer { clips?.remove() }
        let feeds = LiveFeeds(window: window, server: server, elements: elements, config: config, gate: gate)
        defer { feeds.remove() }
        // A movie played as a camera is opened before anything starts: one that cannot be
        // played leaves nothing behind.
        let movieSources: MovieFeeds
        do throws(CamrecError) {
            movieSources = try MovieFeeds(config: config, pipeline: pipeline)
        } catch {
            _ = stills.finish()
            plan.discardOpen()
            throw error
        }
        defer { movieSources.stop() }
        do {
            try pipeline.setStateThrowingPostedError(.playing)
            movieFeeds = movieSources
            try movieSources.start(bus: bus)
        } catch let error as CamrecError {
            _ = stills.finish()
            plan.discardOpen()
            throw error
        } catch let error as GStreamerError {
            _ = stills.finish()
            plan.discardOpen()
            throw FailureMapping.camrecError(for: error, camera: elements.camera)
        } catch {
            _ = stills.finish()
            plan.discardOpen()
            throw CamrecError(.failure, "\(error)")
        }
        self.stills = stills
        let flusher = DurabilityFlusher { [plan] in plan.openPartialPaths }
        defer { flusher.stop() }
        let (gate, config, control, plan, clipRecorder, shedding) = (gate, config, control, plan, clips?.recorder, shedding)
        let clipTrigger = clips?.trigger(livePhoto: config.clips?.livePhoto ?? false, stills: stills)
        let clipNewest = clips?.newest()
        let serveURL = server?.url
        control.attach(bus: bus, stills: stills, text: text, split: { [gate, pipeline] captureTime in
            // A capture time on the clock is a timestamp plus the pipeline's base time.
            gate.requestSplit(at: captureTime.map { $0 >= pipeline.baseTime ? $0 - pipeline.baseTime : 0 })
        }, clip: clipTrigger,
                       clipNewest: clipNewest) {
            RecorderStatus(
                state: control.pendingStop.count > 0 || gate.isClosed ? "stopping" : "recording",
                path: plan.currentPath,
                elapsed: config.elapsed(frames: gate.frames, movieSeconds: gate.recordedSeconds(frameDuration: gate.frameDuration)),
                frames: gate.frames, stills: 0, droppedFrames: gate.droppedFrames,
                maxDuration: config.maxDuration?.seconds,
                segment: config.segments == nil ? nil : plan.movieCount, preRollBytes: clipRecorder?.preRollBytes,
                serveURL: serveURL, shedFrames: shedding?.shed)
        }
        if announce {
            events(.started(RecordingStart(config: config, path: plan.currentPath, partialPath: plan.location,
                                           commandLine: commandLine, serveURL: server?.url)))
        }
        // A pipeline that did not stop in time is said, whatever the run's end.
        defer { if let warning = stopper.stuckWarning { events(.warning(warning)) } }
        var result = try loop(events: events)
        result.keyframeInterval = gate.longestKeyframeInterval
        result.droppedAudioMs = sound?.droppedMilliseconds
        result.audioClockPPM = sound.map { Int($0.clockPPM.rounded()) }
        result.lostMovies = movies.lost.isEmpty ? nil : movies.lost
        result.shedFrames = shedding.flatMap { $0.shed > 0 ? $0.shed : nil }
        return result
    }

    /// Stops the still triggers and takes the stills already asked for (their frames are
    /// still in the pipeline), ends the event clips, then stops the pipeline. Returns the
    /// clips and stills written.
    func stopPipeline() -> [ResultFile] {
        var files = stills?.finish() ?? []
        // After the stills: the text of those just taken is read too.
        text?.finish()
        sound?.gate.release()
        // The clip being written ends with the run; clips being finished are waited for.
        files = (clips?.finish() ?? []) + files
        _ = stopper.stop()
        return files
    }

    var corruptFrames: UInt64 { frameGuard?.corruptFrames ?? 0 }


    /// Reads the bus until the file is finalised (EOS), aborted, or failed: translates each
    /// message into an event of the `RecordingMachine`, ticks it on every turn (message or
    /// not, so that a busy bus cannot hold off the finalise deadline), and carries out
    /// its actions.
    private func loop(events: @escaping @Sendable (RecordingEvent) -> Void) throws(CamrecError) -> RecordingResult {
        machine = RecordingMachine(start: .now, canvas: config.composition.map {
            RecordingMachine.Canvas(cameras: $0.cameras.count, allOrNothing: $0.allOrNothing)
        })
        var sawUsableFrame = false
        var lastFrames = 0
        var freeMemory = FreeMemory()
        while true {
            let message = bus.pop(timeoutNanoseconds: 100_000_000)
            let now = ContinuousClock.now
            var actions = message.flatMap { event(for: $0, at: now) }.map { machine.handle($0) } ?? []
            if case .application(_, CellReconnection.wake)? = message, let canvas {
                for event in canvas.camerasBack() { actions += machine.handle(event) }
            }
            if !sawUsableFrame, frameGuard.map({ $0.goodFrames > 0 }) ?? true {
                sawUsableFrame = true
                actions += machine.handle(.firstUsableFrame)
            }
            actions += machine.handle(.tick(now))
            if let settled = gate.takeSettleOutcome() { events(.settled(settled)) }
            // Actions may lead to more (free space checked with the progress report).
            while !actions.isEmpty {
                let action = actions.removeFirst()
                switch action {
                case .sendEndOfStream:
                    // Nothing went through the gate yet (frames held at several cameras'
                    // start barrier, or none came): nothing is to be finalised, and a muxer
                    // that never started must not be told to (qtmux then writes a header
                    // without caps: GStreamer-CRITICAL). The end is at once.
                    if gate.closeIfEmpty() {
                        actions += machine.handle(.endOfStream(finalising: [], at: now))
                    } else {
                        sound?.endWithPicture(gate)
                        pipeline.send(.endOfStream())
                    }
                case .endSoundAtLastFrame:
                    sound?.endAtLastFrame(of: gate)
                case .endSound:
                    sound?.end()
                case .markCellLost(let index):
                    canvas?.lost(index)
                case .report(.stopping(let reason)):
                    events(.stopping(reason))
                case .report(.warning(let text)):
                    events(.warning(text))
                case .report(.cameraBack(let device, let gap)):
                    events(.cameraBack(device: device, gap: gap))
                case .restoreControls(let camera, let device):
                    for warning in config.cameraBack?(camera, device) ?? [] { events(.warning(warning)) }
                case .reportProgress(let interval):
                    let frames = gate.frames
                    events(.progress(RecordingProgress(
                        seconds: config.elapsed(frames: frames, movieSeconds: gate.recordedSeconds(frameDuration: gate.frameDuration)),
                        frames: frames,
                        bytes: plan.bytesWritten, limit: config.maxDuration?.seconds,
                        fps: Double(frames - lastFrames) / max(interval / .seconds(1), 0.001))))
                    lastFrames = frames
                    freeMemory.releaseIfDue(now)
                    if config.segments?.retention.minFree != nil,
                       movies.applyRetention(freeSpaceOnly: true, stopping: isStopping, events: events) {
                        actions += machine.handle(.diskLow(now))
                    }
                case .commit(let index):
                    if let problem = movies.commitClosed(index, events: events) { actions += machine.handle(.warning(problem)) }
                case .applyRetention:
                    if movies.applyRetention(stopping: isStopping, events: events) { actions += machine.handle(.diskLow(now)) }
                case .finish(let requested, let message, let unfinished):
                    return try finish(requested: requested, message: message, unfinished: unfinished, events: events)
                case .keepUnfinalised(let reason, let cause):
                    return keepUnfinalised(reason: reason, cause: cause)
                case .fail(let error):
                    _ = stopPipeline()
                    if gate.frames == 0 { plan.discardOpen() }
                    // The next segment's file could not be made: that reason, not the sink's
                    // failure to open the placeholder it was given instead.
                    if let claim = plan.claimFailure {
                        throw CamrecError(.cannotCreateOutput, claim + "; the movies finished before stay as they are")
                    }
                    throw FailureMapping.camrecError(for: error, camera: elements.camera)
                case .noUsableFrame:
                    _ = stopPipeline()
                    plan.discardOpen()
                    throw FrameGuard.noUsableFrame(frameGuard)
                }
            }
        }
    }

    /// The recording's logic (see ``RecordingMachine``), fed by `loop`.
    private var machine = RecordingMachine(start: .now)

    /// The machine decided to stop (or the source ended): retention deletes nothing more to
    /// make room, as no movie will need it (issue 29 item 7).
    var isStopping: Bool { machine.state != .recording }
}

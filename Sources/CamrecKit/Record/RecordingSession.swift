import FoundationEssentials
import GStreamer

/// One run of a `Recorder`: the pipeline, its gate and the bus loop.
final class RecordingSession {
    private let control: RecordingControl
    private let config: RecordConfig
    private let plan: OutputPlan
    private let pipeline: Pipeline
    /// Stops the pipeline, giving up (and saying so) on one that never stops.
    private let stopper: PipelineStopper
    private let bus: Bus
    /// The camera (the element named "src"): its errors are a lost or unusable camera.
    private let camera: Element?
    private let gate: FrameGate
    /// Frames the gate let through so far (what `--max-duration` counts; in standby, the
    /// frames encoded for the clips).
    var recordedFrames: Int { gate.frames }
    /// Several cameras: the clock time of the first frame recorded; nil before it (and for one camera).
    var firstFrameClockTime: UInt64? { gate.firstFrameClockTime }
    private let gateToken: ProbeToken
    private let frameGuard: FrameGuard?
    private let frameGuardToken: ProbeToken?
    /// `--layout`: each camera's branch offers its frames to the start barrier.
    private let compositionTokens: [ProbeToken]
    /// `--layout`: the cameras' sources ("camera1", …): their errors are the machine's
    /// `canvasCameraFailed` (a black cell, or the movie's end).
    private var composedCameras: [Element]
    /// `--layout` with `--reconnect`: waits for lost cameras and rebuilds their cells.
    private let cellReconnection: CellReconnection?
    /// `--layout`: each camera's still taker (beside the composed one's), made by `run`.
    private var cameraStillTakers: [StillTaker] = []
    /// Has v4l2src queue `CameraQueueDepth` buffers with the camera instead of 4.
    private let cameraQueue: CameraQueueDepth.Probes?
    /// The same for each camera of a canvas (`--layout`).
    private let cellQueues: [CameraQueueDepth.Probes]
    private let commandLine: String
    private let stillSink: AppSink
    /// `--layout`: each camera's newest whole frame (for its own stills), and which camera
    /// frame each canvas frame shows.
    private let cameraStills: (sinks: [AppSink], selections: CanvasSelections, token: SignalToken)?
    /// `--settle`: measures and drops the settling frames at the encoder's input.
    private let settleToken: ProbeToken?
    /// Sets each frame's `--overlay` text; nil without one.
    private var overlayToken: ProbeToken?
    private var stills: StillTaker?
    /// The muxer ("mux"): a splitmuxsink with segments, whose messages say when a file is done.
    private let muxer: Element?
    private let locationToken: SignalToken?
    /// The run's movie number (0-based) of this pipeline's first movie file: the gate
    /// counts this pipeline's files from 0, the plan the run's.
    private let firstMovie: Int
    /// The sound branch (`--audio`); nil for a silent movie.
    private let sound: SoundBranch?
    /// The appsink that feeds event clips ("clipfeed"); nil without `--pre-roll`/`--post-roll`.
    private let clipSink: AppSink?
    /// The appsink that feeds event clips the sound ("clipsound"); nil without sound or clips.
    private let clipSoundSink: AppSink?
    /// Event clips while the session runs.
    private var clips: ClipRecorder?

    /// Clips the run's earlier pipelines made (numbers go on after a reconnect).
    private let clipsBefore: Int
    /// The preview window (`--preview`) and the appsink "preview" that feeds it; nil without.
    private let preview: (window: PreviewWindow, sink: AppSink)?
    /// The RTSP server (`--serve`) and the appsinks "serve" and, with sound, "servesound"
    /// that feed it; nil without.
    private let served: (server: LiveStreamServer, sink: AppSink, sound: AppSink?)?

    init(config: RecordConfig, pipeline builder: RecordPipeline, control: RecordingControl,
         plan: OutputPlan, clipsBefore: Int = 0, preview window: PreviewWindow? = nil,
         server: LiveStreamServer? = nil) throws(CamrecError) {
        self.clipsBefore = clipsBefore
        self.config = config
        self.control = control
        self.plan = plan
        do {
            commandLine = try builder.commandLine()
            pipeline = try Pipeline.withBuiltIns(try builder.description(location: plan.location))
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
        camera = elements.camera
        composedCameras = elements.canvasCameras
        firstMovie = plan.movieCount - 1
        muxer = elements.muxer
        do {
            locationToken = try elements.muxer?.onFormatLocationFull { [plan] _, _ in plan.nextLocation() }
        } catch {
            throw CamrecError(.failure, "could not name the segments' files (\(error))")
        }
        // Where a segment starts, the encoder makes that frame a keyframe and splitmuxsink
        // starts the new file with it: the cut is exact, and each file starts at 0.
        let encoderPad = elements.encoderOutput
        let gate = FrameGate(limit: config.maxDuration, rate: config.rate, segment: config.segments?.length,
                             stillEvery: config.stills.every, settle: config.settle,
                             measuresKeyframes: config.encoder.isPassthrough)
        self.gate = gate
        let sound = try SoundBranch.install(config.audio, in: pipeline, length: gate.movieLength)
        self.sound = sound
        settleToken = try Self.installSettleProbe(config: config, pipeline: pipeline, gate: gate)
        gateToken = try Self.installGateProbe(config: config, pipeline: pipeline, gate: gate, sound: sound, control: control,
                                              bus: bus, plan: plan, muxer: muxer, encoderPad: encoderPad)
        do {
            compositionTokens = try config.composition?.installStartProbes(in: pipeline) ?? []
        } catch {
            throw CamrecError(.usage, "the composing template needs each camera's v4l2src named camera1, camera2, … (\(error))")
        }
        if let composition = config.composition, !elements.cameraStills.isEmpty {
            do {
                let (selections, token) = try composition.watchSelections(in: pipeline)
                cameraStills = (elements.cameraStills, selections, token)
            } catch {
                throw CamrecError(.usage, "the composing template needs a compositor named canvas for each camera's stills (\(error))")
            }
        } else {
            cameraStills = nil
        }
        if let composition = config.composition, let reconnect = config.reconnect {
            cellReconnection = CellReconnection(composition: composition, identities: CellReconnection.identities(of: composition),
                                                timeout: reconnect.timeout, pipeline: pipeline)
        } else {
            cellReconnection = nil
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
        if let composition = config.composition {
            cameraQueue = nil
            cellQueues = CameraQueueDepth.install(for: composition, in: pipeline)
        } else {
            cameraQueue = try? CameraQueueDepth.install(for: config.source, in: pipeline)
            cellQueues = []
        }
        clipSink = elements.clipFeed
        clipSoundSink = elements.clipSound
        stillSink = elements.stills
        preview = if let window, let sink = elements.preview { (window, sink) } else { nil }
        served = if let server, let sink = elements.serve { (server, sink, elements.serveSound) } else { nil }
        do {
            var decimator: RateDecimator?
            if case .camera(_, let format) = config.source, format.rate != config.rate {
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
            settleToken?.remove()
            frameGuardToken?.remove()
            overlayToken?.remove()
            for token in compositionTokens { token.remove() }
            cameraStills?.token.disconnect()
            cellReconnection?.stop()
            _ = stopper.stop()
        }
        var moviePath: (@Sendable (Int) -> String?)?
        if config.segments != nil {
            let (plan, firstMovie) = (plan, firstMovie)
            moviePath = { @Sendable file in plan.finalPath(ofMovie: firstMovie + file) }
        }
        // Passthrough H.264: stills decode the kept GOP when asked (the camera's JPEGs need
        // no decoding).
        var kept: (GOPKeeper, AppSinkCallbacksToken)?
        if config.encoder.isPassthrough, config.encoder.codec == .h264 { kept = GOPKeeper.attach(to: stillSink) }
        defer {
            kept?.0.close()
            kept?.1.remove()
        }
        let stills = StillTaker(sink: stillSink, settings: config.stills, gate: gate, moviePath: moviePath,
                                keeper: kept?.0, followers: makeCameraStillTakers(events: events), events: events)
        var clipToken: AppSinkCallbacksToken?
        var clipSoundToken: AppSinkCallbacksToken?
        if let settings = config.clips, let clipSink {
            // The clip writer parses the encoder's output as the movie's branch does.
            let parser = config.encoder.parser
            let chain = (parser.hasPrefix("! ") ? String(parser.dropFirst(2)) + " ! " : "") + config.container.muxer
            // Several cameras trigger at the newest frame of any of them, up to a few frames
            // before this camera's own newest: half a second more pre-roll covers that.
            let recorder = ClipRecorder(settings: settings, moviePath: settings.namedAfter ?? config.outputPath, muxer: chain,
                                        frameDuration: UInt64(frameDuration * 1e9),
                                        clipsBefore: clipsBefore,
                                        slack: config.startBarrier == nil || config.composition != nil ? 0 : 500_000_000,
                                        events: events)
            clipToken = recorder.attach(to: clipSink)
            clipSoundToken = clipSoundSink.map { recorder.attachSound(to: $0) }
            clips = recorder
        }
        var previewToken: AppSinkCallbacksToken?
        if let preview {
            let (gate, limit, standby) = (gate, config.maxDuration?.seconds, config.standby)
            let duration = self.frameDuration
            previewToken = preview.window.show(framesOf: preview.sink) {
                standby ? PreviewStatus(label: "STANDBY")
                    : PreviewStatus(label: "REC", elapsed: gate.recordedSeconds(frameDuration: duration), limit: limit)
            }
        }
        let serveToken = served.map { $0.server.serve(framesOf: $0.sink) }
        let serveSoundToken = served.flatMap { served in served.sound.map { served.server.serve(soundOf: $0) } }
        defer {
            previewToken?.remove()
            serveToken?.remove()
            serveSoundToken?.remove()
        }
        var motion: MotionWatcher?
        if let settings = config.motion, let recorder = clips {
            motion = try Self.watchMotion(settings, pipeline: pipeline, size: config.picture.orientation.outputSize(config.size),
                                          recorder: recorder, gate: gate, runTrigger: config.motionTrigger, events: events)
        }
        defer {
            clipToken?.remove()
            clipSoundToken?.remove()
            motion?.remove()
        }
        do {
            try pipeline.setStateThrowingPostedError(.playing)
        } catch {
            _ = stills.finish()
            plan.discardOpen()
            throw FailureMapping.camrecError(for: error, camera: camera)
        }
        self.stills = stills
        let flusher = DurabilityFlusher { [plan] in plan.openPartialPaths }
        defer { flusher.stop() }
        let (gate, config, control, plan, clipRecorder) = (gate, config, control, plan, clips)
        let frameDuration = frameDuration
        var clipTrigger: ClipTrigger.Request?
        var clipNewest: (@Sendable () -> UInt64?)?
        if let recorder = clips {
            let livePhoto = config.clips?.livePhoto ?? false
            let pipeline = pipeline
            // A capture time (the clock: base time + the gate's PTS) and the clips' timeline
            // differ by the base time and by the movie's first frame in both (the picture's
            // delay for AAC priming), as for a Live Photo's frame.
            clipTrigger = { @Sendable capture, after, still in
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
            clipNewest = { @Sendable in
                guard let newest = recorder.newestFrameTime, let first = gate.firstFramePTS,
                      let clipFirst = recorder.firstFrameTime else { return nil }
                return UInt64(max(0, Int64(bitPattern: newest) - Int64(bitPattern: clipFirst) + Int64(bitPattern: first)
                                  + Int64(bitPattern: pipeline.baseTime)))
            }
        }
        let serveURL = served?.server.url
        control.attach(bus: bus, stills: stills, split: { [gate, pipeline] captureTime in
            // A capture time on the clock is a timestamp plus the pipeline's base time.
            gate.requestSplit(at: captureTime.map { $0 >= pipeline.baseTime ? $0 - pipeline.baseTime : 0 })
        }, clip: clipTrigger,
                       clipNewest: clipNewest) {
            RecorderStatus(
                state: control.pendingStop.count > 0 || gate.isClosed ? "stopping" : "recording",
                path: plan.currentPath, elapsed: gate.recordedSeconds(frameDuration: frameDuration),
                frames: gate.frames, stills: 0, droppedFrames: gate.droppedFrames,
                maxDuration: config.maxDuration?.seconds,
                segment: config.segments == nil ? nil : plan.movieCount, preRollBytes: clipRecorder?.preRollBytes,
                serveURL: serveURL)
        }
        if announce { events(.started(startInfo())) }
        var result: RecordingResult
        do {
            result = try loop(events: events)
        } catch {
            reportStuckStop(events: events)
            throw error
        }
        reportStuckStop(events: events)
        result.keyframeInterval = gate.longestKeyframeInterval
        result.droppedAudioMs = sound?.droppedMilliseconds
        result.audioClockPPM = sound.map { Int($0.clockPPM.rounded()) }
        result.lostMovies = lostMovies.isEmpty ? nil : lostMovies
        return result
    }

    /// `--layout`: a still taker per camera, each taking its camera's newest whole frame
    /// whenever the composed still is taken, placed in the movie by the canvas frame that
    /// shows it, marked with its device and rectangle. Empty without a composition.
    private func makeCameraStillTakers(events: @escaping @Sendable (RecordingEvent) -> Void) -> [StillTaker] {
        guard let cameraStills, let composition = config.composition else { return [] }
        let gate = gate
        cameraStillTakers = composition.cameras.enumerated().map { index, camera in
            var settings = config.stills
            settings.naming = composition.cameraStillNaming[index]
            let selections = cameraStills.selections
            return StillTaker(sink: cameraStills.sinks[index], settings: settings, gate: nil,
                              placement: { pts in
                                  switch selections.lookup(camera: index, pts: pts) {
                                  case .canvas(let canvas): gate.place(pts: canvas)
                                  case .pending: (.pending, 0)
                                  case .absent: (.absent, 0)
                                  }
                              },
                              camera: (camera.path, camera.rect), frameSignal: gate.admitted, events: events)
        }
        return cameraStillTakers
    }

    /// `--reconnect` with a layout: the machine's events for the cameras back in their
    /// cells (their new sources, stills appsinks and compositor pads taken over) and for
    /// the waits that are over.
    private func cellsBack(_ outcomes: [CellReconnection.Outcome]) -> [RecordingMachine.Event] {
        outcomes.map { outcome in
            switch outcome {
            case .back(let index, let device, let gap, let source, let stillSink, let pad):
                composedCameras[index] = source
                if cameraStillTakers.indices.contains(index) { cameraStillTakers[index].replaceSink(stillSink) }
                cameraStills?.selections.replacePad(index, with: pad)
                return .canvasCameraBack(index: index, device: device, gap: gap)
            case .gone(_, let message):
                return .warning(message)
            }
        }
    }

    /// Stops the still triggers and takes the stills already asked for (their frames are
    /// still in the pipeline), ends the event clips, then stops the pipeline. Returns the
    /// clips and stills written.
    private func stopPipeline() -> [ResultFile] {
        var files = stills?.finish() ?? []
        sound?.gate.release()
        // The clip being written ends with the run; clips being finished are waited for.
        files = (clips?.finish() ?? []) + files
        _ = stopper.stop()
        return files
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

    /// Warns when the pipeline did not stop in time: camrec went on without it, keeping the
    /// files as they were written (a movie not finalised plays, or `camrec recover` finishes it).
    private func reportStuckStop(events: @Sendable (RecordingEvent) -> Void) {
        guard stopper.isStuck else { return }
        events(.warning("GStreamer did not stop within \(Int(PipelineStopper.timeoutSeconds)) s (an element is stuck): "
                        + "camrec went on without it; the files are kept as written"))
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
        let encoder = config.encoder
        var start = RecordingStart(
            path: plan.currentPath, partialPath: plan.location, device: device, format: format,
            size: config.picture.orientation.outputSize(config.size).description, fps: config.rate.description, formatReason: reason,
            maxDuration: config.maxDuration?.seconds, pipeline: commandLine,
            controls: config.controls.isEmpty ? nil : config.controls)
        start.codec = encoder.codec.rawValue
        start.encoder = encoder.factory ?? "copy"
        start.hardware = encoder.hardware
        start.encodingReason = encoder.reason
        start.bitrate = encoder.targetBitrate(size: config.size, rate: config.rate)
        // Every Motion JPEG frame is a keyframe.
        let gop = encoder.codec == .mjpeg ? 1 : encoder.gop(rate: config.rate)
        let frames = encoder.isPassthrough ? encoder.cameraKeyframePeriod : gop
        start.keyframeInterval = frames.map { Double($0) / config.rate.framesPerSecond }
        start.audio = config.audio.map(StartedAudio.init)
        if config.standby { start.standby = true }
        start.serveURL = served?.server.url
        return start
    }

    private var corruptFrames: UInt64 { frameGuard?.corruptFrames ?? 0 }

    /// The camera sent nothing usable within the start timeout: what it did send, and what to try.
    private func noUsableFrameError() -> CamrecError {
        let seconds = RecordingMachine.startTimeout.components.seconds
        let corrupt = frameGuard?.corruptFrames ?? 0
        let empty = frameGuard?.emptyFrames ?? 0
        let what = corrupt + empty == 0 ? "no frame" : "only broken frames (\(corrupt) corrupt, \(empty) empty)"
        return CamrecError(.cameraLost, "the camera delivered \(what) within \(seconds) s, so nothing was recorded: "
                           + "check its cable and that no other program changes its settings, try another --format or --size, or unplug and replug it")
    }

    private var frameDuration: Double { 1 / max(config.rate.framesPerSecond, 1) }

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
            if case .application(_, CellReconnection.wake)? = message, let cellReconnection {
                for event in cellsBack(cellReconnection.takeBack()) { actions += machine.handle(event) }
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
                    endSoundWithPicture()
                    pipeline.send(.endOfStream())
                case .endSoundAtLastFrame:
                    if let sound {
                        gate.close()
                        if let end = gate.videoEnd { sound.gate.close(at: end) } else { sound.end() }
                    }
                case .endSound:
                    sound?.end()
                case .markCellLost(let index):
                    cellReconnection?.lost(index)
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
                        seconds: gate.recordedSeconds(frameDuration: frameDuration), frames: frames,
                        bytes: plan.bytesWritten, limit: config.maxDuration?.seconds,
                        fps: Double(frames - lastFrames) / max(interval / .seconds(1), 0.001))))
                    lastFrames = frames
                    freeMemory.releaseIfDue(now)
                    if config.segments?.retention.minFree != nil, applyRetention(freeSpaceOnly: true, events: events) {
                        actions += machine.handle(.diskLow(now))
                    }
                case .commit(let index):
                    if let problem = commitClosed(index, events: events) { actions += machine.handle(.warning(problem)) }
                case .applyRetention:
                    if applyRetention(events: events) { actions += machine.handle(.diskLow(now)) }
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
                    throw FailureMapping.camrecError(for: error, camera: camera)
                case .noUsableFrame:
                    _ = stopPipeline()
                    plan.discardOpen()
                    throw noUsableFrameError()
                }
            }
        }
    }

    /// With sound, before the sources are told to end: no more frames are let through, and
    /// the sound up to the end of the last frame is waited for (at most a second: it is
    /// captured by then), so that sound and picture end together.
    private func endSoundWithPicture() {
        guard let sound else { return }
        gate.close()
        if let end = gate.videoEnd {
            sound.gate.close(at: end)
            _ = sound.gate.waitUntilComplete(seconds: 1)
        }
        sound.gate.release()
    }

    /// The machine's event for a bus message; nil for messages it does not care about.
    private func event(for message: Message, at now: ContinuousClock.Instant) -> RecordingMachine.Event? {
        switch message {
        case .endOfStream:
            // With segments, splitmuxsink finalises the last movies on threads of their own
            // and says so for each (none when nothing was recorded).
            return .endOfStream(finalising: muxer != nil && gate.frames > 0 ? plan.openMovies : [], at: now)
        case .element(let source, "splitmuxsink-fragment-closed", let fields):
            guard let muxer, source.is(muxer), let location = fields.string("location"),
                  let index = plan.openMovie(at: location) else { return nil }
            return .movieClosed(index, open: plan.openMovies)
        case .application(_, RecordingControl.Wake.limit):
            return .limitReached(now)
        case .application(_, RecordingControl.Wake.stop):
            let (reason, count) = control.pendingStop
            return .stopRequested(reason ?? .signal, count: count, now)
        case .application(_, RecordingControl.Wake.noSound):
            return .noSound
        case .application(_, RecordingControl.Wake.corruptFrame):
            return .firstCorruptFrame
        case .application(_, RecordingControl.Wake.splitFailed):
            return .failed(.signal(object: muxer?.name ?? "mux", name: "split-at-running-time"))
        case .error(let failure):
            if let camera, failure.source.is(camera) {
                return .cameraFailed(failure, framesRecorded: gate.frames, now)
            }
            if let index = composedCameras.firstIndex(where: { failure.source.is($0) }) {
                // The messages name the camera: "camera 2 (/dev/video2): Could not read …".
                let name = "camera \(index + 1) (\(config.composition?.cameras[index].path ?? "?"))"
                return .canvasCameraFailed(index: index, camera: name, failure, framesRecorded: gate.frames, now)
            }
            if let sound, failure.source.is(sound.source) {
                return .soundFailed(failure, framesRecorded: gate.frames)
            }
            if failure.isResourceError(.noSpaceLeft) { return .diskFull }
            return .failed(.element(failure))
        case .warning(let failure):
            return .warning("\(failure.source.name): \(failure.message)")
        default:
            return nil
        }
    }

    /// Commits movie `index`, which splitmuxsink has finalised; returns the problem to
    /// warn about, if any (the movie was lost: the run goes on and exits 73).
    private func commitClosed(_ index: Int, events: @Sendable (RecordingEvent) -> Void) -> String? {
        guard let summary = gate.segment(index - firstMovie), summary.frames > 0 else {
            plan.discard(index)
            return nil
        }
        do {
            let (file, note) = try plan.commitFinalised(index, frames: summary.frames, seconds: summary.seconds)
            committed.append(file)
            if config.segments != nil { events(.segment(file)) }
            // The run goes on; the file stays where the note says, and the run exits 73.
            if let note { events(.warning(note)) }
            return nil
        } catch {
            // Lost (its file removed or replaced under it): said now, and the run exits 73.
            lostMovies.append(plan.finalPath(ofMovie: index) ?? plan.currentPath)
            return error.message
        }
    }

    /// Movies this session committed, in order.
    private var committed: [ResultFile] = []

    /// Segments lost while the run went on, by their final names (see `RecordingResult.lostMovies`).
    private var lostMovies: [String] = []

    /// The recording's logic (see ``RecordingMachine``), fed by `loop`.
    private var machine = RecordingMachine(start: .now)

    /// The machine decided to stop (or the source ended): retention deletes nothing more to
    /// make room, as no movie will need it (issue 29 item 7).
    private var isStopping: Bool { machine.state != .recording }

    /// Applies retention, reporting each deletion (a deleted movie leaves the result);
    /// true when free space stays below `--min-free` with nothing left to delete.
    private func applyRetention(freeSpaceOnly: Bool = false, events: @Sendable (RecordingEvent) -> Void) -> Bool {
        let (deleted, stillShort) = plan.applyRetention(freeSpaceOnly: freeSpaceOnly, stopping: isStopping)
        for file in deleted {
            events(.deleted(file))
            committed.removeAll { $0.path == file.path }
        }
        return stillShort
    }

    /// The file is finalised (EOS reached the sink, and with segments the machine saw the
    /// last movies closed, or gave up on `unfinished`): commits what is not yet. `requested`
    /// is the stop that was asked for, nil when the source ended by itself.
    private func finish(requested: StopReason?, message: String?, unfinished: [Int],
                        events: @Sendable (RecordingEvent) -> Void) throws(CamrecError) -> RecordingResult {
        let reason = requested ?? .signal
        let stillFiles = stopPipeline()
        guard gate.frames > 0 else {
            plan.discardOpen()
            if requested == .signal || requested == .control {
                // Asked to stop before the first frame came: nothing to keep, nothing wrong.
                return RecordingResult(reason: reason, files: stillFiles, droppedFrames: 0, corruptFrames: corruptFrames,
                                       message: "stopped before the first frame: no movie was made")
            }
            throw CamrecError(.failure, "no frames were recorded: the source delivered nothing")
        }
        var notes: [String] = []
        if config.segments != nil {
            // Movies whose finalising never ended are kept as written (they play).
            for index in unfinished {
                guard let kept = plan.keepUnfinalised(index) else { continue }
                committed.append(kept.file)
                if let note = kept.note { notes.append(note) }
            }
        } else {
            for index in plan.openMovies {
                guard let summary = gate.segment(index - firstMovie), summary.frames > 0 else {
                    plan.discard(index)
                    continue
                }
                let (file, note) = try plan.commitFinalised(index, frames: summary.frames, seconds: summary.seconds)
                committed.append(file)
                if let note { notes.append(note) }
            }
        }
        _ = applyRetention(events: events)
        let said = ([message].compactMap { $0 } + notes).joined(separator: "; ")
        return RecordingResult(reason: reason, files: committed + stillFiles, droppedFrames: gate.droppedFrames,
                               corruptFrames: corruptFrames, message: said.isEmpty ? nil : said)
    }

    /// Stops at once and keeps what the open movies hold (see `OutputPlan.keepUnfinalised`).
    private func keepUnfinalised(reason: StopReason, cause: String) -> RecordingResult {
        let stillFiles = stopPipeline()
        var notes: [String] = []
        var keptNow = 0
        // An aborted movie is not finished: it stays under its temporary name, never under
        // OUTPUT, for `camrec recover` to finalise.
        let publish = reason != .aborted
        var keptPartials: [String] = []
        for index in plan.openMovies {
            if let kept = plan.keepUnfinalised(index, publish: publish) {
                committed.append(kept.file)
                keptNow += 1
                if let note = kept.note { notes.append(note) }
                if !publish { keptPartials.append(kept.file.path) }
            }
        }
        guard gate.frames > 0, keptNow > 0 || config.standby else {
            plan.discardOpen()
            let note = committed.isEmpty
                ? cause + ": nothing of the movie was written, so no file was kept"
                : cause + ": the finished movies are kept; nothing of the last one was written"
            return RecordingResult(reason: reason, files: committed + stillFiles, droppedFrames: gate.droppedFrames,
                                   corruptFrames: corruptFrames, message: note)
        }
        var note = cause + ": the recording so far is kept as written, not finalised (it plays)"
        if !keptPartials.isEmpty {
            let names = keptPartials.joined(separator: " ")
            note = cause + ": the recording so far is kept unfinalised in \(names) (it plays; camrec recover \(names) finalises it)"
        }
        if config.standby { note = cause + ": the clips made so far are kept" }
        for problem in notes { note += "; \(problem)" }
        return RecordingResult(reason: reason, files: committed + stillFiles, droppedFrames: gate.droppedFrames,
                               corruptFrames: corruptFrames, message: note)
    }
}

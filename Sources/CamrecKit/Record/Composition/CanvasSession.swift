import GStreamer

/// A recording session's canvas (`--layout`): each camera's branch offering its frames to
/// the start barrier, each camera's own stills, the wait for a lost camera and its cell's
/// rebuilding (`--reconnect`), and which source is which camera.
final class CanvasSession {
    private let composition: Composition
    /// Each camera's branch offers its frames to the start barrier.
    private let startTokens: [ProbeToken]
    /// Each camera's newest whole frame (for its own stills), and which camera frame each
    /// canvas frame shows; nil when the cameras take no stills of their own.
    private let cameraStills: (sinks: [AppSink], selections: CanvasSelections, token: SignalToken)?
    /// `--reconnect`: waits for lost cameras and rebuilds their cells.
    private let reconnection: CellReconnection?
    /// Has each camera's v4l2src queue `CameraQueueDepth` buffers.
    private let queues: [CameraQueueDepth.Probes]
    /// The cameras' sources ("camera1", …): their errors are the machine's
    /// `canvasCameraFailed` (a black cell, or the movie's end); a camera back in its cell
    /// has a new one.
    private var cameras: [Element]
    /// Each camera's still taker, made by `makeStillTakers`.
    private var stillTakers: [StillTaker] = []

    init(_ composition: Composition, reconnect: ReconnectSettings?, cameraBuffers: Int? = nil, elements: RecordingElements,
         pipeline: Pipeline) throws(CamrecError) {
        self.composition = composition
        cameras = elements.canvasCameras
        do {
            startTokens = try composition.installStartProbes(in: pipeline)
        } catch {
            throw CamrecError(.usage, "the composing template needs each camera's v4l2src named camera1, camera2, … (\(error))")
        }
        if elements.cameraStills.isEmpty {
            cameraStills = nil
        } else {
            do {
                let (selections, token) = try composition.watchSelections(in: pipeline)
                cameraStills = (elements.cameraStills, selections, token)
            } catch {
                for token in startTokens { token.remove() }
                throw CamrecError(.usage, "the composing template needs a compositor named canvas for each camera's stills (\(error))")
            }
        }
        reconnection = reconnect.map {
            CellReconnection(composition: composition, identities: CellReconnection.identities(of: composition),
                             timeout: $0.timeout, pipeline: pipeline)
        }
        queues = CameraQueueDepth.install(for: composition, buffers: cameraBuffers, in: pipeline)
    }

    /// Ends the waits and takes the probes off (the session's pipeline is ending).
    func remove() {
        for token in startTokens { token.remove() }
        cameraStills?.token.disconnect()
        reconnection?.stop()
    }

    /// For the canvas's stills: the camera frame (by timestamp) whose capture time a
    /// canvas frame (by timestamp) carries in its EXIF. A canvas frame is made when its
    /// slot's time is up, of the frames that had arrived by then, which the cameras
    /// captured earlier. Nil without selections (the canvas frame's own time is used).
    var capturedAs: (@Sendable (UInt64) -> UInt64?)? {
        guard let selections = cameraStills?.selections else { return nil }
        return { selections.cameraFrame(onCanvas: $0) }
    }

    /// A still taker per camera (the movie's `settings`, each camera's own names), each
    /// taking its camera's newest whole frame whenever the composed still is taken, placed
    /// in the movie by the canvas frame that shows it, marked with its device and
    /// rectangle. Empty when the cameras take no stills of their own.
    func makeStillTakers(settings: StillSettings, gate: FrameGate,
                         events: @escaping @Sendable (RecordingEvent) -> Void) -> [StillTaker] {
        guard let cameraStills else { return [] }
        stillTakers = composition.cameras.enumerated().map { index, camera in
            var own = settings
            own.naming = composition.cameraStillNaming[index]
            if index < composition.cameraStillTags.count { own.tags = composition.cameraStillTags[index] }
            let selections = cameraStills.selections
            return StillTaker(sink: cameraStills.sinks[index], settings: own, gate: nil,
                              placement: { pts in
                                  switch selections.lookup(camera: index, pts: pts) {
                                  case .canvas(let canvas): gate.place(pts: canvas)
                                  case .pending: (.pending, 0)
                                  case .absent: (.absent, 0)
                                  }
                              },
                              camera: (camera.path, camera.rect), frameSignal: gate.admitted, events: events)
        }
        return stillTakers
    }

    /// The machine's event for an error from one of the cameras; nil when `failure` is
    /// not a camera's.
    func cameraFailed(_ failure: ElementFailure, framesRecorded: Int, at now: ContinuousClock.Instant) -> RecordingMachine.Event? {
        guard let index = cameras.firstIndex(where: { failure.source.is($0) }) else { return nil }
        // The messages name the camera: "camera 2 (/dev/video2): Could not read …".
        let name = "camera \(index + 1) (\(composition.cameras[index].path))"
        return .canvasCameraFailed(index: index, camera: name, failure, framesRecorded: framesRecorded, now)
    }

    /// Camera `index` is lost: with `--reconnect`, waits for it.
    func lost(_ index: Int) { reconnection?.lost(index) }

    /// After the reconnection's wake-up on the bus: the machine's events for the cameras
    /// back in their cells (their new sources, stills appsinks and compositor pads taken
    /// over) and for the waits that are over.
    func camerasBack() -> [RecordingMachine.Event] {
        guard let reconnection else { return [] }
        return reconnection.takeBack().map { outcome in
            switch outcome {
            case .back(let index, let device, let gap, let source, let stillSink, let pad):
                cameras[index] = source
                if stillTakers.indices.contains(index) { stillTakers[index].replaceSink(stillSink) }
                cameraStills?.selections.replacePad(index, with: pad)
                return .canvasCameraBack(index: index, device: device, gap: gap)
            case .gone(_, let message):
                return .warning(message)
            }
        }
    }
}

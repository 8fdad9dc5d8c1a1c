import GStreamer

/// How many buffers camrec has `v4l2src` queue with the camera, and the probe that makes
/// it ask for them.
///
/// The camera fills queued buffers on its own; camrec's capture thread only takes the
/// filled ones out and queues them again. When that thread waits for a CPU longer than
/// the queued buffers last, the camera has nowhere to put the next frame and loses it.
/// `v4l2src` (GStreamer 1.22) queues 4 (ffmpeg 32): 133 ms at 30 fps, which a loaded
/// machine exceeds. There is no property for it; `v4l2src` sizes its pool from the
/// ALLOCATION query it sends downstream: its pool minimum is the query's minimum + the
/// driver's own minimum (`V4L2_CID_MIN_BUFFERS_FOR_CAPTURE`, mostly absent: 0) + 2
/// (gstv4l2object.c, `gst_v4l2_object_decide_allocation`, when it pushes from its own pool
/// as it does in MMAP and DMABUF modes). So a probe on its source pad raises the answered
/// query's minimum before `v4l2src` reads it.
///
/// The extra buffers are empty driver buffers waiting for a frame: they add no latency
/// (each frame is taken out as soon as the capture thread runs, and stills still take the
/// newest frame), only memory, one frame's size each (mapped driver memory).
///
/// A queue proposed from downstream also turns off v4l2src's copy threshold (it copies a
/// frame and gives the camera its buffer back at once when fewer than 2 are queued): then
/// frames waiting in the record queue for a starved encoder hold the camera's buffers, and
/// a backlog as deep as the queue leaves the camera none. So camrec copies instead, as
/// ffmpeg does when its queue runs low: once the record queue holds `copyFrom` frames,
/// each new frame goes on as a copy and its camera buffer goes straight back, which keeps
/// at least half the queue with the camera whatever the encoder's backlog.
///
/// A compressed frame (MJPEG, H.264) is small beside its driver buffer, which is sized for
/// the largest frame: it is always sent on as a copy, and its buffer goes back to the
/// camera at once. Stored as it comes (`--codec copy`) or held by a canvas's cell queue, a
/// camera buffer would otherwise wait in a queue for the muxer, the decoder or a still.
public struct CameraQueueDepth: Sendable, Equatable {
    /// How long the camera can go on capturing while the capture thread waits for a CPU.
    public static let reachNanoseconds: UInt64 = 500_000_000
    /// The most driver memory the queue may take (16 MiB): large frames get fewer buffers.
    /// Every buffer is the driver's full frame size (`sizeimage`), also for MJPEG and H.264,
    /// whose buffers UVC drivers size for the largest frame (often width × height × 2).
    public static let budgetBytes = 16 << 20
    /// `v4l2src`'s own depth without a pool proposal from downstream: never less.
    public static let fewest = 4
    /// `VIDEO_MAX_FRAME`: the most `v4l2src` asks a driver for.
    public static let most = 32
    /// What `v4l2src` adds to the query's minimum besides the driver's minimum.
    static let v4l2srcSpare = 2

    /// Buffers to ask the camera for.
    public let buffers: Int
    /// Whether every frame is sent on as a copy (compressed frames), not only those that
    /// find the record queue backed up.
    public var copiesEveryFrame = false

    /// The depth for a camera delivering `framesPerSecond` in buffers of `frameBytes`:
    /// `reachNanoseconds` of frames, at most `budgetBytes` of them, between `fewest` and `most`.
    public init(framesPerSecond: Double, frameBytes: Int) {
        let frames = (framesPerSecond * Double(Self.reachNanoseconds) / 1e9).rounded(.up)
        let byTime = frames.isFinite && frames > 0 ? Int(min(frames, Double(Self.most))) : Self.fewest
        let byMemory = frameBytes > 0 ? Self.budgetBytes / frameBytes : Self.most
        buffers = min(Self.most, max(Self.fewest, min(byTime, byMemory)))
    }

    /// Exactly `buffers`, within `fewest`…`most` (`--camera-buffers`).
    public init(buffers: Int) {
        self.buffers = min(Self.most, max(Self.fewest, buffers))
    }

    /// The driver's buffer size for a camera format, as UVC drivers and the emulated camera
    /// size them: width × height × 2 (YUYV's frame; the bound for MJPEG and H.264 frames).
    static func frameBytes(of format: CameraFormat) -> Int {
        format.size.width * format.size.height * 2
    }

    /// Frames in the record queue from which camera frames are sent on as copies.
    var copyFrom: Int { copiesEveryFrame ? 0 : buffers / 2 }

    /// The minimum the allocation query must carry for `v4l2src` to ask for `buffers`.
    var queryMinimum: Int { buffers - Self.v4l2srcSpare }

    /// Raises the minimum of the answered ALLOCATION query `query` (or proposes one, when
    /// downstream proposed no pool) so that `v4l2src` asks the camera for `buffers`;
    /// a larger minimum that downstream asked for is kept. Other queries are left alone.
    func deepen(_ query: AllocationQueryView) {
        if let first = query.pools.first {
            if first.minimumBuffers < queryMinimum { query.setMinimumBuffers(queryMinimum, ofPool: 0) }
        } else {
            // Size 0: v4l2src sizes its own pool from the format it negotiated.
            query.addPool(size: 0, minimumBuffers: queryMinimum, maximumBuffers: 0)
        }
    }

    /// The probes on the camera's source pad; dropping it removes them.
    struct Probes: Sendable {
        /// Deepens the ALLOCATION query.
        let allocation: ProbeToken
        /// Sends frames on as copies while the record queue is backed up; nil without one.
        let copies: ProbeToken?
    }

    /// Installs the probes on the camera (the element named "src", a `v4l2src`) of
    /// `pipeline` for `source`, watching the queue named "record"; nil for the test pattern.
    /// `buffers` (`--camera-buffers`) overrides the depth camrec picks.
    static func install(for source: VideoSource, buffers: Int? = nil, in pipeline: Pipeline) throws(GStreamerError) -> Probes? {
        guard case .camera(_, let format) = source else { return nil }
        return try install(CameraQueueDepth(for: format, buffers: buffers), on: pipeline.element(named: "src"),
                           recordQueue: try? pipeline.element(named: "record"))
    }

    /// The depth for `format` (or `buffers`, when given: `--camera-buffers`), copying every
    /// frame when it is compressed.
    init(for format: CameraFormat, buffers: Int? = nil) {
        if let buffers {
            self.init(buffers: buffers)
        } else {
            self.init(framesPerSecond: format.rate.framesPerSecond, frameBytes: Self.frameBytes(of: format))
        }
        copiesEveryFrame = format.decoding != .none
    }

    /// Installs the probes on every camera of a canvas (`--layout`): elements `cameraN`, each
    /// watching its cell's queue `cellN`.
    static func install(for composition: Composition, buffers: Int? = nil, in pipeline: Pipeline) -> [Probes] {
        composition.cameras.enumerated().compactMap { index, camera in
            guard let element = try? pipeline.element(named: "camera\(index + 1)") else { return nil }
            return try? install(CameraQueueDepth(for: camera.format, buffers: buffers), on: element,
                                recordQueue: try? pipeline.element(named: "cell\(index + 1)"))
        }
    }

    /// Installs the probes on `camera`'s source pad; nil when `camera` is not a `v4l2src`.
    ///
    /// The first sees the ALLOCATION query before it is sent, has the peer answer it,
    /// deepens the answer and reports it answered. Waiting for the answer's return trip is
    /// not enough: GStreamer shows a probe the answered query only when the answer
    /// succeeded, and camrec's answer fails (the stills `appsink` answers no ALLOCATION
    /// query in 1.22, so `tee` reports failure), which leaves `v4l2src` at its default of 4.
    static func install(_ depth: CameraQueueDepth, on camera: Element, recordQueue: Element?) throws(GStreamerError) -> Probes? {
        guard camera.factoryName == "v4l2src" else { return nil }
        let pad = try camera.staticPad("src")
        let allocation = pad.addProbe(.downstreamQuery) { [weak pad] info in
            guard let query = info.query, let allocation = query.allocation, allocation.isWritable,
                  let peer = pad?.peer
            else { return .pass }
            // Whether downstream answered or not, what it wrote stays (a failed answer
            // leaves the query as v4l2src would read it: no pool proposed).
            _ = peer.answer(query)
            depth.deepen(allocation)
            return .handled
        }
        let copyFrom = UInt64(depth.copyFrom)
        let copies: ProbeToken?
        if depth.copiesEveryFrame {
            copies = pad.addProbe(.buffer) { info in
                guard let copy = info.buffer?.deepCopy() else { return .pass }
                return .replace(copy)
            }
        } else {
            copies = recordQueue.map { queue in
                pad.addProbe(.buffer) { info in
                    guard let buffer = info.buffer, let level = queue.unsignedProperty("current-level-buffers"),
                          level >= copyFrom, let copy = buffer.deepCopy()
                    else { return .pass }
                    return .replace(copy)
                }
            }
        }
        return Probes(allocation: allocation, copies: copies)
    }
}

import GStreamer

/// Decodes compressed frames and re-encodes those in a time window to H.264 with x264
/// (no B-frames, one IDR at the start), for the head and tail of a smart cut or a full
/// re-encode. Runs its own pipeline: `appsrc ! parser ! decoder ! videoconvert ! queue !
/// x264enc ! appsink` (the queue lets decoding and encoding use both cores).
final class FrameEncoder {
    /// How x264 trades speed for size. Quality is constant (CRF) and not capped by a bitrate:
    /// x264enc's default `bitrate` (2048 kbit/s) would otherwise cap it as a VBV maximum.
    enum Effort {
        /// The few seconds at the edges of a smart cut, where time matters more than bytes:
        /// `ultrafast` at CRF 25 (about 50 dB luma PSNR against the source, at up to twice
        /// the source's bitrate for those seconds).
        case edges
        /// A whole movie: `veryfast` at CRF 18.
        case whole

        var x264Settings: String {
            switch self {
            case .edges: "speed-preset=ultrafast pass=qual quantizer=25 threads=1"
            case .whole: "speed-preset=veryfast pass=qual quantizer=18"
            }
        }

        /// Decoder threads: one for the edges (head and tail encode at once, each decoding
        /// and encoding on its own thread: more threads only cost context switches on two
        /// cores, measured 0.72 s against 0.9 s for a 720p cut); libav's default otherwise.
        var decoderThreads: String {
            self == .edges ? " max-threads=1" : ""
        }
    }

    /// The stage named in a stall message.
    static let stage = "the re-encoder (decoder and x264)"

    private let pipeline: Pipeline
    private let source: AppSrc
    private let sink: AppSink
    private let probe: ProbeToken
    private let control: TrimControl
    /// Wakes the reading thread when the sink has a frame or ended, or an error is posted.
    private let activity: SinkActivity
    private let activityWatch: ActivityWatch
    private var finished = false

    /// - Parameters:
    ///   - inputCaps: the caps of the frames pushed (as the reader delivers them).
    ///   - keep: buffer PTS window whose decoded frames are encoded; others are dropped.
    ///   - parameterSetID: SPS/PPS id for the encoded stream, unused by the source.
    ///   - effort: the speed/size trade-off.
    ///   - control: bounds every wait (a stalled decoder or encoder) and stops on cancellation.
    init(
        codec: VideoCodec, inputCaps: Caps, keep: Range<Int64>, parameterSetID: Int, effort: Effort,
        control: TrimControl
    ) throws(GStreamerError) {
        self.control = control
        let rawFormat: String
        switch inputCaps.string("chroma-format") {
        case "4:2:2": rawFormat = "Y42B"
        case "4:4:4": rawFormat = "Y444"
        default: rawFormat = "I420"
        }
        let parser = codec.parser.map { "\($0) ! " } ?? ""
        let decoder = codec.decoder.map { $0.hasPrefix("avdec_") ? $0 + effort.decoderThreads : $0 } ?? "decodebin"
        let description = """
            appsrc name=source format=time block=true max-bytes=8000000 ! \(parser)\(decoder) name=decoder ! \
            videoconvert ! video/x-raw,format=\(rawFormat) ! queue max-size-buffers=16 max-size-bytes=0 max-size-time=0 ! \
            x264enc bframes=0 key-int-max=100000 trellis=false bitrate=2048000 \(effort.x264Settings) \
            option-string="sps-id=\(parameterSetID)" ! \
            video/x-h264,stream-format=byte-stream,alignment=au ! appsink name=sink sync=false enable-last-sample=false
            """
        pipeline = try Pipeline.parse(description)
        source = try AppSrc(pipeline.element(named: "source"))
        sink = try AppSink(pipeline.element(named: "sink"))
        source.setCaps(inputCaps)
        let decoderPad = try pipeline.element(named: "decoder").staticPad("src")
        probe = decoderPad.addProbe(.buffer) { info in
            guard let buffer = info.buffer else { return .pass }
            guard let pts = buffer.pts else { return .drop }
            return keep.contains(Int64(pts)) ? .pass : .drop
        }
        let activity = SinkActivity()
        self.activity = activity
        activityWatch = activity.watch([sink], errorsOf: pipeline)
        try pipeline.setStateThrowingPostedError(.playing)
    }

    /// Feeds one compressed frame. Blocks while the encoder is busy and its queue is full,
    /// for at most the stall timeout: a re-encoder that takes nothing in that long has stalled.
    func push(_ buffer: Buffer) throws {
        let outcome = Result { () throws(CamrecError) in try source.push(buffer, stage: Self.stage, control: control) }
        if case .failure(let error) = outcome, error.kind == .stalled {
            // A decoder that failed stops taking frames too: its error says more.
            try PipelineRunner.checkForError(pipeline)
        }
        let result = try outcome.get()
        guard result == .ok else {
            try PipelineRunner.checkForError(pipeline)
            throw GStreamerError.flow(result, context: "the re-encoder refused a frame")
        }
    }

    /// No more input: the encoder drains.
    func finish() {
        guard !finished else { return }
        finished = true
        source.endOfStream()
    }

    /// Encoded frames ready now (no waiting).
    func available() throws -> [Buffer] {
        try control.checkCancelled()
        var buffers: [Buffer] = []
        while let sample = sink.pullSample(timeoutNanoseconds: 0), let buffer = sample.buffer { buffers.append(buffer) }
        try PipelineRunner.checkForError(pipeline)
        return buffers
    }

    /// All the remaining encoded frames, waiting for the encoder to drain (call after
    /// `finish`). Throws `stalled` when no frame comes for the stall timeout.
    func remaining() throws -> [Buffer] {
        var buffers: [Buffer] = []
        var watch = control.watch(Self.stage)
        while true {
            let seen = activity.current
            if let sample = sink.pullSample(timeoutNanoseconds: 0) {
                if let buffer = sample.buffer { buffers.append(buffer) }
                watch.progressed()
                continue
            }
            if sink.isEndOfStream { break }
            try PipelineRunner.checkForError(pipeline)
            try watch.wait(for: activity, since: seen)
        }
        try PipelineRunner.checkForError(pipeline)
        return buffers
    }

    deinit {
        probe.remove()
        activityWatch.stop()
        _ = try? pipeline.setState(.null)
    }
}

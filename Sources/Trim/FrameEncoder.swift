import CamrecCore
import GStreamer

/// Decodes compressed frames and re-encodes those in a time window (no B-frames, a
/// keyframe at the start), for the head and tail of a smart cut or a full re-encode, as a
/// ``VideoEncoding`` says. Runs its own pipeline: `appsrc ! parser ! decoder ! [videoconvert
/// ! raw format] ! queue ! encoder ! appsink` (the queue lets decoding and encoding use both cores).
final class FrameEncoder {
    /// The stage named in a stall message.
    static let stage = "the re-encoder (decoder and encoder)"

    private let pipeline: Pipeline
    private let source: AppSrc
    private let sink: AppSink
    private let probe: ProbeToken
    private let control: TrimControl
    /// The encoder's name and the format it was given, for a refusal.
    private let encoderName: String
    /// Wakes the reading thread when the sink has a frame or ended, or an error is posted.
    private let activity: SinkActivity
    private let activityWatch: ActivityWatch
    private var finished = false
    /// The decoder configuration the encoder declares in its output caps (`codec_data`), if any.
    private(set) var outputConfiguration: [UInt8]?
    private var sawCaps = false
    /// For edges in the source's codec: the source's decoder configuration and codec, read
    /// with its first frame into ``signal`` (what the edges must declare, ``EdgeSignal``).
    private let signalSource: (codec: TrimCodec, codecData: [UInt8]?)?
    private var signal: EdgeSignal?

    /// - Parameters:
    ///   - inputCaps: the caps of the frames pushed (as the reader delivers them).
    ///   - keep: buffer PTS window whose decoded frames are encoded; others are dropped
    ///     (``init(codec:inputCaps:keeping:encoding:parameterSetID:effort:control:)``: any set).
    ///   - encoding: the encoder and the raw format it is fed.
    ///   - parameterSetID: SPS/PPS id for an H.264 stream, unused by the source.
    ///   - effort: the decoder's threads.
    ///   - control: bounds every wait (a stalled decoder or encoder) and stops on cancellation.
    convenience init(
        codec: TrimCodec, inputCaps: Caps, keep: Range<Int64>, encoding: VideoEncoding, parameterSetID: Int,
        effort: VideoEncoding.Effort, control: TrimControl
    ) throws(GStreamerError) {
        try self.init(
            codec: codec, inputCaps: inputCaps, keeping: { keep.contains($0) }, encoding: encoding,
            parameterSetID: parameterSetID, effort: effort, control: control
        )
    }

    /// A re-encoder that encodes the decoded frames whose buffer PTS `keeping` accepts.
    init(
        codec: TrimCodec, inputCaps: Caps, keeping keep: @escaping @Sendable (Int64) -> Bool, encoding: VideoEncoding,
        parameterSetID: Int, effort: VideoEncoding.Effort, control: TrimControl
    ) throws(GStreamerError) {
        self.control = control
        encoderName = String(encoding.encoder.prefix { $0 != " " })
        signalSource = effort == .edges && encoding.codec.edgeEncoder == codec.edgeEncoder
            ? (codec, inputCaps.bytes("codec_data")) : nil
        let parser = codec.parser.map { "\($0) ! " } ?? ""
        let decoder = codec.decoder.map { $0.hasPrefix("avdec_") ? $0 + effort.decoderThreads : $0 } ?? "decodebin"
        let convert = encoding.rawCaps.map { "videoconvert ! \($0) ! " } ?? ""
        let description = """
            appsrc name=source format=time block=true max-bytes=8000000 ! \(parser)\(decoder) name=decoder ! \
            identity name=decoded silent=true ! \(convert)queue max-size-buffers=16 max-size-bytes=0 max-size-time=0 ! \
            \(encoding.launchText(parameterSetID: parameterSetID)) ! \
            appsink name=sink sync=false enable-last-sample=false
            """
        pipeline = try Pipeline.parse(description)
        source = try AppSrc(pipeline.element(named: "source"))
        sink = try AppSink(pipeline.element(named: "sink"))
        source.setCaps(inputCaps)
        // After the decoder: decodebin (a codec without a decoder of its own, e.g. ProRes)
        // has no static source pad.
        let decoderPad = try pipeline.element(named: "decoded").staticPad("src")
        probe = decoderPad.addProbe([.buffer, .downstreamEvent]) { info in
            if let event = info.event {
                return event.caps.flatMap(Self.declaringMatrix).flatMap(Event.caps).map { .replaceEvent($0) } ?? .pass
            }
            guard let buffer = info.buffer else { return .pass }
            guard let pts = buffer.pts else { return .drop }
            return keep(Int64(pts)) ? .pass : .drop
        }
        let activity = SinkActivity()
        self.activity = activity
        activityWatch = activity.watch([sink], errorsOf: pipeline)
        try pipeline.setStateThrowingPostedError(.playing)
    }

    /// Decoded caps whose colorimetry gives a range but no matrix (a full-range H.264 or
    /// MJPEG stream without a colour description: webcams' usual output), with the matrix
    /// players assume (BT.601 up to 576 lines, else BT.709); nil for any other caps. Without
    /// a matrix, GStreamer's video info falls back to its default colorimetry, limited
    /// range, and x264enc would write the re-encoded frames as limited range while the
    /// copied ones are full range: the picture would change at every join.
    static func declaringMatrix(_ caps: Caps) -> Caps? {
        guard let colorimetry = caps.string("colorimetry") else { return nil }
        let fields = colorimetry.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 4, fields[0] == "1", fields[1] == "0" else { return nil }
        let matrix = (caps.int("height") ?? 0) > 576 ? "3" : "4"
        let declared = ([fields[0], Substring(matrix)] + fields[2...]).joined(separator: ":")
        return try? Caps(caps.description.replacing(
            "colorimetry=(string)\(colorimetry)", with: "colorimetry=(string)\(declared)"
        ))
    }

    /// Feeds one compressed frame. Blocks while the encoder is busy and its queue is full,
    /// for at most the stall timeout: a re-encoder that takes nothing in that long has stalled.
    func push(_ buffer: Buffer) throws {
        if let signalSource, signal == nil {
            signal = EdgeSignal.of(codec: signalSource.codec, codecData: signalSource.codecData, firstFrame: buffer.bytes)
        }
        let outcome = Result { () throws(CamrecError) in try source.push(buffer, stage: Self.stage, control: control) }
        if case .failure(let error) = outcome, error.kind == .stalled {
            // A decoder that failed stops taking frames too: its error says more.
            try check()
        }
        let result = try outcome.get()
        guard result == .ok else {
            try check()
            if result == .notNegotiated { throw refusal() }
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
        while let sample = sink.pullSample(timeoutNanoseconds: 0), let buffer = sample.buffer {
            note(sample)
            buffers.append(declaring(buffer))
        }
        try check()
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
                note(sample)
                if let buffer = sample.buffer { buffers.append(declaring(buffer)) }
                watch.progressed()
                continue
            }
            if sink.isEndOfStream { break }
            try check()
            try watch.wait(for: activity, since: seen)
        }
        try check()
        return buffers
    }

    /// `buffer` declaring what the source declares (``EdgeSignal``): the same buffer when
    /// nothing changes, else a new one with its times and flags.
    private func declaring(_ buffer: Buffer) -> Buffer {
        guard let signal else { return buffer }
        let bytes = buffer.bytes
        let declared = signal.applied(to: bytes)
        guard declared != bytes else { return buffer }
        return buffer.replacingBytes(declared) ?? buffer
    }

    private func note(_ sample: Sample) {
        guard !sawCaps else { return }
        sawCaps = true
        outputConfiguration = sample.caps?.bytes("codec_data")
    }

    /// Throws the pipeline's first error; a failed negotiation (the encoder cannot take the
    /// decoded format: it is never converted to another bit depth or chroma) as
    /// ``VideoEncoding/Unavailable``, so that the trim can cut at keyframes instead.
    private func check() throws {
        do {
            try PipelineRunner.checkForError(activityWatch.errors)
        } catch {
            if case .element(let failure) = error, failure.debug.contains("not-negotiated") { throw refusal() }
            throw error
        }
    }

    private func refusal() -> VideoEncoding.Unavailable {
        // The decoder's own source pad holds the caps it offered (decodebin has none: then
        // the element after it).
        let pad = (try? pipeline.element(named: "decoder").staticPad("src"))
            ?? (try? pipeline.element(named: "decoded").staticPad("sink"))
        let format = pad?.currentCaps?.string("format")
        return VideoEncoding.Unavailable(
            reason: "\(encoderName) here cannot encode " + (format.map { "\($0) frames" } ?? "the decoded frames")
                + " (the source's bit depth and chroma)"
        )
    }

    deinit {
        probe.remove()
        activityWatch.stop()
        _ = try? pipeline.setState(.null)
    }
}

extension FrameEncoder {
    /// Feeds the source's `frame` (its `bytes`) to the decoder. A frame shown before `keep`
    /// that no other frame refers to needs no decoding and is skipped (H.264 with
    /// `lengthSize`-byte length prefixes; nil: every frame is fed).
    func feed(_ frame: VideoFrame, bytes: [UInt8], isKeyframe: Bool, keep: Range<Int64>, lengthSize: Int?) throws {
        if frame.pts < keep.lowerBound, let lengthSize, AVCSamples.isDisposable(bytes, lengthSize: lengthSize) { return }
        guard var buffer = WritableBuffer(bytes: bytes) else { throw CamrecError.failed("out of memory") }
        buffer.pts = UInt64(max(0, frame.pts))
        buffer.dts = UInt64(max(0, frame.dts))
        buffer.duration = frame.duration > 0 ? UInt64(frame.duration) : nil
        buffer.isKeyframe = isKeyframe
        try push(buffer.finished())
    }
}

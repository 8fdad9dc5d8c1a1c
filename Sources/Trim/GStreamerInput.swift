import CamrecCore
import FoundationEssentials
import GStreamer
import MP4
import MediaValues

/// An input read through GStreamer's demuxers (`qtdemux`, `matroskademux`): Matroska,
/// fragmented or crash-interrupted MP4, and any trim that re-encodes everything or changes
/// the container. Its index comes from a demux-only pass (of the whole file, or of the
/// window a cut needs); its samples from one more pass in decode order (``DemuxedSamples``),
/// which ``GStreamerTrimWriter`` turns into the output.
struct GStreamerInput: TrimInput {
    let path: String
    let index: FrameIndex
    /// Whether the demuxer keeps the timestamps right after a seek. qtdemux 1.22 does not in
    /// a fragmented MP4 (MediaRecorder, OBS, ffmpeg's `frag_keyframe`): a seek into its first
    /// fragment shifts every frame by the first one's composition offset, so that a seek
    /// lands on the wrong frame without noticing. Such a file is read from its start.
    var seeks = true
    /// Where a Matroska input's indexed frames lie (when indexed from its blocks): what lets
    /// ``MatroskaCopyWriter`` copy them without a demuxer.
    var matroska: MatroskaFrameBlocks?

    /// Indexes `path`: only the part that a cut of `window` (presentation times counted
    /// from the start) needs when one is given and that part can be trusted, else the whole file.
    ///
    /// - Throws: ``CamrecError`` (invalid input) for anything that is not a movie with video;
    ///   `stalled` or `interrupted` as ``TrimControl`` decides.
    static func open(
        path: String, window: (start: Int64, end: Int64)?, control: TrimControl
    ) throws(CamrecError) -> GStreamerInput {
        let seeks = !isFragmented(path: path)
        // AVI's presentation times are derived from the whole stream's frame order.
        let whole = (try? MediaContainer.identify(path: path)) == .avi
        if let window, seeks, !whole {
            do {
                if let index = try indexWindow(path: path, start: window.start, end: window.end, control: control) {
                    return GStreamerInput(path: path, index: index, seeks: seeks)
                }
            } catch where error.kind == .stalled || error.kind == .interrupted {
                throw error
            } catch {
                // Index the whole file instead.
            }
        }
        return GStreamerInput(path: path, index: try indexWholeFile(path: path, control: control), seeks: seeks)
    }

    /// Whether `path` is an MP4/MOV with movie fragments (a `moof` box, or movie extends in
    /// its `moov`). Reads only the top-level box headers (and a small `moov`).
    static func isFragmented(path: String) -> Bool {
        guard let file = try? SampleFile(path: path), let boxes = try? Box.topLevel(in: file) else { return false }
        if boxes.contains(where: { $0.type == "moof" }) { return true }
        guard let moov = boxes.first(where: { $0.type == "moov" }), moov.end - moov.start < 1 << 26,
              let bytes = try? file.read(offset: UInt64(moov.start), count: moov.end - moov.start),
              let children = Box.children(of: bytes, in: (moov.payloadStart - moov.start)..<bytes.count)
        else { return false }
        return children.contains { $0.type == "mvex" }
    }

    /// The caps of the first video stream of `path` as its demuxer gives them (it reads the
    /// headers and the first frame; nothing is decoded).
    static func probeVideoCaps(path: String, container: MediaContainer, control: TrimControl) throws -> Caps? {
        let reader = try MovieReader(path: path, container: container, codec: nil, control: control)
        defer { reader.stop() }
        try reader.start(at: nil)
        return try reader.nextVideo()?.caps
    }

    /// The sample access: the video frames from decode index `first` on (whole access
    /// units, through `codec`'s parser) and the packets of `streams` (demuxer pad names),
    /// read from `lead` nanoseconds before that frame (see ``DemuxedSamples``).
    func samples(
        from first: Int, codec: TrimCodec, streams: [String], lead: Int64 = 0, control: TrimControl
    ) throws -> DemuxedSamples {
        try DemuxedSamples(input: self, from: first, codec: codec, streams: streams, lead: lead, control: control)
    }
}

// MARK: From the demuxer's buffers to an index (both passes)

extension GStreamerInput {
    /// Frames from buffer timings; missing durations come from the next frame in
    /// presentation order (the last one repeats the one before).
    static func frames(_ timings: [BufferTiming], idr: [Bool]) -> [VideoFrame] {
        var frames: [VideoFrame] = timings.indices.compactMap { index in
            let timing = timings[index]
            guard let pts = timing.pts ?? timing.dts else { return nil }
            return VideoFrame(
                pts: Int64(pts), dts: timing.dts.map(Int64.init), duration: Int64(timing.duration ?? 0),
                isKeyframe: timing.isKeyframe, isIDR: index < idr.count ? idr[index] : timing.isKeyframe
            )
        }
        let order = frames.indices.sorted { frames[$0].pts < frames[$1].pts }
        let decodeTimesRise = zip(frames, frames.dropFirst()).allSatisfy { $0.dts < $1.dts }
        if !decodeTimesRise || timings.contains(where: { $0.dts == nil }) {
            // Matroska stores no DTS: derive them from the sorted PTS, delayed just enough
            // that no frame is decoded after it is shown.
            let sorted = order.map { frames[$0].pts }
            let delay = frames.indices.map { sorted[$0] - frames[$0].pts }.max() ?? 0
            for index in frames.indices { frames[index].dts = sorted[index] - max(0, delay) }
        }
        for (position, index) in order.enumerated() where frames[index].duration <= 0 {
            if position + 1 < order.count {
                frames[index].duration = frames[order[position + 1]].pts - frames[index].pts
            } else if position > 0 {
                frames[index].duration = frames[index].pts - frames[order[position - 1]].pts
            }
        }
        return frames
    }

    /// Buffer time minus presentation time under a demuxer pad's segment. Matroska has no
    /// edit lists: its buffer times are the presentation times (and after a seek
    /// matroskademux's segment time is that of the cluster, not of the seek target).
    static func presentationOffset(_ segment: SegmentTimes?, container: MediaContainer) -> Int64 {
        guard container != .matroska, let segment else { return 0 }
        return Int64(segment.start) - Int64(segment.time)
    }
}

/// Tells the IDR keyframes of one demuxed video stream from its other keyframes (an
/// open-GOP I-frame is a keyframe but no IDR picture); outside H.264 every keyframe counts.
struct DemuxedKeyframes: Sendable {
    private let isH264: Bool
    private let lengthSize: Int

    /// For the stream with these caps (its `codec_data` gives the NAL length size).
    init(caps: Caps?) {
        isH264 = caps?.mediaType == "video/x-h264"
        lengthSize = caps?.bytes("codec_data").flatMap(H264Bitstream.lengthSize) ?? 4
    }

    /// Whether a buffer is an IDR keyframe; `withBytes` runs a reader over its bytes.
    func isIDR(_ timing: BufferTiming, withBytes: ((UnsafeRawBufferPointer) -> Bool) -> Bool?) -> Bool {
        guard isH264, timing.isKeyframe else { return timing.isKeyframe }
        return withBytes { H264Bitstream.isIDR($0, lengthSize: lengthSize) } ?? false
    }
}

extension CamrecError {
    /// Maps a GStreamer failure while reading an input to an invalid-input error, keeping
    /// missing plugins apart.
    static func from(_ error: GStreamerError, reading name: String) -> CamrecError {
        switch error {
        case .missingElement: CamrecError(.unavailable, error.namingPackage.description)
        case .element(let failure): .invalidInput("cannot read \(name): \(failure.message)")
        default: .invalidInput("cannot read \(name): \(error.description)")
        }
    }
}

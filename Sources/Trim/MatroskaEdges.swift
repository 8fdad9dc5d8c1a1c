import CamrecCore
import GStreamer
import MP4
import Matroska

/// The re-encoded head and tail of a Matroska cut made by ``MatroskaCopyWriter``: one
/// ``FrameEncoder`` per encode part, fed the frames' bytes read from the input's blocks
/// (no demuxer), all started before any is drained so that they encode at the same time.
/// H.264 frames come back length-prefixed, their parameter sets merged into the track's
/// codec data under ids the source does not use (as ``MP4TrimWriter`` does).
struct MatroskaEdges {
    /// A re-encoded frame as a block holds it.
    struct Frame {
        var bytes: [UInt8]
        var isKeyframe: Bool
    }

    private var running: [(encoder: FrameEncoder, positions: Range<Int>)] = []
    /// The re-encoded frames by their place in the output timeline (filled by ``finish()``).
    private(set) var frames: [Int: Frame] = [:]
    private let lengthSize: Int?
    private let codecData: [UInt8]?

    init(writer: MatroskaCopyWriter, timeline: OutputTimeline) throws {
        let job = writer.job
        let index = writer.index
        codecData = index.codecData
        lengthSize = job.codec.edgeEncoder == .x264 ? index.codecData.flatMap(H264Bitstream.lengthSize(avcC:)) : nil
        guard job.plan.encodes, let encoding = job.encoding else { return }
        let caps = try Caps(index.videoCaps)
        var used = H264ParameterSets(avcC: index.codecData ?? []).map(\.usedIDs) ?? []
        guard var reader = WindowedFile(path: writer.input.path) else {
            throw MatroskaCopyWriter.Unsupported(reason: "the input cannot be reopened")
        }
        for (partIndex, part) in job.plan.parts.enumerated() {
            guard case .encode(let feed, let keep) = part else { continue }
            let id = H264ParameterSets.freeID(avoiding: used)
            used.insert(id)
            let encoder = try FrameEncoder(
                codec: job.codec, inputCaps: caps, keep: keep, encoding: encoding, parameterSetID: id, effort: .edges,
                control: job.control
            )
            for decodeIndex in feed {
                try job.control.checkCancelled()
                let frame = index.video[decodeIndex]
                let payload = writer.layout.blocks[decodeIndex].payload
                let bytes = Array(reader.read(at: payload.lowerBound, count: payload.count))
                guard bytes.count == payload.count else { throw CamrecError.failed("cannot read a frame of the input") }
                try encoder.feed(frame, bytes: bytes, isKeyframe: frame.isKeyframe, keep: keep, lengthSize: lengthSize)
            }
            encoder.finish()
            running.append((encoder, timeline.parts[partIndex]))
        }
    }

    /// Waits for every encoder and keeps its frames; returns the H.264 track's new codec
    /// data (the source's with the edges' parameter sets), nil when it stays as it is.
    mutating func finish() throws -> [UInt8]? {
        var extra = H264ParameterSets()
        for part in running {
            let buffers = try part.encoder.remaining()
            guard buffers.count == part.positions.count else {
                throw CamrecError.failed("the re-encoder returned \(buffers.count) of \(part.positions.count) frames")
            }
            // The encoder returns its frames in presentation order, as the timeline lists them.
            for (position, buffer) in zip(part.positions, buffers) {
                guard let lengthSize else {
                    frames[position] = Frame(bytes: buffer.bytes, isKeyframe: buffer.isKeyframe)
                    continue
                }
                guard let converted = AVCSamples.sample(fromAnnexB: buffer.bytes, lengthSize: lengthSize) else {
                    throw CamrecError.failed("a re-encoded frame is too large for the input's NAL length field")
                }
                let isIDR = converted.sample.withUnsafeBytes { H264Bitstream.isIDR($0, lengthSize: lengthSize) }
                frames[position] = Frame(bytes: converted.sample, isKeyframe: isIDR)
                extra.sequenceSets += converted.sets.sequenceSets.filter { !extra.sequenceSets.contains($0) }
                extra.pictureSets += converted.sets.pictureSets.filter { !extra.pictureSets.contains($0) }
            }
        }
        running = []
        guard lengthSize != nil, !extra.sequenceSets.isEmpty || !extra.pictureSets.isEmpty else { return nil }
        guard let codecData, let merged = AVCSamples.merging(extra, into: codecData) else {
            throw CamrecError.failed("cannot combine the re-encoded frames' parameter sets with the input's")
        }
        return merged
    }
}

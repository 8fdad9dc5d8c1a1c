import CamrecCore
import MP4
import Matroska

/// The copy of a Matroska cut's blocks, for ``MatroskaCopyWriter``: one read of the input's
/// clusters from a little before the cut (a cue before its first frame) to just past its
/// end, in file order, each block taken or skipped from its header alone. Copied video
/// frames and sound packets keep their bytes (their timecode moves to the new cluster's);
/// subtitle cues are shortened to the cut (``CuePlacer``); the re-encoded edge frames are
/// put in between, in the output timeline's order, before any block shown after them.
/// A new cluster starts at each video keyframe (each gets a cue point), or when one is
/// full or its 16-bit block timecodes would overflow.
struct MatroskaBlockWalk {
    let writer: MatroskaCopyWriter
    let source: MatroskaSource
    let timeline: OutputTimeline
    let edges: [Int: MatroskaEdges.Frame]
    let file: MatroskaFileWriter

    /// The sound and subtitle tracks kept, by track number.
    private var placers: [UInt64: StreamCopier.Placer] = [:]
    /// Blocks written per sound or subtitle track.
    private(set) var packets: [UInt64: Int] = [:]
    private(set) var videoFrames = 0
    /// The cue points written: a cluster that starts on a video keyframe (ticks, file offset).
    private(set) var cues: [(time: Int64, cluster: UInt64)] = []

    private let scale: Int64
    private let videoTrack: UInt64
    private let copy: (part: Int, frames: ClosedRange<Int>)?
    /// The next output position to write, and the next indexed block the walk will meet.
    private var next = 0
    private var nextDecode = 0
    private var clusterTime: Int64 = 0
    private var clusterBody: [UInt8] = []
    private var clusterStartsOnKeyframe = false

    init(
        writer: MatroskaCopyWriter, source: MatroskaSource, kept: [MatroskaSource.Track], timeline: OutputTimeline,
        edges: [Int: MatroskaEdges.Frame], file: MatroskaFileWriter
    ) {
        self.writer = writer
        self.source = source
        self.timeline = timeline
        self.edges = edges
        self.file = file
        scale = Int64(clamping: source.timestampScale)
        videoTrack = writer.layout.videoTrack
        for track in kept where track.number != videoTrack {
            placers[track.number] = track.type == 2
                ? .audio(AudioPlacer(window: timeline.audio)) : .cues(CuePlacer(window: timeline.audio))
        }
        var copied: (part: Int, frames: ClosedRange<Int>)?
        for (position, part) in writer.plan.parts.enumerated() {
            if copied == nil, case .copy(let frames) = part { copied = (position, frames) }
        }
        copy = copied
        clusterBody.reserveCapacity(1 << 20)
    }

    mutating func run() throws {
        if writer.plan.parts.filter({ if case .copy = $0 { true } else { false } }).count > 1 {
            throw MatroskaCopyWriter.Unsupported(reason: "more than one copied part")
        }
        let blocks = writer.layout.blocks
        let first = blocks[writer.plan.readFrom]
        let subtitles = placers.values.contains { if case .cues = $0 { true } else { false } }
        // Sound packets just before the first frame may sit in the cluster before; a cue
        // shown across the first frame may have started seconds before.
        let lead = subtitles ? StreamCopier.subtitleLead : 1_000_000_000
        // Without a cue point that early, from the first one (the cut starts near the file's start).
        let early = source.cues.last { $0.time <= first.pts - lead } ?? source.cues.first
        let start = min(early?.cluster ?? first.cluster, first.cluster)
        guard var reader = WindowedFile(path: writer.input.path) else {
            throw MatroskaCopyWriter.Unsupported(reason: "the input cannot be reopened")
        }
        reader.windowSize = 4 << 20
        var offset = start
        walking: while offset < source.segmentEnd {
            guard let element = reader.element(at: offset) else { break }
            guard let end = element.end else { throw MatroskaCopyWriter.Unsupported(reason: "a cluster of unknown size") }
            offset = end
            guard element.id == EBML.ID.cluster else { continue }
            try writer.job.control.checkCancelled()
            var clusterTicks: Int64 = 0
            var child = element.body
            let clusterEnd = min(end, source.segmentEnd)
            while child < clusterEnd {
                // A block cut short by the end of the file ends the input.
                guard let item = reader.element(at: child), let itemEnd = item.end, itemEnd <= clusterEnd else {
                    break walking
                }
                switch item.id {
                case EBML.ID.clusterTimestamp:
                    guard let value = reader.unsigned(item) else { throw MatroskaCopyWriter.Unsupported(reason: "a broken cluster") }
                    clusterTicks = Int64(clamping: value)
                case EBML.ID.simpleBlock, EBML.ID.blockGroup:
                    if try take(item, end: itemEnd, clusterTicks: clusterTicks, reader: &reader) { break walking }
                default:
                    break
                }
                child = itemEnd
            }
            let written = min(timeline.end, clusterTime * scale)
            writer.job.control.report(TrimProgress(phase: .writing, done: max(0, written), total: timeline.end))
        }
        try emitEdges(until: nil)
        try closeCluster()
        guard next == timeline.frames.count else {
            throw CamrecError.failed("the input ended before the cut's last frame (\(next) of \(timeline.frames.count) written)")
        }
    }

    /// Takes or skips one block (a `SimpleBlock` or a `BlockGroup`); returns whether the walk is done.
    private mutating func take(
        _ item: EBML.Element, end: UInt64, clusterTicks: Int64, reader: inout WindowedFile
    ) throws -> Bool {
        var block = item
        var duration: UInt64?
        var referenced = false
        if item.id == EBML.ID.blockGroup {
            let group = reader.blockGroup(item)
            guard let found = group.block else { return false }
            (block, duration, referenced) = (found, group.duration, group.referenced)
        }
        guard let blockEnd = block.end, let head = reader.blockHeader(at: block.body, end: blockEnd) else {
            throw MatroskaCopyWriter.Unsupported(reason: "a broken block")
        }
        let track = head.track
        let time = (clusterTicks + head.relativeTime) * scale
        let timecodeAt = Int(block.body - item.start) + head.trackLength
        let payloadStart = block.body + UInt64(head.length)
        if track == videoTrack {
            let keyframe = item.id == EBML.ID.simpleBlock ? head.isKeyframe : !referenced
            try takeVideo(item, end: end, timecodeAt: timecodeAt, payloadStart: payloadStart, keyframe: keyframe, reader: &reader)
            return isDone(at: time)
        }
        guard let placer = placers[track] else { return isDone(at: time) }
        guard !head.isLaced else { throw MatroskaCopyWriter.Unsupported(reason: "laced blocks") }
        switch placer {
        case .audio(var audio):
            let placed = audio.place(time)
            placers[track] = .audio(audio)
            if let placed {
                try emitEdges(until: placed)
                try add(reader.bytes(at: item.start, count: Int(end - item.start)), timecodeAt: timecodeAt, ticks: placed / scale)
                packets[track, default: 0] += 1
            }
        case .cues(var cues):
            let placed = cues.place(time, duration: Int64(clamping: duration ?? 0) * scale)
            placers[track] = .cues(cues)
            if let placed {
                try emitEdges(until: placed.pts)
                // The block in a group of its own, with its (shortened) duration.
                let blockBytes = Array(reader.bytes(at: block.start, count: Int(blockEnd - block.start)))
                let durationBytes = placed.duration > 0 ? EBML.unsigned(EBML.ID.blockDuration, UInt64(placed.duration / scale)) : []
                let group = EBML.element(EBML.ID.blockGroup, blockBytes + durationBytes)
                let at = group.count - durationBytes.count - blockBytes.count + Int(block.body - block.start) + head.trackLength
                try add(group, timecodeAt: at, ticks: placed.pts / scale)
                packets[track, default: 0] += 1
            }
        }
        return isDone(at: time)
    }

    /// A video block: copied when the plan copies it, else skipped (an edge's source frame,
    /// or a frame before or after the cut).
    private mutating func takeVideo(
        _ item: EBML.Element, end: UInt64, timecodeAt: Int, payloadStart: UInt64, keyframe: Bool,
        reader: inout WindowedFile
    ) throws {
        let blocks = writer.layout.blocks
        guard nextDecode < blocks.count else { return }
        guard payloadStart == blocks[nextDecode].payload.lowerBound else {
            // Before the indexed window: not part of the cut.
            if nextDecode == 0, payloadStart < blocks[0].payload.lowerBound { return }
            throw MatroskaCopyWriter.Unsupported(reason: "the blocks are not where the index found them")
        }
        let decodeIndex = nextDecode
        nextDecode += 1
        guard let copy, copy.frames.contains(decodeIndex) else { return }
        let position = timeline.position(ofCopied: decodeIndex, inPart: copy.part)
        while next < position { try emitEdge() }
        guard next == position else { throw CamrecError.failed("a copied frame came out of order") }
        try add(
            reader.bytes(at: item.start, count: Int(end - item.start)), timecodeAt: timecodeAt,
            ticks: timeline.frames[position].pts / scale, keyframe: keyframe
        )
        next += 1
        videoFrames += 1
    }

    /// Whether everything the cut needs has been read: the copied frames, every sound track
    /// up to a packet past the end, and (subtitles being sparse) the blocks a second past it.
    private func isDone(at time: Int64) -> Bool {
        if let copy, nextDecode <= copy.frames.upperBound { return false }
        var subtitlesDone = true
        for placer in placers.values {
            switch placer {
            case .audio(let audio): if !audio.isFinished { return false }
            case .cues(let cues): subtitlesDone = subtitlesDone && cues.isFinished
            }
        }
        return subtitlesDone || time >= timeline.audio.end + 1_000_000_000
    }

    // MARK: Edges and clusters

    /// Writes the re-encoded frames due: those at the next output positions shown at or
    /// before `time` (nil: all that are left).
    private mutating func emitEdges(until time: Int64?) throws {
        while next < timeline.frames.count, !timeline.frames[next].isCopied,
              time.map({ timeline.frames[next].pts <= $0 }) ?? true {
            try emitEdge()
        }
    }

    private mutating func emitEdge() throws {
        guard !timeline.frames[next].isCopied, let frame = edges[next] else {
            throw CamrecError.failed("frame \(next) of the cut was not written in order")
        }
        let header = EBML.trackField(videoTrack) + [0, 0, frame.isKeyframe ? 0x80 : 0]
        let element = EBML.element(EBML.ID.simpleBlock, header + frame.bytes)
        let at = element.count - frame.bytes.count - 3
        try add(element, timecodeAt: at, ticks: timeline.frames[next].pts / scale, keyframe: frame.isKeyframe)
        next += 1
        videoFrames += 1
    }

    /// Appends a block's bytes to the current cluster (or a new one), its timecode set.
    private mutating func add(
        _ bytes: some Collection<UInt8>, timecodeAt: Int, ticks: Int64, keyframe: Bool = false
    ) throws {
        var relative = ticks - clusterTime
        if clusterBody.isEmpty || keyframe || relative < -32768 || relative > 32767
            || clusterBody.count + bytes.count > MatroskaFileWriter.clusterLimit {
            try closeCluster()
            clusterTime = max(0, ticks)
            clusterStartsOnKeyframe = keyframe
            relative = ticks - clusterTime
        }
        let at = clusterBody.count
        clusterBody.append(contentsOf: bytes)
        let value = UInt16(bitPattern: Int16(clamping: relative))
        clusterBody[at + timecodeAt] = UInt8(value >> 8)
        clusterBody[at + timecodeAt + 1] = UInt8(value & 0xFF)
    }

    private mutating func closeCluster() throws {
        guard !clusterBody.isEmpty else { return }
        let at = try file.appendCluster(time: clusterTime, blocks: clusterBody)
        if clusterStartsOnKeyframe { cues.append((clusterTime, at)) }
        clusterBody.removeAll(keepingCapacity: true)
    }
}

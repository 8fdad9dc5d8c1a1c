import GStreamer
import MP4
import Matroska

/// A Matroska input's video frames read straight from its clusters' block headers, without
/// a demuxing pass: the Cues (or, without them, the clusters' own headers) lead to the
/// cluster where a cut starts, and only the clusters from there to the end of the cut are
/// read, as the MP4 path reads its sample tables. The end of the video (which negative
/// times count back from) comes from the last clusters, found through the Cues or by a
/// bounded scan back from the end of the file.
///
/// Anything it does not expect (laced video, a cluster of unknown size where it must skip
/// one, a broken element) makes it give up: the trim then indexes through the demuxer.
struct MatroskaBlockIndex {
    /// What reading a window cost: how the tests see that the Cues were used.
    struct Cost: Sendable, Equatable {
        /// Bytes read from the file.
        var bytesRead: UInt64 = 0
        /// Clusters whose blocks were read.
        var clustersRead = 0
        /// Whether the start was found through the Cues.
        var usedCues = false
        /// Whether the end of the video was found from the file's last clusters.
        var readVideoEnd = false
    }

    /// The facts of the file header the walk needs.
    struct Header: Equatable {
        var timestampScale: UInt64 = 1_000_000
        var segmentBody: UInt64 = 0
        var segmentEnd: UInt64 = 0
        var videoTrack: UInt64 = 0
        var defaultDuration: UInt64?
        var cuesPosition: UInt64?
        var firstCluster: UInt64?
    }

    /// One video block: its times in nanoseconds (buffer times, as matroskademux gives them).
    struct Block: Equatable {
        var pts: Int64
        var duration: Int64?
        var isKeyframe: Bool
        var isIDR: Bool
        /// Where its cluster starts in the file, and where its frame's bytes lie.
        var cluster: UInt64 = 0
        var payload: Range<UInt64> = 0..<0
    }

    /// A cue point of the video track: its time (nanoseconds) and its cluster's offset in the file.
    struct Cue: Equatable {
        var time: Int64
        var cluster: UInt64
    }

    private var reader: WindowedFile
    let header: Header
    /// Tells IDR keyframes from other keyframes (H.264 open GOPs), as the demuxing pass does.
    private let keyframes: DemuxedKeyframes

    /// Opens `path` and reads its header; nil when it is not a Matroska file this reader
    /// understands (it then goes through the demuxer).
    init?(path: String, videoCaps: Caps?) {
        guard let reader = WindowedFile(path: path) else { return nil }
        self.reader = reader
        guard let header = Self.readHeader(&self.reader) else { return nil }
        self.header = header
        keyframes = DemuxedKeyframes(caps: videoCaps)
    }

    /// What has been read so far.
    var bytesRead: UInt64 { reader.bytesRead }

    // MARK: Windows

    /// The video frames a cut of `[start, end)` (buffer times) needs, as the demuxing window
    /// index lists them: from the IDR keyframe at or before `start` to 20 frames past `end`
    /// (or the end of the movie). Nil when no such keyframe is found or the file is not as expected.
    mutating func window(start: Int64, end: Int64, cost: inout Cost) -> [Block]? {
        let cues = readCues()
        cost.usedCues = !(cues?.isEmpty ?? true)
        var candidates: [UInt64]
        if let cues, !cues.isEmpty {
            // Newest first: the cluster of the last cue at or before the start, then earlier ones.
            candidates = cues.filter { $0.time <= start }.map(\.cluster).reversed()
        } else {
            guard let clusters = clusterStarts(until: start) else { return nil }
            candidates = clusters.reversed()
        }
        if let first = header.firstCluster, candidates.last != first { candidates.append(first) }
        for (tried, cluster) in candidates.enumerated() {
            // A start that needs more than a few GOPs back is better left to the demuxer.
            guard tried < 8 else { return nil }
            guard let blocks = blocks(from: cluster, until: end, cost: &cost) else { return nil }
            guard let opening = blocks.firstIndex(where: \.isKeyframe) else { continue }
            let window = Array(blocks[opening...])
            guard window.contains(where: { $0.pts >= start }) else { return nil }
            if let first = window.first, first.isIDR, first.pts <= start { return window }
        }
        return nil
    }

    /// The end of the video (the last frame's end, nanoseconds on the buffer timeline), from
    /// the clusters of the last cue on, or found by a scan back from the end of the file.
    mutating func videoEnd(cost: inout Cost) -> Int64? {
        var start = readCues()?.last?.cluster
        if start == nil { start = lastClusterByScan() }
        guard let start, let blocks = blocks(from: start, until: nil, cost: &cost), !blocks.isEmpty else { return nil }
        cost.readVideoEnd = true
        let frames = GStreamerInput.frames(blocks.map(\.timing), idr: blocks.map(\.isIDR))
        return frames.map { $0.pts + $0.duration }.max()
    }

    /// The first video frame's time (the first cluster's first video block).
    mutating func firstVideoTime(cost: inout Cost) -> Int64? {
        guard let first = header.firstCluster else { return nil }
        return blocks(from: first, until: Int64.min, cost: &cost)?.first?.pts
    }

    /// The number of video blocks in the whole file (a check of a written file).
    mutating func videoFrameCount() -> Int? {
        guard let first = header.firstCluster else { return nil }
        var cost = Cost()
        return blocks(from: first, until: nil, cost: &cost)?.count
    }

    // MARK: Header and Cues

    private static func readHeader(_ reader: inout WindowedFile) -> Header? {
        guard let segment = reader.segment() else { return nil }
        var header = Header()
        header.segmentBody = segment.body
        header.segmentEnd = min(segment.end ?? reader.size, reader.size)
        var offset = segment.body
        var videoFound = false
        while offset < header.segmentEnd, let element = reader.element(at: offset) {
            if element.id == EBML.ID.cluster {
                header.firstCluster = element.start
                break
            }
            guard let end = element.end, end <= header.segmentEnd else { return nil }
            switch element.id {
            case EBML.ID.seekHead:
                for (target, position) in reader.seekEntries(of: element) where target == EBML.ID.cues {
                    header.cuesPosition = segment.body + position
                }
            case EBML.ID.info:
                for child in reader.children(of: element) where child.id == EBML.ID.timestampScale {
                    if let scale = reader.unsigned(child), scale > 0 { header.timestampScale = scale }
                }
            case EBML.ID.tracks:
                for entry in reader.children(of: element) where entry.id == EBML.ID.trackEntry && !videoFound {
                    var number: UInt64 = 0
                    var type: UInt64 = 0
                    var duration: UInt64?
                    for child in reader.children(of: entry) {
                        switch child.id {
                        case EBML.ID.trackNumber: number = reader.unsigned(child) ?? 0
                        case EBML.ID.trackType: type = reader.unsigned(child) ?? 0
                        case EBML.ID.defaultDuration: duration = reader.unsigned(child)
                        default: break
                        }
                    }
                    if type == 1, number > 0 {
                        header.videoTrack = number
                        header.defaultDuration = duration
                        videoFound = true
                    }
                }
            case EBML.ID.cues:
                header.cuesPosition = element.start
            default:
                break
            }
            offset = end
        }
        guard videoFound, header.firstCluster != nil else { return nil }
        return header
    }

    /// The video track's cue points in time order; nil without Cues (or unreadable ones).
    private mutating func readCues() -> [Cue]? {
        guard let position = header.cuesPosition, let cues = reader.element(at: position), cues.id == EBML.ID.cues,
              let size = cues.size, size < 64 << 20
        else { return nil }
        reader.windowSize = Int(min(size + 16, 1 << 20))
        defer { reader.windowSize = WindowedFile.defaultWindow }
        var points: [Cue] = []
        for point in reader.children(of: cues) where point.id == EBML.ID.cuePoint {
            var time: UInt64?
            var cluster: UInt64?
            for child in reader.children(of: point) {
                if child.id == EBML.ID.cueTime {
                    time = reader.unsigned(child)
                } else if child.id == EBML.ID.cueTrackPositions {
                    var track: UInt64?
                    var position: UInt64?
                    for inner in reader.children(of: child) {
                        if inner.id == EBML.ID.cueTrack { track = reader.unsigned(inner) }
                        if inner.id == EBML.ID.cueClusterPosition { position = reader.unsigned(inner) }
                    }
                    if track == header.videoTrack, let position { cluster = header.segmentBody + position }
                }
            }
            if let time, let cluster {
                points.append(Cue(time: Int64(clamping: time.multipliedReportingOverflow(by: header.timestampScale).partialValue), cluster: cluster))
            }
        }
        return points.sorted { $0.time < $1.time }
    }

    // MARK: Clusters

    /// The offsets of the clusters whose timestamp is at or before `time`, read by hopping
    /// from one cluster header to the next (a cluster of unknown size cannot be hopped over: nil).
    private mutating func clusterStarts(until time: Int64) -> [UInt64]? {
        guard var offset = header.firstCluster else { return nil }
        reader.windowSize = 64
        defer { reader.windowSize = WindowedFile.defaultWindow }
        var starts: [UInt64] = []
        while offset < header.segmentEnd, let cluster = reader.element(at: offset) {
            guard let end = cluster.end else { return nil }
            if cluster.id == EBML.ID.cluster {
                guard let stamp = timestampElement(of: cluster), let value = reader.unsigned(stamp) else { return nil }
                guard Int64(clamping: value) * Int64(header.timestampScale) <= time else { break }
                starts.append(cluster.start)
            }
            offset = end
        }
        return starts
    }

    /// The start of the last cluster, found by scanning back from the end of the file for a
    /// cluster that parses up to the end (up to 64 MB back).
    private mutating func lastClusterByScan() -> UInt64? {
        let pattern = EBML.idBytes(EBML.ID.cluster)
        var span: UInt64 = 256 << 10
        while true {
            let from = header.segmentEnd > span ? header.segmentEnd - span : header.segmentBody
            let tail = reader.read(at: from, count: Int(header.segmentEnd - from))
            var index = tail.count - pattern.count
            var last: UInt64?
            while index >= 0 {
                if tail[tail.startIndex + index] == pattern[0], Array(tail[(tail.startIndex + index)..<(tail.startIndex + index + 4)]) == pattern,
                   isCluster(at: from + UInt64(index)) {
                    last = from + UInt64(index)
                    break
                }
                index -= 1
            }
            if let last { return last }
            guard from > header.segmentBody, span < 64 << 20 else { return nil }
            span *= 4
        }
    }

    /// Whether a cluster starts at `offset`: its header parses, its first child is its
    /// timestamp, and its children parse up to its end (or the end of the file).
    private mutating func isCluster(at offset: UInt64) -> Bool {
        guard let cluster = reader.element(at: offset), cluster.id == EBML.ID.cluster,
              let stamp = timestampElement(of: cluster), stamp.size ?? 9 <= 8
        else { return false }
        let end = min(cluster.end ?? header.segmentEnd, header.segmentEnd)
        var child = cluster.body
        while child < end {
            guard let element = reader.element(at: child), let childEnd = element.end else { return false }
            if cluster.size == nil, EBML.ID.topLevel.contains(element.id) { return true }
            guard childEnd <= end else { return false }
            child = childEnd
        }
        return child == end
    }

    /// A cluster's timestamp element: its first child, after a CRC-32 or Void element
    /// (ffmpeg writes a CRC-32 first when it cannot seek back, as to a pipe).
    private mutating func timestampElement(of cluster: EBML.Element) -> EBML.Element? {
        var offset = cluster.body
        for _ in 0..<3 {
            guard let child = reader.element(at: offset), let end = child.end else { return nil }
            if child.id == EBML.ID.clusterTimestamp { return child }
            guard child.id == EBML.ID.crc32 || child.id == EBML.ID.void else { return nil }
            offset = end
        }
        return nil
    }

    /// The video blocks in decode order from the cluster at `offset` on: up to 20 frames in
    /// a row whose times lie at or past `end` (nil: to the end of the file; `Int64.min`: the
    /// first video block only). Nil when the file is not as expected.
    private mutating func blocks(from offset: UInt64, until end: Int64?, cost: inout Cost) -> [Block]? {
        var blocks: [Block] = []
        var offset = offset
        var framesPastEnd = 0
        while offset < header.segmentEnd {
            guard let element = reader.element(at: offset) else { return blocks }
            guard element.id == EBML.ID.cluster else {
                // Cues, tags or chapters after the clusters: skip them.
                guard let skip = element.end, EBML.ID.topLevel.contains(element.id) || element.id == EBML.ID.void else {
                    return nil
                }
                offset = skip
                continue
            }
            cost.clustersRead += 1
            let clusterEnd = min(element.end ?? header.segmentEnd, header.segmentEnd)
            var child = element.body
            var clusterTime: Int64 = 0
            while child < clusterEnd {
                guard let item = reader.element(at: child) else { return blocks }
                if element.size == nil, EBML.ID.topLevel.contains(item.id) { break }
                guard let itemEnd = item.end else { return nil }
                // A block cut short by the end of the file (a movie still being written) ends the list.
                guard itemEnd <= clusterEnd else { return blocks }
                var found: Block?
                switch item.id {
                case EBML.ID.clusterTimestamp:
                    guard let value = reader.unsigned(item) else { return nil }
                    clusterTime = Int64(clamping: value)
                case EBML.ID.simpleBlock:
                    guard let block = block(body: item.body, end: itemEnd, clusterTime: clusterTime, duration: nil, keyframe: nil)
                    else { return nil }
                    found = block
                case EBML.ID.blockGroup:
                    guard let block = blockGroup(item, clusterTime: clusterTime) else { return nil }
                    found = block
                default:
                    break
                }
                if var found {
                    found.cluster = element.start
                    if end == Int64.min { return [found] }
                    if let end {
                        framesPastEnd = found.pts >= end ? framesPastEnd + 1 : 0
                        if framesPastEnd > 20 { return blocks }
                    }
                    blocks.append(found)
                }
                child = itemEnd
            }
            offset = child
        }
        return blocks
    }

    /// A block of a group: its block, with the group's duration and keyframe flag (no reference).
    private mutating func blockGroup(_ group: EBML.Element, clusterTime: Int64) -> Block?? {
        let (found, duration, referenced) = reader.blockGroup(group)
        guard let found, let blockEnd = found.end else { return .some(nil) }
        return block(body: found.body, end: blockEnd, clusterTime: clusterTime, duration: duration, keyframe: !referenced)
    }

    /// A block of the video track (`.some(nil)` for another track's); nil when it cannot be read.
    private mutating func block(
        body: UInt64, end: UInt64, clusterTime: Int64, duration: UInt64?, keyframe: Bool?
    ) -> Block?? {
        guard let head = reader.blockHeader(at: body, end: end) else { return nil }
        guard head.track == header.videoTrack else { return .some(nil) }
        // Laced video is left to the demuxer.
        guard !head.isLaced else { return nil }
        let scale = Int64(header.timestampScale)
        let pts = max(0, clusterTime &+ head.relativeTime) * scale
        let isKeyframe = keyframe ?? head.isKeyframe
        let payload = body + UInt64(head.length)
        let size = Int(end - payload)
        let timing = BufferTiming(
            pts: UInt64(pts), dts: nil, duration: duration.map { $0 * UInt64(scale) } ?? header.defaultDuration,
            isKeyframe: isKeyframe, size: size
        )
        var isIDR = isKeyframe
        if isKeyframe, size > 0 {
            let bytes = Array(reader.read(at: payload, count: size))
            isIDR = keyframes.isIDR(timing) { use in bytes.withUnsafeBytes { use($0) } }
        }
        let frameDuration = timing.duration.map { Int64(clamping: $0) }
        return .some(Block(
            pts: pts, duration: frameDuration, isKeyframe: isKeyframe, isIDR: isIDR, payload: payload..<end
        ))
    }
}

extension MatroskaBlockIndex.Block {
    /// As a demuxer buffer's timing (Matroska stores no decoding times).
    var timing: BufferTiming {
        BufferTiming(pts: UInt64(pts), dts: nil, duration: duration.map { UInt64($0) }, isKeyframe: isKeyframe, size: 0)
    }
}

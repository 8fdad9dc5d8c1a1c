import Matroska
#if canImport(Glibc)
import Glibc
#endif

/// What a Matroska file that was never finalised holds of its video track: the blocks
/// that are complete on disk, and where the last of them ends.
///
/// matroskamux writes clusters one after another inside a segment whose size is unknown
/// until it finalises; a stop without finalising (an abort, a full disk) can leave the
/// last block cut short. Only the EBML elements needed to count video blocks are read:
/// Segment, Tracks (track number and type), Info (timestamp scale), Cluster (timestamp,
/// SimpleBlock, BlockGroup).
struct MatroskaScan {
    /// Complete video blocks.
    var frames: Int
    /// Time from the first video block to the last, in seconds (without the last frame's duration).
    var span: Double
    /// The byte offset just past the last complete element.
    var completeEnd: UInt64
    /// The size field of a cluster that the file ends inside (its declared size runs past
    /// the end): where it is and how many bytes it has, to be rewritten when the torn tail
    /// is cut off, so that readers do not look for the rest.
    var tornClusterSize: (offset: UInt64, length: Int, body: UInt64)?

    /// Cuts the file at `completeEnd` and shrinks a torn cluster's declared size to what
    /// is left of it. Returns false when the file could not be changed.
    func cutTornTail(of path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard ftruncate(descriptor, off_t(completeEnd)) == 0 else { return false }
        guard let torn = tornClusterSize, completeEnd >= torn.body else { return true }
        guard let bytes = EBML.sizeField(completeEnd - torn.body, length: torn.length) else { return false }
        return bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, bytes.count, off_t(torn.offset)) } == bytes.count
    }

    /// Scans the file at `path`; nil when it cannot be read or is not Matroska.
    static func scan(path: String) -> MatroskaScan? {
        guard let reader = WindowedFile(path: path) else { return nil }
        var scanner = Scanner(reader: reader)
        return scanner.run()
    }

    private struct Scanner {
        var reader: WindowedFile
        var videoTrack: UInt64?
        var scale: UInt64 = 1_000_000
        var frames = 0
        var first: Int64?
        var last: Int64 = 0
        var completeEnd: UInt64 = 0
        var tornClusterSize: (offset: UInt64, length: Int, body: UInt64)?

        init(reader: WindowedFile) { self.reader = reader }

        mutating func run() -> MatroskaScan? {
            let size = reader.size
            var offset: UInt64 = 0
            var sawSegment = false
            while let element = reader.element(at: offset) {
                if element.id == EBML.ID.segment {
                    sawSegment = true
                    segment(from: element.body, to: min(element.end ?? size, size))
                    break
                }
                guard let end = element.end, end <= size else { break }
                completeEnd = end
                offset = end
            }
            guard sawSegment else { return nil }
            let seconds = first.map { Double(last - $0) * Double(scale) / 1e9 } ?? 0
            return MatroskaScan(frames: frames, span: max(0, seconds), completeEnd: completeEnd,
                                tornClusterSize: tornClusterSize)
        }

        private mutating func segment(from start: UInt64, to end: UInt64) {
            var offset = start
            completeEnd = start
            while offset < end, let element = reader.element(at: offset) {
                if element.id == EBML.ID.cluster {
                    guard let next = cluster(element, limit: end) else { return }
                    offset = next
                    continue
                }
                guard let elementEnd = element.end, elementEnd <= end else { return }
                switch element.id {
                case EBML.ID.tracks:
                    readTracks(element)
                case EBML.ID.info:
                    if let value = child(EBML.ID.timestampScale, of: element) { scale = value }
                default:
                    break
                }
                completeEnd = elementEnd
                offset = elementEnd
            }
        }

        /// Counts the video blocks of one cluster; returns where the next element starts,
        /// or nil when the file ends inside it.
        private mutating func cluster(_ cluster: EBML.Element, limit: UInt64) -> UInt64? {
            let end = min(cluster.end ?? limit, limit)
            if let declaredEnd = cluster.end, declaredEnd > limit {
                tornClusterSize = (cluster.sizeOffset, cluster.sizeLength, cluster.body)
            }
            var offset = cluster.body
            var timestamp: Int64 = 0
            completeEnd = cluster.body
            while offset < end, let element = reader.element(at: offset) {
                if cluster.size == nil, EBML.ID.topLevel.contains(element.id) { return offset }
                guard let elementEnd = element.end, elementEnd <= end else { return nil }
                switch element.id {
                case EBML.ID.clusterTimestamp:
                    timestamp = Int64(clamping: reader.unsigned(element) ?? 0)
                case EBML.ID.simpleBlock:
                    countBlock(at: element.body, end: elementEnd, clusterTimestamp: timestamp)
                case EBML.ID.blockGroup:
                    if let block = reader.children(of: element).first(where: { $0.id == EBML.ID.block }), let blockEnd = block.end {
                        countBlock(at: block.body, end: blockEnd, clusterTimestamp: timestamp)
                    }
                default:
                    break
                }
                completeEnd = elementEnd
                offset = elementEnd
            }
            return cluster.end.map { $0 <= limit ? $0 : limit } ?? offset
        }

        private mutating func countBlock(at offset: UInt64, end: UInt64, clusterTimestamp: Int64) {
            guard let head = reader.blockHeader(at: offset, end: end), head.track == videoTrack else { return }
            let time = clusterTimestamp + head.relativeTime
            if first == nil { first = time }
            last = max(last, time)
            frames += 1
        }

        private mutating func readTracks(_ tracks: EBML.Element) {
            for entry in reader.children(of: tracks) where entry.id == EBML.ID.trackEntry {
                if child(EBML.ID.trackType, of: entry) == 1, videoTrack == nil {
                    videoTrack = child(EBML.ID.trackNumber, of: entry)
                }
            }
        }

        /// The unsigned value of the first child `id` of `element`.
        private mutating func child(_ id: UInt32, of element: EBML.Element) -> UInt64? {
            reader.children(of: element).first { $0.id == id }.flatMap { reader.unsigned($0) }
        }
    }
}

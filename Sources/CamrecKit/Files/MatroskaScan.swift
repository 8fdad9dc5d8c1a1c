import MP4
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
        let size = completeEnd - torn.body
        let bits = 7 * UInt64(torn.length)
        guard size < (1 << bits) - 1 else { return false }
        let field = size | (1 << bits)
        let bytes = (0..<torn.length).map { UInt8(truncatingIfNeeded: field >> (8 * UInt64(torn.length - 1 - $0))) }
        return bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, bytes.count, off_t(torn.offset)) } == bytes.count
    }

    private enum ID {
        static let segment: UInt32 = 0x1853_8067
        static let info: UInt32 = 0x1549_A966
        static let timestampScale: UInt32 = 0x2A_D7B1
        static let tracks: UInt32 = 0x1654_AE6B
        static let trackEntry: UInt32 = 0xAE
        static let trackNumber: UInt32 = 0xD7
        static let trackType: UInt32 = 0x83
        static let cluster: UInt32 = 0x1F43_B675
        static let clusterTimestamp: UInt32 = 0xE7
        static let simpleBlock: UInt32 = 0xA3
        static let blockGroup: UInt32 = 0xA0
        static let block: UInt32 = 0xA1
        /// Level-1 elements: one of them ends a cluster of unknown size.
        static let topLevel: Set<UInt32> = [0x114D_9B74, info, tracks, cluster, 0x1C53_BB6B, 0x1941_A469, 0x1043_A770, 0x1254_C367]
    }

    /// Scans the file at `path`; nil when it cannot be read or is not Matroska.
    static func scan(path: String) -> MatroskaScan? {
        guard let file = try? SampleFile(path: path) else { return nil }
        var scanner = Scanner(file: file)
        return scanner.run()
    }

    /// An element header: its ID, where its body starts, and its size (nil: unknown).
    private struct Element {
        var id: UInt32
        var start: UInt64
        var sizeOffset: UInt64
        var body: UInt64
        var size: UInt64?
        var end: UInt64? { size.map { body + $0 } }
    }

    private struct Scanner {
        let file: SampleFile
        var videoTrack: UInt64?
        var scale: UInt64 = 1_000_000
        var frames = 0
        var first: Int64?
        var last: Int64 = 0
        var completeEnd: UInt64 = 0
        var tornClusterSize: (offset: UInt64, length: Int, body: UInt64)?

        init(file: SampleFile) { self.file = file }

        /// `count` bytes at `offset`, nil past the end of the file.
        private func read(offset: UInt64, count: Int) -> [UInt8]? {
            count == 0 ? [] : try? file.read(offset: offset, count: count)
        }

        mutating func run() -> MatroskaScan? {
            var offset: UInt64 = 0
            var sawSegment = false
            while let element = header(at: offset) {
                if element.id == ID.segment {
                    sawSegment = true
                    segment(from: element.body, to: min(element.end ?? file.size, file.size))
                    break
                }
                guard let end = element.end, end <= file.size else { break }
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
            while offset < end, let element = header(at: offset) {
                switch element.id {
                case ID.cluster:
                    guard let next = cluster(element, limit: end) else { return }
                    offset = next
                    continue
                case ID.tracks:
                    guard let elementEnd = element.end, elementEnd <= end else { return }
                    readTracks(from: element.body, to: elementEnd)
                case ID.info:
                    guard let elementEnd = element.end, elementEnd <= end else { return }
                    if let value = child(ID.timestampScale, from: element.body, to: elementEnd) { scale = value }
                default:
                    break
                }
                guard let elementEnd = element.end, elementEnd <= end else { return }
                completeEnd = elementEnd
                offset = elementEnd
            }
        }

        /// Counts the video blocks of one cluster; returns where the next element starts,
        /// or nil when the file ends inside it.
        private mutating func cluster(_ cluster: Element, limit: UInt64) -> UInt64? {
            let end = min(cluster.end ?? limit, limit)
            if let declaredEnd = cluster.end, declaredEnd > limit {
                tornClusterSize = (cluster.sizeOffset, Int(cluster.body - cluster.sizeOffset), cluster.body)
            }
            var offset = cluster.body
            var timestamp: Int64 = 0
            completeEnd = cluster.body
            while offset < end, let element = header(at: offset) {
                if cluster.size == nil, ID.topLevel.contains(element.id) { return offset }
                guard let elementEnd = element.end, elementEnd <= end else { return nil }
                switch element.id {
                case ID.clusterTimestamp:
                    timestamp = Int64(clamping: unsigned(from: element.body, count: Int(elementEnd - element.body)) ?? 0)
                case ID.simpleBlock:
                    countBlock(at: element.body, clusterTimestamp: timestamp)
                case ID.blockGroup:
                    if let block = find(ID.block, from: element.body, to: elementEnd) {
                        countBlock(at: block.body, clusterTimestamp: timestamp)
                    }
                default:
                    break
                }
                completeEnd = elementEnd
                offset = elementEnd
            }
            return cluster.end.map { $0 <= limit ? $0 : limit } ?? offset
        }

        private mutating func countBlock(at offset: UInt64, clusterTimestamp: Int64) {
            guard let bytes = read(offset: offset, count: 4), let (track, length) = Self.vint(bytes, 0),
                  track == videoTrack, length + 2 <= bytes.count else { return }
            let relative = Int64(Int16(bitPattern: UInt16(bytes[length]) << 8 | UInt16(bytes[length + 1])))
            let time = clusterTimestamp + relative
            if first == nil { first = time }
            last = max(last, time)
            frames += 1
        }

        private mutating func readTracks(from start: UInt64, to end: UInt64) {
            var offset = start
            while offset < end, let entry = header(at: offset), let entryEnd = entry.end, entryEnd <= end {
                if entry.id == ID.trackEntry, child(ID.trackType, from: entry.body, to: entryEnd) == 1,
                   videoTrack == nil {
                    videoTrack = child(ID.trackNumber, from: entry.body, to: entryEnd)
                }
                offset = entryEnd
            }
        }

        /// The unsigned value of the first child `id` in a range.
        private func child(_ id: UInt32, from start: UInt64, to end: UInt64) -> UInt64? {
            guard let element = find(id, from: start, to: end), let elementEnd = element.end else { return nil }
            return unsigned(from: element.body, count: Int(elementEnd - element.body))
        }

        private func find(_ id: UInt32, from start: UInt64, to end: UInt64) -> Element? {
            var offset = start
            while offset < end, let element = header(at: offset), let elementEnd = element.end, elementEnd <= end {
                if element.id == id { return element }
                offset = elementEnd
            }
            return nil
        }

        private func unsigned(from offset: UInt64, count: Int) -> UInt64? {
            guard count <= 8, let bytes = read(offset: offset, count: count) else { return nil }
            return bytes.reduce(0) { $0 << 8 | UInt64($1) }
        }

        /// The element header at `offset`, or nil when the file ends inside it.
        private func header(at offset: UInt64) -> Element? {
            guard offset < file.size, let bytes = read(offset: offset, count: Int(min(12, file.size - offset))),
                  let first = bytes.first, first != 0 else { return nil }
            let idLength = first.leadingZeroBitCount + 1
            guard idLength <= 4, idLength < bytes.count else { return nil }
            let id = bytes[0..<idLength].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard let (size, sizeLength) = Self.vint(bytes, idLength) else { return nil }
            let allOnes: UInt64 = (1 << (7 * UInt64(sizeLength))) - 1
            let body = offset + UInt64(idLength + sizeLength)
            return Element(id: id, start: offset, sizeOffset: offset + UInt64(idLength), body: body,
                           size: size == allOnes ? nil : size)
        }

        /// A variable-length integer (marker bit removed) at `index`, and its length.
        static func vint(_ bytes: [UInt8], _ index: Int) -> (UInt64, Int)? {
            guard index < bytes.count, bytes[index] != 0 else { return nil }
            let length = bytes[index].leadingZeroBitCount + 1
            guard index + length <= bytes.count else { return nil }
            var value = UInt64(bytes[index] & (0xFF >> length))
            for byte in bytes[(index + 1)..<(index + length)] { value = value << 8 | UInt64(byte) }
            return (value, length)
        }
    }
}

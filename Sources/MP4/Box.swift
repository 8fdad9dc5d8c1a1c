/// One box (atom) of an ISO base media file: its type and where its payload lies.
public struct Box: Sendable, Equatable {
    /// The four-character type, e.g. "moov".
    public var type: String
    /// Where the box starts (its size field), relative to the bytes or file it was read from.
    public var start: Int
    /// Where its payload starts (after size, type and any 64-bit size).
    public var payloadStart: Int
    /// Where the box ends.
    public var end: Int

    /// The payload's range.
    public var payload: Range<Int> { payloadStart..<end }

    /// The boxes laid out one after another in `range` of `bytes`; nil when a size is
    /// impossible (a truncated or corrupt box).
    public static func children(of bytes: [UInt8], in range: Range<Int>) -> [Box]? {
        var boxes: [Box] = []
        var reader = ByteReader(bytes, range: range)
        while reader.remaining >= 8 {
            let start = reader.offset
            guard let size32 = reader.uint32(), let type = reader.fourCC() else { return nil }
            var size = UInt64(size32)
            if size32 == 1 {
                guard let large = reader.uint64() else { return nil }
                size = large
            } else if size32 == 0 {
                size = UInt64(range.upperBound - start)
            }
            let headerSize = reader.offset - start
            guard size >= UInt64(headerSize), size <= UInt64(range.upperBound - start) else { return nil }
            let end = start + Int(size)
            boxes.append(Box(type: type, start: start, payloadStart: reader.offset, end: end))
            guard reader.skip(end - reader.offset) else { return nil }
        }
        return boxes
    }
}

extension Box {
    /// The top-level boxes of a file, with their offsets in it, read header by header
    /// (a large `mdat` is skipped, not read). Works on plain and fragmented movies alike;
    /// it stops at a box that runs past the end of the file (a torn tail).
    public static func topLevel(in file: SampleFile) throws(MP4Error) -> [Box] {
        try sequence(in: file, from: 0, to: file.size)
    }

    /// The boxes laid one after another from `start` to `end` of a file (the top level, or
    /// the inside of a box), read header by header; it stops at a box that runs past `end`.
    public static func sequence(in file: SampleFile, from start: UInt64, to end: UInt64) throws(MP4Error) -> [Box] {
        var boxes: [Box] = []
        var offset = start
        let end = min(end, file.size)
        while offset + 8 <= end {
            let header = try file.read(offset: offset, count: Int(min(16, end - offset)))
            var reader = ByteReader(header)
            guard let size32 = reader.uint32(), let type = reader.fourCC() else { break }
            var size = UInt64(size32)
            var headerSize: UInt64 = 8
            if size32 == 1 {
                guard let large = reader.uint64() else { break }
                size = large
                headerSize = 16
            } else if size32 == 0 {
                size = end - offset
            }
            // Compared without adding: a garbage 64-bit size must not overflow.
            guard size >= headerSize, size <= end - offset else { break }
            boxes.append(Box(type: type, start: Int(offset), payloadStart: Int(offset + headerSize), end: Int(offset + size)))
            offset += size
        }
        return boxes
    }
}

extension Array where Element == Box {
    /// The first box of a type.
    public func first(_ type: String) -> Box? { first { $0.type == type } }
}

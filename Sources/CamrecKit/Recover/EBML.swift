import MP4

/// EBML, the binary format of Matroska: element IDs, variable-length sizes, and the few
/// elements a recovery reads or writes.
enum EBML {
    /// The IDs used here.
    enum ID {
        static let header: UInt32 = 0x1A45_DFA3
        static let docType: UInt32 = 0x4282
        static let segment: UInt32 = 0x1853_8067
        static let seekHead: UInt32 = 0x114D_9B74
        static let seek: UInt32 = 0x4DBB
        static let seekID: UInt32 = 0x53AB
        static let seekPosition: UInt32 = 0x53AC
        static let info: UInt32 = 0x1549_A966
        static let timestampScale: UInt32 = 0x2A_D7B1
        static let duration: UInt32 = 0x4489
        static let tracks: UInt32 = 0x1654_AE6B
        static let trackEntry: UInt32 = 0xAE
        static let trackNumber: UInt32 = 0xD7
        static let trackType: UInt32 = 0x83
        static let codecID: UInt32 = 0x86
        static let defaultDuration: UInt32 = 0x23_E383
        static let cluster: UInt32 = 0x1F43_B675
        static let clusterTimestamp: UInt32 = 0xE7
        static let simpleBlock: UInt32 = 0xA3
        static let blockGroup: UInt32 = 0xA0
        static let block: UInt32 = 0xA1
        static let blockDuration: UInt32 = 0x9B
        static let referenceBlock: UInt32 = 0xFB
        static let cues: UInt32 = 0x1C53_BB6B
        static let cuePoint: UInt32 = 0xBB
        static let cueTime: UInt32 = 0xB3
        static let cueTrackPositions: UInt32 = 0xB7
        static let cueTrack: UInt32 = 0xF7
        static let cueClusterPosition: UInt32 = 0xF1
        static let void: UInt32 = 0xEC
        /// The elements that may sit directly in a segment: one of them ends a cluster of unknown size.
        static let topLevel: Set<UInt32> = [seekHead, info, tracks, cluster, cues, 0x1941_A469, 0x1043_A770, 0x1254_C367]
    }

    /// An element's header: its ID, where its size field and body are, and its size (nil: unknown).
    struct Element: Equatable {
        var id: UInt32
        var start: UInt64
        var sizeLength: Int
        var size: UInt64?

        var sizeOffset: UInt64 { body - UInt64(sizeLength) }
        var body: UInt64 { start + UInt64(idLength + sizeLength) }
        var end: UInt64? { size.map { body + $0 } }
        var idLength: Int { EBML.idBytes(id).count }
    }

    /// The element header at the start of `bytes` (read at `offset`), or nil when the
    /// bytes do not hold one (the file ends inside it, or it is not EBML).
    static func element(in bytes: ArraySlice<UInt8>, at offset: UInt64) -> Element? {
        guard let first = bytes.first, first != 0 else { return nil }
        let idLength = first.leadingZeroBitCount + 1
        guard idLength <= 4, bytes.count > idLength else { return nil }
        let base = bytes.startIndex
        let id = bytes[base..<base + idLength].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard let (size, sizeLength) = vint(bytes.dropFirst(idLength)) else { return nil }
        let allOnes: UInt64 = sizeLength == 8 ? (1 << 56) - 1 : (1 << (7 * UInt64(sizeLength))) - 1
        return Element(id: id, start: offset, sizeLength: sizeLength, size: size == allOnes ? nil : size)
    }

    /// A variable-length integer at the start of `bytes` (marker bit removed), and its length.
    static func vint(_ bytes: ArraySlice<UInt8>) -> (UInt64, Int)? {
        guard let first = bytes.first, first != 0 else { return nil }
        let length = first.leadingZeroBitCount + 1
        guard bytes.count >= length else { return nil }
        var value = UInt64(first & (0xFF >> length))
        for byte in bytes.dropFirst().prefix(length - 1) { value = value << 8 | UInt64(byte) }
        return (value, length)
    }

    /// The bytes of an ID (its marker bits are part of it).
    static func idBytes(_ id: UInt32) -> [UInt8] {
        let all = (0..<4).map { UInt8(truncatingIfNeeded: id >> (24 - 8 * UInt32($0))) }
        return Array(all.drop { $0 == 0 })
    }

    /// `size` as a size field of exactly `length` bytes; nil when it does not fit (the
    /// all-ones value of a length means "unknown" and is not available).
    static func sizeField(_ size: UInt64, length: Int) -> [UInt8]? {
        guard (1...8).contains(length), size < (1 << (7 * UInt64(length))) - 1 else { return nil }
        let field = size | (1 << (7 * UInt64(length)))
        return (0..<length).map { UInt8(truncatingIfNeeded: field >> (8 * UInt64(length - 1 - $0))) }
    }

    /// A whole element: ID, the shortest size field, body.
    static func element(_ id: UInt32, _ body: [UInt8]) -> [UInt8] {
        let length = (1...8).first { sizeField(UInt64(body.count), length: $0) != nil } ?? 8
        return idBytes(id) + (sizeField(UInt64(body.count), length: length) ?? []) + body
    }

    /// An unsigned-integer element, in as few bytes as the value needs.
    static func unsigned(_ id: UInt32, _ value: UInt64) -> [UInt8] {
        element(id, bigEndian(value, length: max(1, (64 - value.leadingZeroBitCount + 7) / 8)))
    }

    /// `value` in `length` big-endian bytes (the low ones when it is longer).
    static func bigEndian(_ value: UInt64, length: Int) -> [UInt8] {
        (0..<length).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(length - 1 - $0))) }
    }

    /// A Void element of exactly `total` bytes (at least 2), to blank out an element in place.
    static func void(total: Int) -> [UInt8]? {
        guard total >= 2 else { return nil }
        let length = total - 2 < 127 ? 1 : 8
        guard total > length, let field = sizeField(UInt64(total - 1 - length), length: length) else { return nil }
        return [0xEC] + field + [UInt8](repeating: 0, count: total - 1 - length)
    }
}

/// A Matroska file read through a window, counting the bytes it reads: a window of a few
/// hundred kilobytes while blocks are walked (a scan of a long recording looks at every
/// block's header, and one system call per header would dominate), a few bytes while
/// cluster headers are hopped over (trim's block index). Recover, trim and the track-label
/// rewrite read through it.
struct WindowedFile {
    static let defaultWindow = 256 << 10
    let file: SampleFile
    private(set) var bytesRead: UInt64 = 0
    var windowSize = WindowedFile.defaultWindow
    private var windowStart: UInt64 = 0
    private var window: [UInt8] = []

    init(file: SampleFile) {
        self.file = file
    }

    var size: UInt64 { file.size }

    /// Up to `count` bytes at `offset` (fewer at the end of the file, none past it).
    mutating func bytes(at offset: UInt64, count: Int) -> ArraySlice<UInt8> {
        guard offset < file.size else { return [] }
        let wanted = Int(min(UInt64(count), file.size - offset))
        if offset < windowStart || offset + UInt64(wanted) > windowStart + UInt64(window.count) {
            let length = Int(min(UInt64(max(windowSize, wanted)), file.size - offset))
            guard let read = try? file.read(offset: offset, count: length) else { return [] }
            bytesRead += UInt64(length)
            window = read
            windowStart = offset
        }
        let start = Int(offset - windowStart)
        return window[start..<start + wanted]
    }

    /// `count` bytes at `offset` without moving the window (a keyframe's payload, the tail of the file).
    mutating func read(at offset: UInt64, count: Int) -> ArraySlice<UInt8> {
        if offset >= windowStart, offset + UInt64(count) <= windowStart + UInt64(window.count) {
            return bytes(at: offset, count: count)
        }
        guard offset < file.size, let read = try? file.read(offset: offset, count: Int(min(UInt64(count), file.size - offset)))
        else { return [] }
        bytesRead += UInt64(read.count)
        return read[...]
    }

    /// The element header at `offset`, if one is whole there.
    mutating func element(at offset: UInt64) -> EBML.Element? {
        EBML.element(in: bytes(at: offset, count: 12), at: offset)
    }

    /// The children of a whole element of known size (those that are whole).
    mutating func children(of element: EBML.Element) -> [EBML.Element] {
        guard let end = element.end else { return [] }
        var children: [EBML.Element] = []
        var offset = element.body
        while offset < end, let child = self.element(at: offset), let childEnd = child.end, childEnd <= end {
            children.append(child)
            offset = childEnd
        }
        return children
    }

    /// The unsigned value of an element's body (at most 8 bytes).
    mutating func unsigned(_ element: EBML.Element) -> UInt64? {
        guard let size = element.size, size <= 8 else { return nil }
        let body = bytes(at: element.body, count: Int(size))
        guard body.count == Int(size) else { return nil }
        return body.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A SeekHead's entries: each element ID it points at, with the position it gives
    /// (from the segment's body), in the order written; entries missing either are left out.
    mutating func seekEntries(of seekHead: EBML.Element) -> [(target: UInt32, position: UInt64)] {
        var entries: [(target: UInt32, position: UInt64)] = []
        for seek in children(of: seekHead) where seek.id == EBML.ID.seek {
            var target: UInt32?
            var position: UInt64?
            for child in children(of: seek) {
                if child.id == EBML.ID.seekID, let size = child.size, size <= 4 {
                    target = bytes(at: child.body, count: Int(size)).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                } else if child.id == EBML.ID.seekPosition {
                    position = unsigned(child)
                }
            }
            if let target, let position { entries.append((target, position)) }
        }
        return entries
    }
}

import MP4

/// A Matroska file read through a window, counting the bytes it reads: a window of a few
/// hundred kilobytes while blocks are walked (a scan of a long recording looks at every
/// block's header, and one system call per header would dominate), a few bytes while
/// cluster headers are hopped over (trim's block index). Files, Recover and Trim read
/// Matroska through it.
public struct WindowedFile {
    public static let defaultWindow = 256 << 10
    public let file: SampleFile
    public private(set) var bytesRead: UInt64 = 0
    public var windowSize = WindowedFile.defaultWindow
    private var windowStart: UInt64 = 0
    private var window: [UInt8] = []

    public init(file: SampleFile) {
        self.file = file
    }

    /// Opens the file at `path`; nil when it cannot be read.
    public init?(path: String) {
        guard let file = try? SampleFile(path: path) else { return nil }
        self.init(file: file)
    }

    /// The file's size.
    public var size: UInt64 { file.size }

    /// Up to `count` bytes at `offset` (fewer at the end of the file, none past it).
    public mutating func bytes(at offset: UInt64, count: Int) -> ArraySlice<UInt8> {
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
    public mutating func read(at offset: UInt64, count: Int) -> ArraySlice<UInt8> {
        if offset >= windowStart, offset + UInt64(count) <= windowStart + UInt64(window.count) {
            return bytes(at: offset, count: count)
        }
        guard offset < file.size, let read = try? file.read(offset: offset, count: Int(min(UInt64(count), file.size - offset)))
        else { return [] }
        bytesRead += UInt64(read.count)
        return read[...]
    }

    /// The element header at `offset`, if one is whole there.
    public mutating func element(at offset: UInt64) -> EBML.Element? {
        EBML.element(in: bytes(at: offset, count: 12), at: offset)
    }

    /// The children of a whole element of known size (those that are whole).
    public mutating func children(of element: EBML.Element) -> [EBML.Element] {
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
    public mutating func unsigned(_ element: EBML.Element) -> UInt64? {
        guard let size = element.size, size <= 8 else { return nil }
        let body = bytes(at: element.body, count: Int(size))
        guard body.count == Int(size) else { return nil }
        return EBML.unsigned(body)
    }

    /// A string element's text (at most `limit` bytes of it; nil when it is longer).
    public mutating func text(_ element: EBML.Element, limit: UInt64 = 64) -> String? {
        guard let size = element.size, size <= limit else { return nil }
        return EBML.text(bytes(at: element.body, count: Int(size)))
    }

    /// The ID a `SeekID` element names (nil when it is longer than an ID).
    public mutating func seekID(_ element: EBML.Element) -> UInt32? {
        guard let size = element.size, size <= 4 else { return nil }
        return bytes(at: element.body, count: Int(size)).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    /// A SeekHead's entries: each element ID it points at, with the position it gives
    /// (from the segment's body), in the order written; entries missing either are left out.
    public mutating func seekEntries(of seekHead: EBML.Element) -> [(target: UInt32, position: UInt64)] {
        var entries: [(target: UInt32, position: UInt64)] = []
        for seek in children(of: seekHead) where seek.id == EBML.ID.seek {
            var target: UInt32?
            var position: UInt64?
            for child in children(of: seek) {
                if child.id == EBML.ID.seekID, let id = seekID(child) {
                    target = id
                } else if child.id == EBML.ID.seekPosition {
                    position = unsigned(child)
                }
            }
            if let target, let position { entries.append((target, position)) }
        }
        return entries
    }

    /// The segment right after the EBML header at the start of the file; nil when the file
    /// does not start that way.
    public mutating func segment() -> EBML.Element? {
        guard let header = element(at: 0), header.id == EBML.ID.header, let headerEnd = header.end,
              let segment = element(at: headerEnd), segment.id == EBML.ID.segment
        else { return nil }
        return segment
    }

    /// A `BlockGroup`'s block, its duration and whether it references another block (is
    /// not a keyframe).
    public mutating func blockGroup(_ group: EBML.Element) -> (block: EBML.Element?, duration: UInt64?, referenced: Bool) {
        var block: EBML.Element?
        var duration: UInt64?
        var referenced = false
        for child in children(of: group) {
            switch child.id {
            case EBML.ID.block: block = child
            case EBML.ID.blockDuration: duration = unsigned(child)
            case EBML.ID.referenceBlock: referenced = true
            default: break
            }
        }
        return (block, duration, referenced)
    }

    /// The header of the block whose body starts at `offset` and ends at `end`.
    public mutating func blockHeader(at offset: UInt64, end: UInt64) -> BlockHeader? {
        BlockHeader(bytes(at: offset, count: Int(min(12, end - offset))))
    }
}

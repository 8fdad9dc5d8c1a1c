/// EBML, the binary format of Matroska: element headers, variable-length integers and
/// IDs, read and written. The element IDs are in ``EBML/ID``; files are read through
/// ``WindowedFile``, elements held in memory with ``EBML/children(of:in:)``.
public enum EBML {
    /// An element's header: its ID, where its size field and body are, and its size (nil: unknown).
    public struct Element: Equatable, Sendable {
        public var id: UInt32
        public var start: UInt64
        public var sizeLength: Int
        public var size: UInt64?

        public init(id: UInt32, start: UInt64, sizeLength: Int, size: UInt64?) {
            self.id = id
            self.start = start
            self.sizeLength = sizeLength
            self.size = size
        }

        /// Where its size field starts.
        public var sizeOffset: UInt64 { body - UInt64(sizeLength) }
        /// Where its body starts.
        public var body: UInt64 { start + UInt64(idLength + sizeLength) }
        /// Where it ends; nil when its size is unknown.
        public var end: UInt64? { size.map { body + $0 } }
        /// The bytes of its ID.
        public var idLength: Int { id > 0xFF_FFFF ? 4 : id > 0xFFFF ? 3 : id > 0xFF ? 2 : 1 }
    }

    /// The element header at the start of `bytes` (read at `offset`), or nil when the
    /// bytes do not hold one (the file ends inside it, or it is not EBML).
    public static func element(in bytes: ArraySlice<UInt8>, at offset: UInt64) -> Element? {
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
    public static func vint(_ bytes: ArraySlice<UInt8>) -> (UInt64, Int)? {
        guard let first = bytes.first, first != 0 else { return nil }
        let length = first.leadingZeroBitCount + 1
        guard bytes.count >= length else { return nil }
        var value = UInt64(first & (0xFF >> length))
        for byte in bytes.dropFirst().prefix(length - 1) { value = value << 8 | UInt64(byte) }
        return (value, length)
    }

    /// The bytes of an ID (its marker bits are part of it).
    public static func idBytes(_ id: UInt32) -> [UInt8] {
        let all = (0..<4).map { UInt8(truncatingIfNeeded: id >> (24 - 8 * UInt32($0))) }
        return Array(all.drop { $0 == 0 })
    }

    /// An unsigned-integer element's value from its body (big-endian, at most its first 8 bytes).
    public static func unsigned(_ body: some Collection<UInt8>) -> UInt64 {
        body.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A string element's text, without the NUL padding EBML allows.
    public static func text(_ body: some Collection<UInt8>) -> String {
        String(decoding: body.prefix { $0 != 0 }, as: UTF8.self)
    }
}

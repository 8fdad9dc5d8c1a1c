/// Reads big-endian integers from a byte array, as ISO base media boxes store them.
/// Every read is bounds-checked: a short read returns nil instead of trapping.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var offset: Int
    let end: Int

    init(_ bytes: [UInt8], range: Range<Int>? = nil) {
        self.bytes = bytes
        offset = range?.lowerBound ?? 0
        end = range?.upperBound ?? bytes.count
    }

    var remaining: Int { end - offset }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, count <= remaining else { return false }
        offset += count
        return true
    }

    mutating func uint8() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint16() -> UInt16? { integer(2).map(UInt16.init) }
    mutating func uint32() -> UInt32? { integer(4).map(UInt32.init) }
    mutating func uint64() -> UInt64? { integer(8) }

    mutating func int32() -> Int32? { uint32().map { Int32(bitPattern: $0) } }
    mutating func int64() -> Int64? { uint64().map { Int64(bitPattern: $0) } }

    /// A four-character code.
    mutating func fourCC() -> String? {
        guard remaining >= 4 else { return nil }
        defer { offset += 4 }
        return String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }

    mutating func take(_ count: Int) -> [UInt8]? {
        guard count >= 0, count <= remaining else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    private mutating func integer(_ width: Int) -> UInt64? {
        guard remaining >= width else { return nil }
        var value: UInt64 = 0
        for index in offset..<offset + width { value = value << 8 | UInt64(bytes[index]) }
        offset += width
        return value
    }
}

/// Builds big-endian box bytes; `box` nests a child box and fills in its size.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func uint8(_ value: UInt8) { bytes.append(value) }
    mutating func uint16(_ value: UInt16) { integer(UInt64(value), width: 2) }
    mutating func uint32(_ value: UInt32) { integer(UInt64(value), width: 4) }
    mutating func uint64(_ value: UInt64) { integer(value, width: 8) }
    mutating func int32(_ value: Int32) { uint32(UInt32(bitPattern: value)) }
    mutating func int64(_ value: Int64) { uint64(UInt64(bitPattern: value)) }
    mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }
    mutating func fourCC(_ code: String) { bytes.append(contentsOf: Array(code.utf8.prefix(4))) }

    /// A box of `type` whose payload `body` writes.
    mutating func box(_ type: String, _ body: (inout ByteWriter) -> Void) {
        let start = bytes.count
        uint32(0)
        fourCC(type)
        body(&self)
        let size = UInt32(truncatingIfNeeded: bytes.count - start)
        for index in 0..<4 { bytes[start + index] = UInt8(truncatingIfNeeded: size >> (24 - 8 * UInt32(index))) }
    }

    /// A full box (version and flags before the payload).
    mutating func fullBox(_ type: String, version: UInt8, flags: UInt32 = 0, _ body: (inout ByteWriter) -> Void) {
        box(type) { writer in
            writer.uint32(UInt32(version) << 24 | flags & 0xFF_FFFF)
            body(&writer)
        }
    }

    private mutating func integer(_ value: UInt64, width: Int) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}

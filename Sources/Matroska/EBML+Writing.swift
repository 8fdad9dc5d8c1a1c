/// Writing EBML: size fields, whole elements, and the Void that blanks one out in place.
extension EBML {
    /// `size` as a size field of exactly `length` bytes; nil when it does not fit (the
    /// all-ones value of a length means "unknown" and is not available).
    public static func sizeField(_ size: UInt64, length: Int) -> [UInt8]? {
        guard (1...8).contains(length), size < (1 << (7 * UInt64(length))) - 1 else { return nil }
        let field = size | (1 << (7 * UInt64(length)))
        return (0..<length).map { UInt8(truncatingIfNeeded: field >> (8 * UInt64(length - 1 - $0))) }
    }

    /// A whole element: ID, the shortest size field, body.
    public static func element(_ id: UInt32, _ body: [UInt8]) -> [UInt8] {
        let length = (1...8).first { sizeField(UInt64(body.count), length: $0) != nil } ?? 8
        return idBytes(id) + (sizeField(UInt64(body.count), length: length) ?? []) + body
    }

    /// An unsigned-integer element, in as few bytes as the value needs.
    public static func unsigned(_ id: UInt32, _ value: UInt64) -> [UInt8] {
        element(id, bigEndian(value, length: max(1, (64 - value.leadingZeroBitCount + 7) / 8)))
    }

    /// `value` in `length` big-endian bytes (the low ones when it is longer).
    public static func bigEndian(_ value: UInt64, length: Int) -> [UInt8] {
        (0..<length).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(length - 1 - $0))) }
    }

    /// A Void element of exactly `total` bytes (at least 2), to blank out an element in place.
    public static func void(total: Int) -> [UInt8]? {
        guard total >= 2 else { return nil }
        let length = total - 2 < 127 ? 1 : 8
        guard total > length, let field = sizeField(UInt64(total - 1 - length), length: length) else { return nil }
        return [UInt8(ID.void)] + field + [UInt8](repeating: 0, count: total - 1 - length)
    }

    /// A track number as a block's header writes it (a variable-length integer of 1 or 2 bytes).
    public static func trackField(_ number: UInt64) -> [UInt8] {
        number < 127 ? [0x80 | UInt8(number)] : [0x40 | UInt8(truncatingIfNeeded: number >> 8), UInt8(truncatingIfNeeded: number)]
    }
}

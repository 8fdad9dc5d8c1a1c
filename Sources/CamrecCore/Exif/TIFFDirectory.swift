/// One entry of a TIFF image file directory (IFD): a tag and its typed value.
public struct TIFFEntry: Sendable, Equatable {
    /// The value of an entry, by TIFF field type.
    public enum Value: Sendable, Equatable {
        /// Type 1: unsigned bytes.
        case bytes([UInt8])
        /// Type 2: 7-bit text; written with its terminating NUL, which the count includes.
        case ascii(String)
        /// Type 3: 16-bit unsigned integers.
        case shorts([UInt16])
        /// Type 4: 32-bit unsigned integers.
        case longs([UInt32])
        /// Type 5: fractions of 32-bit unsigned integers (numerator, denominator).
        case rationals([Rational])
        /// Type 7: bytes whose meaning the tag defines.
        case undefined([UInt8])
    }

    /// A TIFF RATIONAL.
    public struct Rational: Sendable, Equatable {
        public var numerator: UInt32
        public var denominator: UInt32

        public init(_ numerator: UInt32, _ denominator: UInt32) {
            self.numerator = numerator
            self.denominator = denominator
        }
    }

    /// The tag number.
    public var tag: UInt16
    /// Its value.
    public var value: Value

    public init(_ tag: UInt16, _ value: Value) {
        self.tag = tag
        self.value = value
    }

    /// The TIFF field type number.
    var type: UInt16 {
        switch value {
        case .bytes: 1
        case .ascii: 2
        case .shorts: 3
        case .longs: 4
        case .rationals: 5
        case .undefined: 7
        }
    }

    /// The value's count (in units of its type) and its bytes, big-endian.
    var encoded: (count: UInt32, bytes: [UInt8]) {
        switch value {
        case .bytes(let bytes), .undefined(let bytes):
            return (UInt32(bytes.count), bytes)
        case .ascii(let text):
            let bytes = Self.asciiBytes(text) + [0]
            return (UInt32(bytes.count), bytes)
        case .shorts(let values):
            return (UInt32(values.count), values.flatMap { BigEndian.bytes($0) })
        case .longs(let values):
            return (UInt32(values.count), values.flatMap { BigEndian.bytes($0) })
        case .rationals(let values):
            return (UInt32(values.count), values.flatMap { BigEndian.bytes($0.numerator) + BigEndian.bytes($0.denominator) })
        }
    }

    /// TIFF text is 7-bit ASCII without NULs: any other character (a camera named in
    /// UTF-8, a control character) becomes `?`.
    static func asciiBytes(_ text: String) -> [UInt8] {
        text.unicodeScalars.map { scalar in
            (0x20..<0x7F).contains(scalar.value) ? UInt8(scalar.value) : UInt8(ascii: "?")
        }
    }
}

/// Lays out big-endian ("MM") TIFF structures: a header and a chain of directories, each
/// followed by the values too long for its entries, as EXIF blocks hold them.
public enum TIFFWriter {
    /// The bytes of one directory placed at `offset` (from the TIFF header's first byte):
    /// its entries sorted by tag, a next-directory offset of 0, then the values longer
    /// than 4 bytes, each at an even offset.
    static func directory(_ entries: [TIFFEntry], at offset: Int) -> [UInt8] {
        let sorted = entries.sorted { $0.tag < $1.tag }
        var head = BigEndian.bytes(UInt16(sorted.count))
        var data: [UInt8] = []
        let dataStart = offset + size(ofEntries: sorted.count)
        for entry in sorted {
            let (count, bytes) = entry.encoded
            head += BigEndian.bytes(entry.tag) + BigEndian.bytes(entry.type) + BigEndian.bytes(count)
            if bytes.count <= 4 {
                // Left-justified in the value field.
                head += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
            } else {
                head += BigEndian.bytes(UInt32(dataStart + data.count))
                data += bytes
                if data.count % 2 == 1 { data.append(0) }
            }
        }
        return head + BigEndian.bytes(UInt32(0)) + data
    }

    /// The size of a directory of `count` entries without its out-of-line values.
    static func size(ofEntries count: Int) -> Int { 2 + 12 * count + 4 }

    /// The size `directory(entries, at:)` will have (the same wherever it is placed).
    static func size(of entries: [TIFFEntry]) -> Int {
        directory(entries, at: 0).count
    }

    /// The TIFF header: `MM`, 42, and the first directory at offset 8.
    static let header: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08]
}

/// Big-endian bytes of fixed-width integers.
enum BigEndian {
    static func bytes(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

    static func bytes(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// The 16-bit value at `index`.
    static func uint16(_ bytes: [UInt8], at index: Int) -> UInt16 {
        UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
    }

    /// The 32-bit value at `index`.
    static func uint32(_ bytes: [UInt8], at index: Int) -> UInt32 {
        UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
    }
}

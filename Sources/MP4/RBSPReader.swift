/// Reads the bits of an H.264 NAL unit's RBSP (emulation prevention bytes removed), with its
/// position: the one bit reader of the SPS reader (``H264SequenceParameterSet``) and trim's PPS and VUI rewriting.
public struct RBSPReader: Sendable {
    /// The RBSP: the NAL unit's bytes without emulation-prevention bytes.
    public let rbsp: [UInt8]
    /// The next bit's index in `rbsp`.
    public private(set) var position = 0

    /// Reads `unit` (a NAL unit's bytes, header included or not) without its emulation-prevention bytes.
    public init(_ unit: [UInt8]) {
        rbsp = Self.unescaped(unit)
    }

    /// The NAL unit's payload without its emulation-prevention bytes (00 00 03 → 00 00): its
    /// RBSP, which every H.264 syntax reader here reads (``H264SequenceParameterSet``, trim's PPS ids).
    public static func unescaped(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var zeros = 0
        for byte in bytes {
            if zeros >= 2, byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            result.append(byte)
        }
        return result
    }

    /// Bit `index` of `bytes`, most significant first.
    public static func bit(_ bytes: [UInt8], _ index: Int) -> Int {
        Int(bytes[index / 8] >> (7 - UInt8(index % 8))) & 1
    }

    /// The next bit.
    public mutating func bit() -> Int? {
        guard position < rbsp.count * 8 else { return nil }
        defer { position += 1 }
        return Self.bit(rbsp, position)
    }

    /// The next `count` bits as an unsigned number.
    public mutating func bits(_ count: Int) -> Int? {
        var value = 0
        for _ in 0..<count {
            guard let bit = bit() else { return nil }
            value = value << 1 | bit
        }
        return value
    }

    /// Skips `count` bits; false when fewer are left.
    public mutating func skip(_ count: Int) -> Bool {
        guard position + count <= rbsp.count * 8 else { return false }
        position += count
        return true
    }

    /// An unsigned Exp-Golomb code, ue(v).
    public mutating func expGolomb() -> Int? {
        var zeros = 0
        while true {
            guard let bit = bit() else { return nil }
            if bit == 1 { break }
            zeros += 1
            guard zeros < 32 else { return nil }
        }
        guard let rest = bits(zeros) else { return nil }
        return (1 << zeros) - 1 + rest
    }

    /// A signed Exp-Golomb code, se(v).
    public mutating func signedExpGolomb() -> Int? {
        guard let value = expGolomb() else { return nil }
        return value % 2 == 1 ? (value + 1) / 2 : -(value / 2)
    }

    /// An RBSP as NAL unit bytes: `03` inserted after two zero bytes before a byte ≤ 3.
    public static func addingEmulationPrevention(_ rbsp: [UInt8]) -> [UInt8] {
        var unit: [UInt8] = []
        unit.reserveCapacity(rbsp.count + 4)
        var zeros = 0
        for byte in rbsp {
            if zeros >= 2, byte <= 3 {
                unit.append(3)
                zeros = 0
            }
            unit.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return unit
    }
}

/// A number of bytes as people write it on a command line: `500M`, `20G`, `1.5T`, `4096`.
/// Suffixes are binary (K = 1024, as `df -h` and `du -h` mean them); `B`, `iB` and
/// lower case are accepted (`20GiB`, `20gb`).
public enum ByteCount {
    /// Parses a size.
    ///
    /// - Throws: ``ValueError`` saying what a size looks like.
    public static func parse(_ text: String) throws(ValueError) -> Int64 {
        var bytes = DecimalScanner.trimmedBytes(text)[...]
        let failure = ValueError("invalid size '\(text)': use bytes or a number with K, M, G or T, e.g. 500M or 20G")
        // Unit: [KMGT][i][B] or B or nothing.
        var upper = bytes.map { $0 >= 0x61 && $0 <= 0x7a ? $0 - 0x20 : $0 }[...]
        if upper.last == UInt8(ascii: "B") { upper.removeLast(); bytes.removeLast() }
        if upper.last == UInt8(ascii: "I") { upper.removeLast(); bytes.removeLast() }
        var multiplier: Double = 1
        if let unit = upper.last, let power = "KMGT".utf8.firstIndex(of: unit) {
            multiplier = Double(1 << (10 * ("KMGT".utf8.distance(from: "KMGT".utf8.startIndex, to: power) + 1)))
            bytes.removeLast()
        }
        guard let number = Double(String(decoding: bytes, as: UTF8.self)), number.isFinite, number >= 0,
              !bytes.isEmpty, bytes.allSatisfy({ DecimalScanner.isDigit($0) || $0 == UInt8(ascii: ".") }) else {
            throw failure
        }
        let value = number * multiplier
        guard value < 9.0e18 else { throw failure }
        return Int64(value.rounded())
    }
}

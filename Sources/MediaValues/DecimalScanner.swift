/// Reads the ASCII numbers that duration, size and rate texts are made of.
/// Works on UTF-8 bytes so only `0`–`9` count as digits (not `٣` or `³`).
///
/// `package`, not `public`: CamrecKit's duration parser uses it too, but it is a parsing
/// helper, not part of any module's API.
package struct DecimalScanner {
    /// A number split at its decimal point: `12.345` is whole 12, fraction "345".
    package struct Number {
        package var whole: Int64
        /// The digits after the point, as typed (may be empty).
        package var fractionDigits: [UInt8]
        package var hasPoint: Bool
    }

    package enum Failure: Error {
        /// Not a number where one was expected.
        case malformed
        /// More digits than fit in an `Int64`.
        case overflow
    }

    package static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// Whole digits of `bytes` as a non-negative integer; every byte must be a digit.
    package static func integer(_ bytes: ArraySlice<UInt8>) throws(Failure) -> Int64 {
        guard !bytes.isEmpty else { throw .malformed }
        var value: Int64 = 0
        for byte in bytes {
            guard isDigit(byte) else { throw .malformed }
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(Int64(byte - 0x30))
            guard !overflow1, !overflow2 else { throw .overflow }
            value = sum
        }
        return value
    }

    /// `digits` or `digits.digits` (digits required on both sides of the point).
    package static func decimal(_ bytes: ArraySlice<UInt8>) throws(Failure) -> Number {
        guard let point = bytes.firstIndex(of: UInt8(ascii: ".")) else {
            return Number(whole: try integer(bytes), fractionDigits: [], hasPoint: false)
        }
        let fraction = bytes[(point + 1)...]
        guard !fraction.isEmpty, fraction.allSatisfy(isDigit) else { throw .malformed }
        return Number(whole: try integer(bytes[..<point]), fractionDigits: Array(fraction), hasPoint: true)
    }

    /// The fraction digits scaled to `places` digits (`"25"`, 9 → 250_000_000);
    /// `nil` when there are more digits than `places`.
    package static func scaledFraction(_ digits: [UInt8], places: Int) -> Int64? {
        guard digits.count <= places else { return nil }
        var value: Int64 = 0
        for index in 0..<places {
            value = value * 10 + (index < digits.count ? Int64(digits[index] - 0x30) : 0)
        }
        return value
    }

    /// `text` without leading and trailing spaces and tabs, as bytes.
    package static func trimmedBytes(_ text: String) -> ArraySlice<UInt8> {
        var bytes = ArraySlice(Array(text.utf8))
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        while let first = bytes.first, blank(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, blank(last) { bytes = bytes.dropLast() }
        return bytes
    }
}

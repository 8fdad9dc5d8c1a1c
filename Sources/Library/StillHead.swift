#if canImport(Glibc)
import Glibc
#endif

/// What a still's first bytes say: its size (JPEG's frame header, PNG's IHDR) and, for a
/// JPEG with EXIF, when it was captured (`DateTimeOriginal` with `SubSecTimeOriginal` and
/// `OffsetTimeOriginal`; without the offset the time is taken as local time).
package struct StillHead {
    var width: Int?
    var height: Int?
    /// The capture time in milliseconds since 1970 UTC.
    package var captureMilliseconds: Int64?
    /// The zone it was captured in (`OffsetTimeOriginal`, seconds east of UTC), when given.
    package var captureOffsetSeconds: Int?

    /// Reads `bytes`, the first bytes of a JPEG still or, with `png`, of a PNG one.
    package init(_ bytes: [UInt8], png: Bool) {
        if png {
            // Signature (8), IHDR length and type (8), width, height.
            if bytes.count >= 24 {
                width = Int(Self.big(bytes, 16, 4))
                height = Int(Self.big(bytes, 20, 4))
            }
            return
        }
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            let length = Int(Self.big(bytes, offset + 2, 2))
            let body = offset + 4
            if marker == 0xE1, body + 6 <= bytes.count, Array(bytes[body..<body + 6]) == Array("Exif\0\0".utf8) {
                let time = Self.exifTime(Array(bytes[(body + 6)..<min(bytes.count, offset + 2 + length)]))
                captureMilliseconds = time?.milliseconds
                captureOffsetSeconds = time?.offsetSeconds
            }
            // Baseline, extended, progressive and lossless frame headers: precision, height, width.
            if [0xC0, 0xC1, 0xC2, 0xC3].contains(marker), body + 5 <= bytes.count {
                height = Int(Self.big(bytes, body + 1, 2))
                width = Int(Self.big(bytes, body + 3, 2))
                return
            }
            if marker == 0xDA { return }
            offset += 2 + length
        }
    }

    /// The capture time an EXIF (TIFF) block holds, and its zone when it says.
    private static func exifTime(_ tiff: [UInt8]) -> (milliseconds: Int64, offsetSeconds: Int?)? {
        guard tiff.count >= 8 else { return nil }
        let little = tiff[0] == 0x49
        func number(_ at: Int, _ width: Int) -> Int? {
            guard at >= 0, at + width <= tiff.count else { return nil }
            var value = 0
            for index in 0..<width { value |= Int(tiff[at + (little ? index : width - 1 - index)]) << (8 * index) }
            return value
        }
        /// The entries of the IFD at `at`: tag → (type, count, value or offset field position).
        func entries(_ at: Int) -> [Int: (count: Int, field: Int)] {
            var found: [Int: (count: Int, field: Int)] = [:]
            guard let count = number(at, 2), count < 512 else { return found }
            for index in 0..<count {
                let entry = at + 2 + index * 12
                guard let tag = number(entry, 2), let items = number(entry + 4, 4) else { break }
                found[tag] = (items, entry + 8)
            }
            return found
        }
        func text(_ entry: (count: Int, field: Int)?) -> String? {
            guard let entry else { return nil }
            let start = entry.count <= 4 ? entry.field : (number(entry.field, 4) ?? -1)
            guard start >= 0, start + entry.count <= tiff.count else { return nil }
            return String(decoding: tiff[start..<start + entry.count].prefix { $0 != 0 }, as: UTF8.self)
        }
        guard let first = number(4, 4), let exifPointer = entries(first)[0x8769], let exifStart = number(exifPointer.field, 4)
        else { return nil }
        let exif = entries(exifStart)
        guard let original = text(exif[0x9003]), original.count >= 19 else { return nil }
        // "YYYY:MM:DD HH:MM:SS" → ISO 8601, with the sub-seconds and the offset when given.
        let chars = Array(original)
        var iso = String(chars[0..<4]) + "-" + String(chars[5..<7]) + "-" + String(chars[8..<10]) + "T" + String(chars[11..<19])
        if let sub = text(exif[0x9291]), !sub.isEmpty, sub.allSatisfy(\.isNumber) { iso += "." + sub }
        guard let zone = text(exif[0x9011]), zone.count == 6 else {
            return ISO8601Time.milliseconds(iso, localIfNoZone: true).map { ($0, nil) }
        }
        iso += zone
        let sign = zone.utf8.first
        let offset = (Int(String(zone.dropFirst().prefix(2))) ?? 0) * 3600 + (Int(String(zone.suffix(2))) ?? 0) * 60
        return ISO8601Time.milliseconds(iso).map { ($0, sign == UInt8(ascii: "-") ? -offset : offset) }
    }

    private static func big(_ bytes: [UInt8], _ at: Int, _ width: Int) -> UInt64 {
        bytes[at..<at + width].reduce(0) { $0 << 8 | UInt64($1) }
    }
}

/// Parses the ISO 8601 times camrec writes: `2026-12-01T10:04:30.250+01:00` or `…Z`.
package enum ISO8601Time {
    /// Milliseconds since 1970 UTC; nil when `text` is not such a time. Without a zone:
    /// nil, or local time when `localIfNoZone`.
    package static func milliseconds(_ text: String, localIfNoZone: Bool = false) -> Int64? {
        let chars = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= chars.count, !range.isEmpty else { return nil }
            var value = 0
            for char in chars[range] {
                guard char >= 48, char <= 57 else { return nil }
                value = value * 10 + Int(char - 48)
            }
            return value
        }
        guard chars.count >= 19, let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var index = 19
        var milliseconds = 0
        if index < chars.count, chars[index] == UInt8(ascii: ".") {
            var digits = 0
            index += 1
            while index < chars.count, chars[index] >= 48, chars[index] <= 57 {
                if digits < 3 { milliseconds = milliseconds * 10 + Int(chars[index] - 48) }
                digits += 1
                index += 1
            }
            for _ in digits..<max(digits, 3) { milliseconds *= 10 }
        }
        let civil = CivilTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        if index == chars.count {
            guard localIfNoZone else { return nil }
            return civil.unixSeconds(in: .local) * 1000 + Int64(milliseconds)
        }
        var offset = 0
        if chars[index] != UInt8(ascii: "Z") {
            guard chars.count >= index + 6, let zoneHours = number(index + 1..<index + 3),
                  let zoneMinutes = number(index + 4..<index + 6) else { return nil }
            offset = (zoneHours * 60 + zoneMinutes) * 60 * (chars[index] == UInt8(ascii: "-") ? -1 : 1)
        }
        return civil.unixSeconds(in: .offset(offset)) * 1000 + Int64(milliseconds)
    }
}

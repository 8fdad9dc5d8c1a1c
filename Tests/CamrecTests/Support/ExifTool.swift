import Foundation

/// Reads stills' EXIF with exiftool (Debian's libimage-exiftool-perl, which scripts/deps
/// installs), never with camrec's own code.
enum ExifTool {
    /// Why exiftool cannot be used here, nil when it can.
    static let unusable: String? = {
        guard let result = try? ChildProcess.run("exiftool", ["-ver"]), result.status == 0 else {
            return "exiftool is not installed (scripts/deps installs libimage-exiftool-perl)"
        }
        return nil
    }()

    /// The tags the tests read, as `exiftool -j -n` gives them (numbers unformatted, GPS
    /// signed), plus exiftool's `-validate` verdict (with `-n`: "0 0 0", no errors, warnings
    /// or minor warnings) and its `Warning`s.
    static func tags(_ path: String) throws -> [String: Any] {
        let result = try ChildProcess.run("exiftool", [
            "-j", "-n", "-validate", "-warning",
            "-Make", "-Model", "-Software", "-ModifyDate", "-DateTimeOriginal", "-SubSecTimeOriginal", "-OffsetTimeOriginal",
            "-SubSecDateTimeOriginal", "-CreateDate", "-ExifVersion", "-ExifImageWidth", "-ExifImageHeight",
            "-Composite:GPSLatitude", "-Composite:GPSLongitude", "-Composite:GPSAltitude", "-GPSDateTime", "-GPSMapDatum",
            "-GPSVersionID", path,
        ])
        guard result.status == 0, let list = try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]],
              let first = list.first else {
            throw Failure(description: "exiftool \(path): \(result.stderr) \(result.stdoutText)")
        }
        return first
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A tag's value as text (exiftool gives numbers-looking text as JSON numbers).
    static func text(_ tags: [String: Any], _ name: String) -> String? {
        switch tags[name] {
        case let text as String: text
        case let number as NSNumber: number.stringValue
        default: nil
        }
    }

    /// Seconds since the epoch of `2026:12:01 11:04:30.250+01:00` (EXIF, with its
    /// sub-seconds and offset) or `2026-12-01T11:04:30.250+01:00` / `…Z` (ISO 8601).
    static func seconds(_ text: String) -> Double? {
        let characters = Array(text)
        guard characters.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? { Int(String(characters[range])) }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19) else { return nil }
        var rest = characters[19...]
        var fraction = 0.0
        if rest.first == "." {
            let digits = rest.dropFirst().prefix { $0.isNumber }
            fraction = Double("0." + String(digits)) ?? 0
            rest = rest.dropFirst(1 + digits.count)
        }
        var offset = 0
        if let sign = rest.first, sign == "+" || sign == "-" {
            let zone = Array(rest.dropFirst()).filter { $0 != ":" }
            guard zone.count == 4, let hours = Int(String(zone[0..<2])), let minutes = Int(String(zone[2..<4])) else { return nil }
            offset = (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
        } else if !(rest.isEmpty || rest == ["Z"]) {
            return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour,
                                                            minute: minute, second: second)) else { return nil }
        return date.timeIntervalSince1970 + fraction - Double(offset)
    }

    /// A JPEG without its EXIF APP1 segment (what camrec adds to a camera's own frame).
    static func withoutExif(_ jpeg: Data) -> Data {
        let bytes = [UInt8](jpeg)
        var output: [UInt8] = Array(bytes.prefix(2))
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF, bytes[index + 1] != 0xDA {
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            let end = min(index + 2 + length, bytes.count)
            let isExif = bytes[index + 1] == 0xE1 && end - index >= 10 && Array(bytes[(index + 4)..<(index + 10)]) == Array("Exif\0\0".utf8)
            if !isExif { output += bytes[index..<end] }
            index = end
        }
        output += bytes[min(index, bytes.count)...]
        return Data(output)
    }

    /// CLOCK_REALTIME minus CLOCK_MONOTONIC, in seconds: what turns the emulated camera's
    /// frame timestamps (`trace=frames`, CLOCK_MONOTONIC) into wall-clock times.
    static func wallMinusMonotonic() -> Double {
        var wall = timespec(), monotonic = timespec()
        clock_gettime(CLOCK_MONOTONIC, &monotonic)
        clock_gettime(CLOCK_REALTIME, &wall)
        return Double(wall.tv_sec - monotonic.tv_sec) + Double(wall.tv_nsec - monotonic.tv_nsec) / 1e9
    }
}

/// A capture moment as EXIF writes it: to the millisecond, with the local zone's offset
/// from UTC at that moment. Pure arithmetic on the calendar (no time zone database), so
/// that the same value always gives the same text.
public struct ExifTime: Sendable, Equatable {
    /// Whole seconds since the Unix epoch (UTC).
    public var seconds: Int64
    /// Milliseconds within the second, 0 … 999.
    public var milliseconds: Int
    /// The local zone's offset from UTC in seconds (east positive), e.g. 3600 for +01:00.
    public var utcOffset: Int

    /// The moment `seconds` + `milliseconds` after the epoch, in a zone `utcOffset` seconds
    /// east of UTC (rounded to whole minutes, as EXIF states it).
    public init(seconds: Int64, milliseconds: Int, utcOffset: Int) {
        precondition((0..<1000).contains(milliseconds), "milliseconds out of range")
        self.seconds = seconds
        self.milliseconds = milliseconds
        self.utcOffset = Int((Double(utcOffset) / 60).rounded()) * 60
    }

    /// `YYYY:MM:DD HH:MM:SS` in the local zone (DateTimeOriginal).
    public var localDateTime: String {
        let local = Civil(seconds + Int64(utcOffset))
        return local.date(separator: ":") + " " + local.time
    }

    /// The milliseconds as three digits (SubSecTimeOriginal), e.g. `050`.
    public var subSeconds: String { Self.padded(milliseconds, 3) }

    /// The zone's offset, `+01:00` or `-05:30` (OffsetTimeOriginal).
    public var offset: String {
        let minutes = abs(utcOffset) / 60
        return (utcOffset < 0 ? "-" : "+") + Self.padded(minutes / 60, 2) + ":" + Self.padded(minutes % 60, 2)
    }

    /// `YYYY:MM:DD` in UTC (GPSDateStamp).
    public var utcDate: String { Civil(seconds).date(separator: ":") }

    /// Hours, minutes and seconds in UTC, the seconds with the milliseconds (GPSTimeStamp).
    public var utcTime: (hours: Int, minutes: Int, seconds: Double) {
        let utc = Civil(seconds)
        return (utc.hour, utc.minute, Double(utc.second) + Double(milliseconds) / 1000)
    }

    /// ISO 8601 in the local zone, to the millisecond: `2026-12-01T11:04:30.250+01:00`
    /// (`Z` when the zone is UTC), the JSON lines' form of the same moment.
    public var iso8601: String {
        let local = Civil(seconds + Int64(utcOffset))
        return local.date(separator: "-") + "T" + local.time + "." + subSeconds + (utcOffset == 0 ? "Z" : offset)
    }

    static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// A moment split into the proleptic Gregorian calendar's fields.
    private struct Civil {
        var year: Int64, month: Int, day: Int, hour: Int, minute: Int, second: Int

        /// The fields of `seconds` since 1970-01-01 00:00:00 (days from civil, inverted:
        /// Howard Hinnant's algorithm, exact for any year).
        init(_ seconds: Int64) {
            let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
            let within = Int(seconds - days * 86_400)
            hour = within / 3600
            minute = within / 60 % 60
            second = within % 60
            let shifted = days + 719_468
            let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
            let dayOfEra = shifted - era * 146_097
            let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
            let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
            let monthIndex = (5 * dayOfYear + 2) / 153
            day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
            month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
            year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        }

        func date(separator: String) -> String {
            ExifTime.padded(Int(year), 4) + separator + ExifTime.padded(month, 2) + separator + ExifTime.padded(day, 2)
        }

        var time: String {
            ExifTime.padded(hour, 2) + ":" + ExifTime.padded(minute, 2) + ":" + ExifTime.padded(second, 2)
        }
    }
}

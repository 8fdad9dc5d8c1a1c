import MP4

/// A capture moment as EXIF's date tags write it, from the same calendar arithmetic as
/// the movies' capture time (`CaptureTimeStamp.iso8601`): the local date and time, the
/// milliseconds and the zone's offset, and the moment in UTC for the GPS tags.
extension CaptureTimeStamp {
    /// `YYYY:MM:DD HH:MM:SS` in its zone (DateTimeOriginal).
    public var exifDateTime: String { Self.exifDateTime(iso8601) }

    /// The milliseconds as three digits (SubSecTimeOriginal), e.g. `050`.
    public var exifSubSeconds: String { String(iso8601.dropFirst(20).prefix(3)) }

    /// The zone's offset, `+01:00` or `-05:30` (OffsetTimeOriginal).
    public var exifOffset: String { String(iso8601.suffix(6)) }

    /// `YYYY:MM:DD` in UTC (GPSDateStamp).
    public var exifUTCDate: String { String(Self.exifDateTime(utc.iso8601).prefix(10)) }

    /// Hours, minutes and milliseconds of the minute in UTC (GPSTimeStamp).
    public var exifUTCTime: (hours: Int, minutes: Int, milliseconds: Int) {
        let text = Array(utc.iso8601.utf8)
        func number(_ range: Range<Int>) -> Int { range.reduce(0) { $0 * 10 + Int(text[$1] - 48) } }
        return (number(11..<13), number(14..<16), number(17..<19) * 1000 + number(20..<23))
    }

    /// The same moment written in UTC.
    private var utc: CaptureTimeStamp { CaptureTimeStamp(unixMilliseconds: unixMilliseconds, utcOffsetSeconds: 0) }

    /// `2026-12-01T11:04:30…` → `2026:12:01 11:04:30`.
    private static func exifDateTime(_ iso8601: String) -> String {
        String(iso8601.prefix(19).map { $0 == "-" ? ":" : $0 == "T" ? " " : $0 })
    }
}

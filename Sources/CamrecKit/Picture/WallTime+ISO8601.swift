#if canImport(Glibc)
import Glibc
#endif

extension WallTime {
    /// The moment as ISO 8601 to the millisecond: local time with its offset
    /// (2026-12-01T10:04:30.250+01:00), or UTC (2026-12-01T09:04:30.250Z). The milliseconds
    /// are cut, never rounded up into the next second.
    public func iso8601(utc: Bool) -> String {
        var time = time_t(seconds)
        var parts = tm()
        if utc { gmtime_r(&time, &parts) } else { localtime_r(&time, &parts) }
        let offset = utc ? 0 : Int(parts.tm_gmtoff)
        let zone: String
        if utc {
            zone = "Z"
        } else {
            let minutes = abs(offset) / 60
            zone = (offset < 0 ? "-" : "+") + Self.digits(minutes / 60, 2) + ":" + Self.digits(minutes % 60, 2)
        }
        return Self.digits(Int(parts.tm_year) + 1900, 4) + "-" + Self.digits(Int(parts.tm_mon) + 1, 2) + "-"
            + Self.digits(Int(parts.tm_mday), 2) + "T" + Self.digits(Int(parts.tm_hour), 2) + ":"
            + Self.digits(Int(parts.tm_min), 2) + ":" + Self.digits(Int(parts.tm_sec), 2) + "."
            + Self.digits(Int(nanoseconds / 1_000_000), 3) + zone
    }

    /// The local zone's offset from UTC at this moment, in seconds east.
    public var localUTCOffsetSeconds: Int {
        var time = time_t(seconds)
        var parts = tm()
        localtime_r(&time, &parts)
        return Int(parts.tm_gmtoff)
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

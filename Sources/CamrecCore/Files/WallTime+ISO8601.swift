import MP4
import MediaValues
#if canImport(Glibc)
import Glibc
#endif

extension WallTime {
    /// The moment in whole milliseconds since 1970 (cut, never rounded up).
    public var unixMilliseconds: Int64 { seconds * 1000 + nanoseconds / 1_000_000 }

    /// The moment as ISO 8601 to the millisecond: local time with its offset
    /// (2026-12-01T10:04:30.250+01:00), or UTC (2026-12-01T09:04:30.250Z), written as the
    /// files' capture time is (`CaptureTimeStamp`).
    public func iso8601(utc: Bool) -> String {
        let text = CaptureTimeStamp(unixMilliseconds: unixMilliseconds, utcOffsetSeconds: utc ? 0 : localUTCOffsetSeconds).iso8601
        return utc ? String(text.dropLast(6)) + "Z" : text
    }

    /// The local zone's offset from UTC at this moment, in seconds east.
    public var localUTCOffsetSeconds: Int {
        var time = time_t(seconds)
        var parts = tm()
        localtime_r(&time, &parts)
        return Int(parts.tm_gmtoff)
    }
}

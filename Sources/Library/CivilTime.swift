#if canImport(Glibc)
import Glibc
#endif

/// A calendar date and time of day read from text (an EXIF date, `--from 10:04:30`), made
/// into seconds since 1970 in the zone it is written in.
struct CivilTime: Equatable {
    var year: Int
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int

    /// The zone a time is written in.
    enum Zone: Equatable {
        case utc
        /// The machine's local time (daylight saving time as it applies on that date).
        case local
        /// A fixed offset from UTC, in seconds (east positive).
        case offset(Int)
    }

    /// Seconds since 1970-01-01 UTC of this time in `zone`.
    func unixSeconds(in zone: Zone) -> Int64 {
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        switch zone {
        case .utc: return Int64(timegm(&parts))
        case .offset(let seconds): return Int64(timegm(&parts)) - Int64(seconds)
        case .local:
            parts.tm_isdst = -1
            return Int64(mktime(&parts))
        }
    }
}

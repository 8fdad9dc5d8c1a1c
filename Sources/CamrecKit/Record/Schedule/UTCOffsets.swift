#if canImport(Glibc)
import Glibc
#endif

/// A time zone as a schedule needs it: how far local time is from UTC at an instant. The
/// calendar arithmetic is ``UTCOffsets``'s own (no process-wide `TZ`), so that a schedule
/// is computed, and tested, in a zone given explicitly.
public protocol UTCOffsets: Sendable {
    /// Seconds east of UTC of local time at `instant` (seconds since 1970-01-01 UTC).
    func offset(at instant: Int64) -> Int
}

/// UTC (`--utc`).
public struct UTCZone: UTCOffsets {
    public init() {}
    public func offset(at instant: Int64) -> Int { 0 }
}

/// The machine's local time as the C library has it (`TZ`, /etc/localtime): the zone
/// every other time camrec writes is in.
public struct LocalZone: UTCOffsets {
    public init() {}
    public func offset(at instant: Int64) -> Int {
        var seconds = time_t(instant)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return 0 }
        return Int(parts.tm_gmtoff)
    }
}

extension UTCOffsets {
    /// The local day of `instant` (days since 1970-01-01) and the seconds since its midnight.
    public func localDay(of instant: Int64) -> (day: Int64, second: Int64) {
        let local = instant + Int64(offset(at: instant))
        let day = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        return (day, local - day * 86_400)
    }

    /// The first instant at which local time reads `second` seconds after the midnight
    /// of `day` (days since 1970-01-01; `second` may pass 86 400, into the next days).
    ///
    /// A time that occurs twice (the hour repeated when the clocks go back) is its first
    /// occurrence; a time that never occurs (the hour skipped when they go forward) is
    /// the first instant after the gap, when local time reads past it.
    public func instant(day: Int64, second: Int64) -> Int64 {
        // Local time read as if it were UTC; the real instant is that minus the offset
        // in force then, which is the offset a day before or a day after.
        let asUTC = day * 86_400 + second
        let before = offset(at: asUTC - 86_400)
        let after = offset(at: asUTC + 86_400)
        let found = [before, after].map { asUTC - Int64($0) }.filter { Int64(offset(at: $0)) == asUTC - $0 }
        if let first = found.min() { return first }
        // In a gap: the first instant whose local time reads past it (the change itself).
        var low = asUTC - Int64(max(before, after))
        var high = asUTC - Int64(min(before, after))
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if middle + Int64(offset(at: middle)) >= asUTC { high = middle } else { low = middle }
        }
        return high
    }

    /// The day of the week of local day `day`: 0 for Monday … 6 for Sunday.
    public static func weekday(_ day: Int64) -> Int {
        // 1970-01-01 was a Thursday.
        Int(((day + 3) % 7 + 7) % 7)
    }
}

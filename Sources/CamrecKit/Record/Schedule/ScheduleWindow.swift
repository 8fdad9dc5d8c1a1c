/// One stretch of time a schedule records in, from `start` up to `end` (seconds since
/// 1970-01-01 UTC): a window of ``Schedule`` on a given day, merged with the windows it
/// overlaps or touches.
public struct ScheduleWindow: Sendable, Equatable, CustomStringConvertible {
    public var start: Int64
    public var end: Int64

    public init(start: Int64, end: Int64) {
        self.start = start
        self.end = end
    }

    public var description: String { "\(start)..<\(end)" }
}

/// Where an instant is with respect to a schedule.
public enum SchedulePosition: Sendable, Equatable {
    /// In `window`, which started at or before it.
    case inside(ScheduleWindow)
    /// Between windows: `window` is the next.
    case before(ScheduleWindow)
}

extension Schedule {
    /// The windows that fall from the local day before `instant`'s to eight days after it,
    /// in `zone`, in order, those that overlap or touch merged into one.
    ///
    /// Each day's window starts at the first instant its local start time reads (after
    /// the skipped hour if it falls in it, the first time if it falls in the repeated
    /// hour) and ends likewise at its end time: a window's length is what the clocks on
    /// the wall show, so a night over a change of the clocks is an hour shorter or longer.
    /// A window that lies wholly in the skipped hour is empty, and left out.
    public func windows(around instant: Int64, zone: some UTCOffsets) -> [ScheduleWindow] {
        let today = zone.localDay(of: instant).day
        var windows: [ScheduleWindow] = []
        for day in (today - 1)...(today + 8) {
            let weekday = UTCZone.weekday(day)
            for rule in rules where rule.day == weekday {
                let start = zone.instant(day: day, second: Int64(rule.start))
                let end = zone.instant(day: day, second: Int64(rule.end))
                if end > start { windows.append(ScheduleWindow(start: start, end: end)) }
            }
        }
        windows.sort { ($0.start, $0.end) < ($1.start, $1.end) }
        var merged: [ScheduleWindow] = []
        for window in windows {
            if let last = merged.last, window.start <= last.end {
                merged[merged.count - 1].end = max(last.end, window.end)
            } else {
                merged.append(window)
            }
        }
        return merged
    }

    /// Where `instant` is: inside a window or before the next, in `zone`. Windows that end
    /// at or before `done` (the end of a window already recorded) are passed over. Nil
    /// when no window falls within the next eight days (every one lies in a skipped hour).
    public func position(at instant: Int64, zone: some UTCOffsets, done: Int64? = nil) -> SchedulePosition? {
        for window in windows(around: instant, zone: zone) where window.end > instant && window.end > (done ?? Int64.min) {
            return window.start <= instant ? .inside(window) : .before(window)
        }
        return nil
    }
}

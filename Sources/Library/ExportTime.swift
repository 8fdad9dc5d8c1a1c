import CamrecCore

#if canImport(Glibc)
import Glibc
import MediaValues
#endif

/// A `--from` or `--to` of `camrec export`: a wall-clock time (`10:04:30`,
/// `2026-12-01 10:04:30.250`, ISO 8601 with a zone) or an offset into the series (`90`,
/// `2m`, `+1:30`; `-5m` counts back from its end). Parsed without any series; resolved to
/// milliseconds since 1970 against one (``resolve(start:end:notBefore:utc:)``).
public enum ExportTime: Sendable, Equatable {
    /// An offset from the series' first frame (nanoseconds; negative: back from its end).
    case offset(Int64)
    /// A clock time, with or without a date and a zone.
    case clock(ClockTime)

    /// A clock time as written.
    public struct ClockTime: Sendable, Equatable {
        /// The date (year, month, day), or nil: the series' day.
        public var date: (year: Int, month: Int, day: Int)?
        public var hour: Int
        public var minute: Int
        public var second: Int
        /// Milliseconds within the second.
        public var milliseconds: Int
        /// The zone's offset from UTC in seconds, or nil: local time (UTC with `--utc`).
        public var zoneSeconds: Int?

        public static func == (lhs: ClockTime, rhs: ClockTime) -> Bool {
            lhs.date?.year == rhs.date?.year && lhs.date?.month == rhs.date?.month && lhs.date?.day == rhs.date?.day
                && lhs.hour == rhs.hour && lhs.minute == rhs.minute && lhs.second == rhs.second
                && lhs.milliseconds == rhs.milliseconds && lhs.zoneSeconds == rhs.zoneSeconds
        }
    }

    /// Parses `text` given to `option` (`--from`, `--to`).
    ///
    /// - Throws: a usage error showing the accepted forms.
    public static func parse(_ text: String, option: String) throws(CamrecError) -> ExportTime {
        let forms = "give a time of day (10:04:30, 10:04:30.250), a date and time (2026-12-01 10:04:30,"
            + " ISO 8601 with a zone: 2026-12-01T10:04:30+01:00), or an offset into the series (90, 2m, +1:30;"
            + " -5m counts back from its end)"
        let trimmed = text.trimmingWhitespace
        if let sign = trimmed.first, sign == "+" || sign == "-" {
            guard let span = try? TimeSpec.parse(String(trimmed.dropFirst())) else {
                throw CamrecError(.usage, "\(option) '\(text)': \(forms)")
            }
            return .offset(sign == "-" ? -span.nanoseconds : span.nanoseconds)
        }
        if !trimmed.contains(":") {
            guard let span = try? TimeSpec.parse(trimmed) else { throw CamrecError(.usage, "\(option) '\(text)': \(forms)") }
            return .offset(span.nanoseconds)
        }
        guard let clock = ClockTime(trimmed) else { throw CamrecError(.usage, "\(option) '\(text)': \(forms)") }
        return .clock(clock)
    }

    /// The instant meant, in milliseconds since 1970, for a series whose first frame was
    /// captured at `start` and whose last ends at `end`. A time of day without a date is on
    /// the first day of the series on which it is not before `notBefore` (`--to`: the
    /// resolved `--from`) or, without it, not before the start; a `--from` that is on no
    /// day of the series is on its first day (before the start: the cut begins there).
    public func resolve(start: Int64, end: Int64, notBefore: Int64? = nil, utc: Bool) -> Int64 {
        switch self {
        case .offset(let nanoseconds):
            return (nanoseconds < 0 ? end : start) + nanoseconds / 1_000_000
        case .clock(let clock):
            let first = clock.instant(onDayOf: start, utc: utc)
            if clock.date != nil { return first }
            let floor = notBefore ?? start
            var (day, instant) = (start, first)
            // The same time on the following days of the series, until one is not before the floor.
            while instant < floor, instant < end {
                day += 86_400_000
                instant = clock.instant(onDayOf: day, utc: utc)
            }
            // A --from before the start of a series within one day: its day is the start's.
            return notBefore == nil && instant >= end ? first : instant
        }
    }
}

extension ExportTime.ClockTime {
    /// Parses `[YYYY-MM-DD( |T)]HH:MM[:SS[.fff]][Z|±HH[:]MM]`.
    init?(_ text: String) {
        var rest = Substring(text)
        date = nil
        if let separator = rest.firstIndex(where: { $0 == " " || $0 == "T" }) {
            let parts = rest[..<separator].split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
                  let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
                  (1...12).contains(month), (1...31).contains(day)
            else { return nil }
            date = (year, month, day)
            rest = rest[rest.index(after: separator)...]
        }
        zoneSeconds = nil
        if rest.hasSuffix("Z") || rest.hasSuffix("z") {
            zoneSeconds = 0
            rest = rest.dropLast()
        } else if let sign = rest.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let zone = rest[rest.index(after: sign)...].filter { $0 != ":" }
            guard zone.count == 4 || zone.count == 2, let hours = Int(zone.prefix(2)), hours <= 14,
                  let minutes = zone.count == 4 ? Int(zone.suffix(2)) : 0, minutes < 60
            else { return nil }
            zoneSeconds = (rest[sign] == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
            rest = rest[..<sign]
        }
        let fields = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count), fields.allSatisfy({ !$0.isEmpty }),
              fields[0].count <= 2, fields[1].count == 2,
              let hour = Int(fields[0]), let minute = Int(fields[1]), hour < 24, minute < 60
        else { return nil }
        self.hour = hour
        self.minute = minute
        second = 0
        milliseconds = 0
        if fields.count == 3 {
            let parts = fields[2].split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count <= 2, parts[0].count == 2, let second = Int(parts[0]), second < 60,
                  parts[0].allSatisfy(\.isASCII)
            else { return nil }
            self.second = second
            if parts.count == 2 {
                let digits = parts[1]
                guard (1...9).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
                milliseconds = Int((digits + "00").prefix(3)) ?? 0
            }
        }
        guard [fields[0], fields[1]].allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
    }

    /// The instant of this time (on its own date, or on the calendar day of `reference` in
    /// the zone it is written in), in milliseconds since 1970.
    func instant(onDayOf reference: Int64, utc: Bool) -> Int64 {
        var (year, month, day) = (1970, 1, 1)
        if let date {
            (year, month, day) = date
        } else {
            var seconds = time_t(reference / 1000)
            var parts = tm()
            if let zoneSeconds {
                seconds += time_t(zoneSeconds)
                gmtime_r(&seconds, &parts)
            } else if utc {
                gmtime_r(&seconds, &parts)
            } else {
                localtime_r(&seconds, &parts)
            }
            (year, month, day) = (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
        }
        let civil = CivilTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        let seconds = civil.unixSeconds(in: zoneSeconds.map { .offset($0) } ?? (utc ? .utc : .local))
        return seconds * 1000 + Int64(milliseconds)
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

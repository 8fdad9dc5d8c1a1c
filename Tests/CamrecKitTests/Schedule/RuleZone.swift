@testable import CamrecKit
import Foundation

/// A zone with one daylight-saving rule, as the tz database's current rules for Europe
/// (CET-1CEST,M3.5.0,M10.5.0/3) and the United States (EST5EDT,M3.2.0,M11.1.0): the
/// schedule's tests compute in it explicitly, whatever the machine's TZ.
/// `RuleZoneTests` checks it against the C library's tz database (date, in a child process).
struct RuleZone: UTCOffsets {
    /// The n-th Sunday of a month (-1: the last), and the time of day in UTC the change happens.
    struct Change {
        var month: Int
        var sunday: Int
        var utcSecond: Int64
    }

    var standard: Int
    var daylight: Int
    var starts: Change
    var ends: Change

    static let berlin = RuleZone(standard: 3600, daylight: 7200, starts: Change(month: 3, sunday: -1, utcSecond: 3600),
                                 ends: Change(month: 10, sunday: -1, utcSecond: 3600))
    static let newYork = RuleZone(standard: -18_000, daylight: -14_400, starts: Change(month: 3, sunday: 2, utcSecond: 7 * 3600),
                                  ends: Change(month: 11, sunday: 1, utcSecond: 6 * 3600))

    func offset(at instant: Int64) -> Int {
        let day = instant >= 0 ? instant / 86_400 : (instant - 86_399) / 86_400
        let year = Self.civil(day).year
        let start = Self.instant(of: starts, in: year)
        let end = Self.instant(of: ends, in: year)
        return instant >= start && instant < end ? daylight : standard
    }

    static func instant(of change: Change, in year: Int) -> Int64 {
        let first = days(year: year, month: change.month, day: 1)
        let firstSunday = first + Int64((6 - UTCZone.weekday(first) + 7) % 7)
        var sunday: Int64
        if change.sunday > 0 {
            sunday = firstSunday + Int64(7 * (change.sunday - 1))
        } else {
            let next = change.month == 12 ? days(year: year + 1, month: 1, day: 1) : days(year: year, month: change.month + 1, day: 1)
            sunday = firstSunday
            while sunday + 7 < next { sunday += 7 }
        }
        return sunday * 86_400 + change.utcSecond
    }

    /// Days since 1970-01-01 of a date (H. Hinnant's days_from_civil).
    static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date of a day since 1970-01-01.
    static func civil(_ days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (Int(yoe + era * 400 + (month <= 2 ? 1 : 0)), Int(month), Int(day))
    }

    /// Seconds since 1970 of a UTC date and time.
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int = 0) -> Int64 {
        days(year: year, month: month, day: day) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }
}

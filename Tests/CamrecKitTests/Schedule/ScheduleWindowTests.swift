@testable import CamrecKit
import Testing

/// Where a schedule's windows fall, in zones given explicitly (`RuleZone`, checked against
/// the tz database): every kind of day, windows over midnight, merging, and both changes
/// of the clocks in Berlin and New York in 2026.
struct ScheduleWindowTests {
    let utc = UTCZone()
    let berlin = RuleZone.berlin
    let newYork = RuleZone.newYork

    func position(_ spec: String, _ instant: Int64, _ zone: some UTCOffsets) throws -> SchedulePosition? {
        try Schedule(parsing: spec).position(at: instant, zone: zone)
    }

    func window(_ start: Int64, _ end: Int64) -> ScheduleWindow { ScheduleWindow(start: start, end: end) }

    @Test func insideBeforeAndTheEndIsNotInside() throws {
        let spec = "mon-fri 07:30-18:00, sat 09:00-13:00"
        // Wednesday 2 December 2026, 10:00 in Berlin (UTC+1).
        #expect(try position(spec, RuleZone.utc(2026, 12, 2, 9, 0), berlin)
                == .inside(window(RuleZone.utc(2026, 12, 2, 6, 30), RuleZone.utc(2026, 12, 2, 17, 0))))
        // Friday 18:30: Saturday's window is next.
        #expect(try position(spec, RuleZone.utc(2026, 12, 4, 17, 30), berlin)
                == .before(window(RuleZone.utc(2026, 12, 5, 8, 0), RuleZone.utc(2026, 12, 5, 12, 0))))
        // Saturday at 13:00 sharp: the window is over; Monday's is next.
        #expect(try position(spec, RuleZone.utc(2026, 12, 5, 12, 0), berlin)
                == .before(window(RuleZone.utc(2026, 12, 7, 6, 30), RuleZone.utc(2026, 12, 7, 17, 0))))
        // At a start sharp: inside.
        #expect(try position(spec, RuleZone.utc(2026, 12, 7, 6, 30), berlin)
                == .inside(window(RuleZone.utc(2026, 12, 7, 6, 30), RuleZone.utc(2026, 12, 7, 17, 0))))
    }

    @Test func everyDayOfTheWeekFallsOnItsDay() throws {
        // Monday 30 November 2026 … Sunday 6 December, in UTC.
        let names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
        for (index, name) in names.enumerated() {
            let day = Int64(index)
            let expected = window(RuleZone.utc(2026, 11, 30, 12, 0) + day * 86_400, RuleZone.utc(2026, 11, 30, 13, 0) + day * 86_400)
            #expect(try position("\(name) 12:00-13:00", RuleZone.utc(2026, 11, 30, 0, 0), utc) == .before(expected), "\(name)")
        }
        // A weekend list from Monday: Saturday first.
        #expect(try position("sat,sun 12:00-13:00", RuleZone.utc(2026, 11, 30, 0, 0), utc)
                == .before(window(RuleZone.utc(2026, 12, 5, 12, 0), RuleZone.utc(2026, 12, 5, 13, 0))))
    }

    @Test func aWindowOverMidnightBelongsToTheDayItStarts() throws {
        // Friday 22:00 to Saturday 06:00: at Saturday 03:00 inside Friday's window.
        let friday = window(RuleZone.utc(2026, 12, 4, 22, 0), RuleZone.utc(2026, 12, 5, 6, 0))
        #expect(try position("fri 22:00-06:00", RuleZone.utc(2026, 12, 5, 3, 0), utc) == .inside(friday))
        // Sunday 03:00: not inside (no Saturday window); next Friday's is next.
        #expect(try position("fri 22:00-06:00", RuleZone.utc(2026, 12, 6, 3, 0), utc)
                == .before(window(friday.start + 7 * 86_400, friday.end + 7 * 86_400)))
    }

    @Test func windowsThatOverlapOrTouchMerge() throws {
        let monday = RuleZone.utc(2026, 11, 30, 0, 0)
        #expect(try position("mon 09:00-12:00, mon 11:00-14:00, mon 14:00-15:00", monday, utc)
                == .before(window(monday + 9 * 3600, monday + 15 * 3600)))
        // Over midnight into the next day's window.
        #expect(try position("mon 22:00-02:00, tue 01:00-03:00", monday, utc)
                == .before(window(monday + 22 * 3600, monday + 27 * 3600)))
        // The whole week: one window for as far as the schedule looks (eight days on).
        guard case .inside(let always) = try position("daily 00:00-24:00", monday + 3600, utc) else {
            Issue.record("not inside")
            return
        }
        #expect(always.start <= monday && always.end >= monday + 8 * 86_400)
    }

    /// Berlin, 2026: the clocks go forward on Sunday 29 March (02:00 CET → 03:00 CEST) and
    /// back on Sunday 25 October (03:00 CEST → 02:00 CET).
    @Test func berlinAcrossBothChanges() throws {
        // The night over the change forward is 7 h long, the one over the change back 9 h.
        #expect(try position("daily 22:00-06:00", RuleZone.utc(2026, 3, 28, 21, 30), berlin)
                == .inside(window(RuleZone.utc(2026, 3, 28, 21, 0), RuleZone.utc(2026, 3, 29, 4, 0))))
        #expect(try position("daily 22:00-06:00", RuleZone.utc(2026, 10, 24, 21, 0), berlin)
                == .inside(window(RuleZone.utc(2026, 10, 24, 20, 0), RuleZone.utc(2026, 10, 25, 5, 0))))
        // A start in the skipped hour: the first instant after it (03:00 CEST).
        #expect(try position("sun 02:30-04:00", RuleZone.utc(2026, 3, 28, 12, 0), berlin)
                == .before(window(RuleZone.utc(2026, 3, 29, 1, 0), RuleZone.utc(2026, 3, 29, 2, 0))))
        // A window wholly in the skipped hour does not happen that day: next Sunday's.
        #expect(try position("sun 02:10-02:40", RuleZone.utc(2026, 3, 28, 12, 0), berlin)
                == .before(window(RuleZone.utc(2026, 4, 5, 0, 10), RuleZone.utc(2026, 4, 5, 0, 40))))
        // A start in the repeated hour: its first occurrence (02:30 CEST); the end at 05:00 CET.
        #expect(try position("sun 02:30-05:00", RuleZone.utc(2026, 10, 24, 12, 0), berlin)
                == .before(window(RuleZone.utc(2026, 10, 25, 0, 30), RuleZone.utc(2026, 10, 25, 4, 0))))
        // An end in the repeated hour: the first time the wall clock reads it (02:30 CEST).
        #expect(try position("sun 01:00-02:30", RuleZone.utc(2026, 10, 24, 12, 0), berlin)
                == .before(window(RuleZone.utc(2026, 10, 24, 23, 0), RuleZone.utc(2026, 10, 25, 0, 30))))
        // Inside the repeated hour's second pass (02:15 CET), the window that ended at the
        // first 02:30 is over: the next Sunday's is next.
        #expect(try position("sun 01:00-02:30", RuleZone.utc(2026, 10, 25, 1, 15), berlin)
                == .before(window(RuleZone.utc(2026, 11, 1, 0, 0), RuleZone.utc(2026, 11, 1, 1, 30))))
    }

    /// New York, 2026: forward on Sunday 8 March (02:00 EST → 03:00 EDT), back on Sunday
    /// 1 November (02:00 EDT → 01:00 EST).
    @Test func newYorkAcrossBothChanges() throws {
        // 01:30 to 03:00 is 30 minutes on the night forward, 2 h 30 min on the night back.
        #expect(try position("daily 01:30-03:00", RuleZone.utc(2026, 3, 8, 5, 0), newYork)
                == .before(window(RuleZone.utc(2026, 3, 8, 6, 30), RuleZone.utc(2026, 3, 8, 7, 0))))
        #expect(try position("daily 01:30-03:00", RuleZone.utc(2026, 11, 1, 5, 0), newYork)
                == .before(window(RuleZone.utc(2026, 11, 1, 5, 30), RuleZone.utc(2026, 11, 1, 8, 0))))
        // An over-midnight shift across each change: an hour shorter, an hour longer.
        #expect(try position("sat 20:00-08:00", RuleZone.utc(2026, 3, 7, 12, 0), newYork)
                == .before(window(RuleZone.utc(2026, 3, 8, 1, 0), RuleZone.utc(2026, 3, 8, 12, 0))))
        #expect(try position("sat 20:00-08:00", RuleZone.utc(2026, 10, 31, 12, 0), newYork)
                == .before(window(RuleZone.utc(2026, 11, 1, 0, 0), RuleZone.utc(2026, 11, 1, 13, 0))))
        // Ordinary days on either side keep their offsets (EST in winter, EDT in summer).
        #expect(try position("mon 09:00-17:00", RuleZone.utc(2026, 1, 5, 0, 0), newYork)
                == .before(window(RuleZone.utc(2026, 1, 5, 14, 0), RuleZone.utc(2026, 1, 5, 22, 0))))
        #expect(try position("mon 09:00-17:00", RuleZone.utc(2026, 7, 6, 0, 0), newYork)
                == .before(window(RuleZone.utc(2026, 7, 6, 13, 0), RuleZone.utc(2026, 7, 6, 21, 0))))
    }

    /// The machine's own zone goes through the C library (`localtime_r`): it agrees with
    /// UTC's arithmetic shifted by the offset the C library reports.
    @Test func theLocalZoneIsTheCLibrarys() {
        let zone = LocalZone()
        let instant = RuleZone.utc(2026, 12, 2, 12, 0)
        let (day, second) = zone.localDay(of: instant)
        #expect(day * 86_400 + second == instant + Int64(zone.offset(at: instant)))
        #expect(zone.instant(day: day, second: second) == instant)
    }
}

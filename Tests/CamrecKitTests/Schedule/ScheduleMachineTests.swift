@testable import CamrecKit
import Testing

/// What a scheduled run does next, from clock readings alone: waits, starts, windows
/// already recorded, and the wall clock stepped forward and back (NTP) or moved by the
/// changes of the clocks.
struct ScheduleMachineTests {
    static let second: Int64 = 1_000_000_000
    static let lead = 3 * second
    /// Monday 30 November 2026, 00:00 UTC.
    static let monday = RuleZone.utc(2026, 11, 30, 0, 0)

    /// A clock whose steady time starts at an arbitrary point and goes on with the wall's,
    /// except where a test steps the wall.
    struct Clock {
        var wall: Int64
        var steady: Int64 = 5_000 * second

        init(_ seconds: Int64) { wall = seconds * ScheduleMachineTests.second }

        var reading: ClockReading { ClockReading(wall: WallTime(seconds: 0, nanoseconds: wall), steady: steady) }

        mutating func pass(_ nanoseconds: Int64) {
            wall += nanoseconds
            steady += nanoseconds
        }

        /// The wall clock is set, the steady clock goes on.
        mutating func step(_ nanoseconds: Int64) { wall += nanoseconds }
    }

    func machine(_ spec: String = "daily 09:00-10:00") throws -> ScheduleMachine {
        ScheduleMachine(schedule: try Schedule(parsing: spec), zone: UTCZone(), lead: Self.lead)
    }

    static func window(day: Int64 = 0) -> ScheduleWindow {
        ScheduleWindow(start: monday + day * 86_400 + 9 * 3600, end: monday + day * 86_400 + 10 * 3600)
    }

    static func at(_ seconds: Int64) -> WallTime { WallTime(seconds: seconds, nanoseconds: 0) }

    @Test func waitsUntilTheLeadBeforeAWindowSayingSoOnce() throws {
        var machine = try machine()
        var clock = Clock(Self.monday + 8 * 3600)
        let opening = Self.at(Self.window().start).adding(nanoseconds: -Self.lead)
        #expect(machine.next(at: clock.reading) == .wait(until: opening, next: Self.window(), announce: true))
        // Woken early (a spurious wake, a small step): the same wait, not said again.
        clock.pass(10 * Self.second)
        #expect(machine.next(at: clock.reading) == .wait(until: opening, next: Self.window(), announce: false))
        // At the lead: record (the camera opens; the gate holds back frames until the start).
        clock = Clock(Self.window().start)
        clock.wall -= Self.lead
        #expect(machine.next(at: clock.reading) == .record(Self.window()))
    }

    @Test func startedInsideAWindowRecordsAtOnceThenWaitsForTheNext() throws {
        var machine = try machine()
        var clock = Clock(Self.monday + 9 * 3600 + 1800)
        #expect(machine.next(at: clock.reading) == .record(Self.window()))
        // The movie ended with the last frame before the end: a few ms before it.
        clock = Clock(Self.window().end)
        clock.wall -= 10_000_000
        machine.recorded(Self.window(), at: clock.reading)
        let next = machine.next(at: clock.reading)
        #expect(next == .wait(until: Self.at(Self.window(day: 1).start).adding(nanoseconds: -Self.lead),
                              next: Self.window(day: 1), announce: true))
    }

    /// --max-duration ended the window's movie early: the rest of the window is not recorded.
    @Test func aWindowCutShortIsNotStartedAgain() throws {
        var machine = try machine()
        var clock = Clock(Self.monday + 9 * 3600)
        #expect(machine.next(at: clock.reading) == .record(Self.window()))
        clock.pass(600 * Self.second)
        machine.recorded(Self.window(), at: clock.reading)
        guard case .wait(_, let next, _) = machine.next(at: clock.reading) else {
            Issue.record("not a wait")
            return
        }
        #expect(next == Self.window(day: 1))
    }

    /// NTP steps the clock back an hour just after a window: as the clock now reads, the
    /// window has an hour to go, and that hour is recorded.
    @Test func aClockSteppedBackIntoARecordedWindowRecordsItsRest() throws {
        var machine = try machine()
        var clock = Clock(Self.window().end)
        machine.recorded(Self.window(), at: clock.reading)
        clock.pass(Self.second)
        clock.step(-3600 * Self.second)
        #expect(machine.next(at: clock.reading) == .record(Self.window()))
    }

    /// A step back of under a second (NTP's usual correction) leaves a recorded window done.
    @Test func aSmallStepBackDoesNotStartAWindowAgain() throws {
        var machine = try machine()
        var clock = Clock(Self.window().end)
        machine.recorded(Self.window(), at: clock.reading)
        clock.pass(100_000_000)
        clock.step(-800_000_000)
        guard case .wait(_, let next, _) = machine.next(at: clock.reading) else {
            Issue.record("not a wait")
            return
        }
        #expect(next == Self.window(day: 1))
    }

    /// Stepped forward while waiting: into a window, it records at once (late); past a
    /// whole window, that window is gone and the next is waited for.
    @Test func aClockSteppedForwardStartsLateOrPassesOver() throws {
        var machine = try machine()
        var clock = Clock(Self.monday + 8 * 3600)
        _ = machine.next(at: clock.reading)
        clock.step(3600 * Self.second + 900 * Self.second)
        #expect(machine.next(at: clock.reading) == .record(Self.window()))

        machine = try self.machine()
        clock = Clock(Self.monday + 8 * 3600)
        _ = machine.next(at: clock.reading)
        clock.step(3 * 3600 * Self.second)
        #expect(machine.next(at: clock.reading) == .wait(until: Self.at(Self.window(day: 1).start).adding(nanoseconds: -Self.lead),
                                                         next: Self.window(day: 1), announce: true))
    }

    /// Across the change of the clocks in Berlin: the wait ends at the window's start as
    /// the wall clock reads it after the change (the machine only compares wall times).
    @Test func theNightTheClocksGoForward() throws {
        var machine = ScheduleMachine(schedule: try Schedule(parsing: "sun 08:00-09:00"), zone: RuleZone.berlin, lead: Self.lead)
        // Saturday 28 March 2026, 23:00 CET; the window is Sunday 08:00 CEST = 06:00 UTC.
        let clock = Clock(RuleZone.utc(2026, 3, 28, 22, 0))
        let window = ScheduleWindow(start: RuleZone.utc(2026, 3, 29, 6, 0), end: RuleZone.utc(2026, 3, 29, 7, 0))
        #expect(machine.next(at: clock.reading) == .wait(until: Self.at(window.start).adding(nanoseconds: -Self.lead),
                                                         next: window, announce: true))
    }
}

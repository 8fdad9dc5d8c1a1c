@testable import CamrecKit
import Foundation
import Testing

/// The system's schedule clock: a moment already past ends the wait at once, and a wake
/// (a stop) ends a wait for a moment far away, whenever it comes. (A step of the wall
/// clock needs root and would disturb the machine: `ScheduleMachineTests` and
/// `ScheduledRunTests` cover what camrec does with one.)
struct SystemScheduleClockTests {
    @Test func aMomentPastIsReachedAtOnce() throws {
        let clock = try SystemScheduleClock()
        let now = clock.now()
        #expect(clock.wait(until: now.wall.adding(nanoseconds: -1_000_000_000)) == .reached)
        #expect(clock.wait(until: WallTime(seconds: 0, nanoseconds: 0)) == .reached)
        #expect(clock.now().steady >= now.steady)
    }

    @Test func aWakeEndsAWaitBeforeOrDuringIt() throws {
        let clock = try SystemScheduleClock()
        let far = clock.now().wall.adding(nanoseconds: 3600 * 1_000_000_000)
        clock.wake()
        #expect(clock.wait(until: far) == .woken)
        let waker = Thread { clock.wake() }
        waker.start()
        #expect(clock.wait(until: far) == .woken)
    }
}

@testable import CamrecKit
import Foundation
import Synchronization
import Testing

/// `PeriodicTrigger` (`--still-every`): it calls its action every period, the first one
/// period after it starts, until stopped. Nothing here asserts how long anything took: a
/// trigger must fire at least so many times before a generous deadline, and a stopped one
/// must stay silent while a running one, started alongside, fires several more times.
@Suite struct PeriodicTriggerTests {
    final class Calls: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    @Test func firesAgainAndAgain() {
        let calls = Calls()
        let trigger = PeriodicTrigger(every: TimeSpec(nanoseconds: 20_000_000)) { calls.add() }
        defer { trigger.stop() }
        #expect(Wait.until(timeout: 60) { calls.value >= 5 }, "fired \(calls.value) times")
    }

    /// The first call is one period after the start, not at once: a trigger of an hour has
    /// not fired while one of 20 ms started beside it fires three times.
    @Test func firstCallComesAfterOnePeriod() {
        let fast = Calls(), slow = Calls()
        let fastTrigger = PeriodicTrigger(every: TimeSpec(nanoseconds: 20_000_000)) { fast.add() }
        let slowTrigger = PeriodicTrigger(every: .seconds(3600)) { slow.add() }
        defer {
            fastTrigger.stop()
            slowTrigger.stop()
        }
        #expect(Wait.until(timeout: 60) { fast.value >= 3 })
        #expect(slow.value == 0)
    }

    /// After `stop()` no new call starts (one already under way may finish), while an
    /// identical trigger left running fires five more times; stopping again is harmless.
    @Test func stopStopsIt() {
        let stopped = Calls(), running = Calls()
        let period = TimeSpec(nanoseconds: 10_000_000)
        let trigger = PeriodicTrigger(every: period) { stopped.add() }
        let reference = PeriodicTrigger(every: period) { running.add() }
        defer { reference.stop() }
        #expect(Wait.until(timeout: 60) { stopped.value >= 2 })
        trigger.stop()
        let atStop = stopped.value
        let referenceAtStop = running.value
        #expect(Wait.until(timeout: 60) { running.value >= referenceAtStop + 5 })
        #expect(stopped.value <= atStop + 1, "\(stopped.value - atStop) calls after stop()")
        trigger.stop()
    }

    /// A period of 0 (never asked for: `--still-every 0` is a usage error) is taken as a
    /// millisecond: the trigger fires, and stops.
    @Test func zeroPeriodIsClampedAndStops() {
        let calls = Calls()
        let trigger = PeriodicTrigger(every: .zero) { calls.add() }
        #expect(Wait.until(timeout: 60) { calls.value >= 3 })
        trigger.stop()
        let atStop = calls.value
        let reference = Calls()
        let referenceTrigger = PeriodicTrigger(every: TimeSpec(nanoseconds: 1_000_000)) { reference.add() }
        defer { referenceTrigger.stop() }
        #expect(Wait.until(timeout: 60) { reference.value >= 5 })
        #expect(calls.value <= atStop + 1)
    }
}

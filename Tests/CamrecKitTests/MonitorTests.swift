@testable import CamrecKit
import Synchronization
import Testing

/// `Monitor`: state reached only under its lock, and waits that re-read it after each wake.
@Suite struct MonitorTests {
    @Test func aWaitEndsWhenAnotherThreadMakesItsConditionTrue() {
        let monitor = Monitor(0)
        NamedThread.start("camrec-test-monitor") {
            for _ in 0..<5 { monitor.withLockWaking { $0 += 1 } }
        }
        let (seen, ready) = monitor.wait(until: { $0 == 5 }) { value, ready in (value, ready) }
        #expect(seen == 5 && ready)
    }

    @Test func aWaitPastItsDeadlineRunsTheBodyToldSo() {
        let monitor = Monitor(false)
        let ready = monitor.wait(until: { $0 }, deadline: .now) { _, ready in ready }
        #expect(ready == false)
    }

    @Test func aConditionAlreadyTrueDoesNotWait() {
        let monitor = Monitor(["a"])
        let result = monitor.wait(until: { !$0.isEmpty }, deadline: .now) { value, ready -> [String] in
            value.append("b")
            return ready ? value : []
        }
        #expect(result == ["a", "b"])
        #expect(monitor.withLock { $0 } == ["a", "b"])
    }

    /// A wait for ever (no deadline yet) ends once another thread sets a deadline that has
    /// passed: the deadline is read from the state again after the wake-up.
    @Test func aDeadlineSetWhileWaitingEndsTheWait() {
        struct Timed {
            var deadline: ContinuousClock.Instant?
            var done = false
        }
        let monitor = Monitor(Timed())
        // Set under the monitor's lock just before the wait, which releases the lock only as
        // it waits: the deadline below is set while the wait is under way.
        let asked = Mutex(false)
        NamedThread.start("camrec-test-monitor") {
            _ = Wait.until { asked.withLock { $0 } }
            monitor.withLockWaking { $0.deadline = .now }
            // Were the deadline never read again, the wait would last for ever: `done` ends
            // it after a while, so that the test fails rather than hangs.
            monitor.wait(until: \.done, deadline: .now + .seconds(30)) { _, _ in }
            monitor.withLockWaking { $0.done = true }
        }
        let ready = monitor.wait(until: { state in
            asked.withLock { $0 = true }
            return state.done
        }, deadline: \.deadline) { _, ready in ready }
        monitor.withLockWaking { $0.done = true }   // the thread above can end
        #expect(ready == false)
    }
}

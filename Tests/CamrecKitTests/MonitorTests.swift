@testable import CamrecKit
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
}

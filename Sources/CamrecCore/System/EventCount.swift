/// A count of events, and a condition broadcast at each: a thread reads `current`, looks
/// at what it waits for, then waits past what it read, so that nothing that happens in
/// between is missed. The recording branch's admitted frames wake the stills waiting for
/// their frame's place (`FrameGate.admitted`); a trim stage's sinks, bus and watchdog wake
/// its thread (`SinkActivity`).
package final class EventCount: Sendable {
    private let count = Monitor<UInt64>(0)

    package init() {}

    /// Events so far.
    package var current: UInt64 { count.withLock { $0 } }

    /// An event (from any thread): wakes every waiter. Takes the lock only to count.
    package func signal() {
        count.withLockWaking { $0 &+= 1 }
    }

    /// Blocks until an event comes after the `seen`-th.
    package func wait(since seen: UInt64) {
        count.wait(until: { $0 != seen }) { _, _ in }
    }

    /// Waits until an event comes after the `seen`-th, or `timeout` passes; true when one did.
    @discardableResult
    package func wait(since seen: UInt64, timeout: Duration) -> Bool {
        count.wait(until: { $0 != seen }, deadline: ContinuousClock.now + max(timeout, .zero)) { _, came in came }
    }
}

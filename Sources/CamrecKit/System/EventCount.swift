/// A count of events, and a condition broadcast at each: a thread reads `current`, looks
/// at what it waits for, then waits past what it read, so that nothing that happens in
/// between is missed. The recording branch's admitted frames wake the stills waiting for
/// their frame's place (`FrameGate.admitted`); a trim stage's sinks, bus and watchdog wake
/// its thread (`SinkActivity`).
final class EventCount: @unchecked Sendable {
    // @unchecked: `count` is guarded by `condition`'s mutex (a pthread condition needs its
    // own mutex, which `Mutex` cannot lend).
    private let condition = ThreadCondition()
    private var count: UInt64 = 0

    /// Events so far.
    var current: UInt64 { condition.withLock { count } }

    /// An event (from any thread): wakes every waiter. Takes the lock only to count.
    func signal() {
        condition.withLock {
            count &+= 1
            condition.broadcast()
        }
    }

    /// Blocks until an event comes after the `seen`-th.
    func wait(since seen: UInt64) {
        condition.withLock {
            while count == seen { condition.wait() }
        }
    }

    /// Waits until an event comes after the `seen`-th, or `timeout` passes; true when one did.
    @discardableResult
    func wait(since seen: UInt64, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + max(timeout, .zero)
        return condition.withLock {
            while count == seen {
                let left = deadline - ContinuousClock.now
                guard left > .zero else { return false }
                condition.wait(seconds: left / .seconds(1))
            }
            return true
        }
    }
}

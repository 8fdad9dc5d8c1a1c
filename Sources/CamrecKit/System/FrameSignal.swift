/// Tells threads that wait for the recording branch to let a frame through that it did:
/// a count of frames let through, and a condition broadcast at each. A still waits on it
/// for its frame's place in the movie instead of polling.
final class FrameSignal: @unchecked Sendable {
    // @unchecked: `count` is guarded by `condition`'s mutex (a pthread condition needs its
    // own mutex, which `Mutex` cannot lend).
    private let condition = ThreadCondition()
    private var count: UInt64 = 0

    /// Frames let through so far.
    var frames: UInt64 { condition.withLock { count } }

    /// A frame was let through: wakes every waiter.
    func notify() {
        condition.withLock {
            count &+= 1
            condition.broadcast()
        }
    }

    /// Waits until a frame comes after the `frames`-th, or `seconds` pass; true when one did.
    @discardableResult
    func wait(after frames: UInt64, seconds: Double) -> Bool {
        let deadline = ContinuousClock.now + .nanoseconds(Int64(max(0, seconds) * 1e9))
        return condition.withLock {
            while count == frames {
                let left = deadline - ContinuousClock.now
                guard left > .zero else { return false }
                condition.wait(seconds: Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18)
            }
            return true
        }
    }
}

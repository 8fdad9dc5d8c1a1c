/// State that threads share and wait on: what `Mutex` is, with a condition variable, for
/// the state a thread blocks on until another changes it (a clip finished, a frame come,
/// a feed ended). The state is reached only under the lock, through `withLock`; a wait
/// re-reads it after each wake-up (never through an access held across the wait, which the
/// compiler could cache).
package final class Monitor<State> {
    private let condition = ThreadCondition()
    // Only under `condition`'s lock.
    private var state: State

    package init(_ initial: State) { state = initial }

    /// `body` with the lock held.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try condition.withLock { try body(&state) }
    }

    /// `body` with the lock held, then every waiter woken to look at what it changed.
    package func withLockWaking<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try condition.withLock {
            defer { condition.broadcast() }
            return try body(&state)
        }
    }

    /// Waits until `ready` holds (at most until `deadline`; nil: for ever), then runs
    /// `body` under the same lock, told whether `ready` held (false: the time ran out).
    package func wait<Result>(
        until ready: (State) -> Bool, deadline: ContinuousClock.Instant? = nil,
        then body: (inout State, _ ready: Bool) throws -> Result
    ) rethrows -> Result {
        try wait(until: ready, deadline: { _ in deadline }, then: body)
    }

    /// Waits until `ready` holds or the deadline the state itself holds has passed (nil: none
    /// yet), then runs `body` under the same lock, told whether `ready` held. The deadline is
    /// read again after each wake-up, so a change that brings it nearer (a new call due
    /// sooner, in a watchdog) shortens the wait.
    package func wait<Result>(
        until ready: (State) -> Bool, deadline: (State) -> ContinuousClock.Instant?,
        then body: (inout State, _ ready: Bool) throws -> Result
    ) rethrows -> Result {
        try condition.withLock {
            while !ready(state) {
                guard let deadline = deadline(state) else {
                    condition.wait()
                    continue
                }
                let left = deadline - ContinuousClock.now
                guard left > .zero else { return try body(&state, false) }
                condition.wait(seconds: left / .seconds(1))
            }
            return try body(&state, true)
        }
    }
}

// `@unchecked`: `state` is read and written only with `condition`'s lock held (a pthread
// condition variable waits on its own mutex, which `Mutex` cannot lend), and a State that is
// Sendable may cross threads.
extension Monitor: @unchecked Sendable where State: Sendable {}

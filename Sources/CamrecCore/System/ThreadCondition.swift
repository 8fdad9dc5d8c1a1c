#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// A mutex and a condition variable (what Foundation's `NSCondition` is), so that camrec needs
/// only FoundationEssentials (see `NamedThread`). Use it as `NSCondition` is used: `lock()`,
/// check the predicate, `wait()` in a loop, `unlock()`; `signal()`/`broadcast()` under the lock.
// `@unchecked`: it is the lock itself, pthread objects behind pointers (never Sendable to
// the compiler) that pthreads make safe to share; `Mutex` offers no condition variable.
public final class ThreadCondition: @unchecked Sendable {
    // Heap-allocated: pthread objects must not move.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// `body` with the lock held.
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits (the lock held) until signalled; may wake spuriously, so check the predicate again.
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits (the lock held) until signalled or until `date`; false when the time ran out.
    @discardableResult
    public func wait(until date: Date) -> Bool {
        wait(seconds: date.timeIntervalSinceNow)
    }

    /// Waits (the lock held) until signalled or `seconds` have passed (monotonic clock); false
    /// when the time ran out.
    @discardableResult
    public func wait(seconds: Double) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let whole = seconds.rounded(.down)
        var nanoseconds = deadline.tv_nsec + Int(((max(0, seconds) - max(0, whole)) * 1e9))
        deadline.tv_sec += Int(max(0, whole)) + nanoseconds / 1_000_000_000
        nanoseconds %= 1_000_000_000
        deadline.tv_nsec = nanoseconds
        return pthread_cond_timedwait(condition, mutex, &deadline) == 0
    }

    public func signal() { pthread_cond_signal(condition) }
    public func broadcast() { pthread_cond_broadcast(condition) }
}

@testable import CamrecKit
@testable import Trim
import Testing

/// `BlockedCallWatchdog`: its thread unblocks a call at the call's deadline, and every call
/// at once on `cancelAll()`; a call that returns in time is left alone.
@Suite struct BlockedCallWatchdogTests {
    /// A call that blocks until its `unblock` runs (or, were it never to run, a minute has
    /// passed, so that a test fails rather than hangs).
    final class BlockedCall: Sendable {
        private struct State {
            var entered = false
            var unblocked = false
        }

        private let state = Monitor(State())

        /// Blocks; true when unblocked (false: the minute passed).
        func block() -> Bool {
            state.withLockWaking { $0.entered = true }
            return state.wait(until: \.unblocked, deadline: .now + .seconds(60)) { _, unblocked in unblocked }
        }

        func unblock() { state.withLockWaking { $0.unblocked = true } }

        /// Waits until the call is blocking (or has been).
        func waitUntilEntered() { state.wait(until: \.entered) { _, _ in } }
    }

    @Test func aCallThatReturnsInTimeIsNotUnblocked() {
        let watchdog = BlockedCallWatchdog(limit: .seconds(3600))
        defer { watchdog.stop() }
        let (result, firing) = watchdog.run(unblock: {}) { 42 }
        #expect(result == 42)
        #expect(firing == nil)
    }

    @Test func aBlockedCallIsUnblockedAtItsDeadline() {
        let watchdog = BlockedCallWatchdog(limit: .milliseconds(50))
        defer { watchdog.stop() }
        let call = BlockedCall()
        let (unblocked, firing) = watchdog.run(unblock: { call.unblock() }) { call.block() }
        #expect(unblocked)
        #expect(firing == .stalled)
    }

    /// The thread waits for the far deadline of the first call; the second call's nearer
    /// one must end that wait early.
    @Test func aCallDueSoonerThanTheOneWaitedForIsUnblockedAtItsOwnDeadline() {
        let watchdog = BlockedCallWatchdog(limit: .seconds(3600))
        defer { watchdog.stop() }
        let long = BlockedCall()
        // Whether the long call has returned, and why it was unblocked.
        let longDone = Monitor((returned: false, firing: BlockedCallWatchdog.Firing?.none))
        NamedThread.start("camrec-test-watchdog") {
            let (_, firing) = watchdog.run(unblock: { long.unblock() }) { long.block() }
            longDone.withLockWaking { $0 = (true, firing) }
        }
        long.waitUntilEntered()
        let short = BlockedCall()
        let (unblocked, firing) = watchdog.run(limit: .milliseconds(50), unblock: { short.unblock() }) { short.block() }
        #expect(unblocked)
        #expect(firing == .stalled)
        #expect(!longDone.withLock { $0.returned }, "the long call is not due yet")
        watchdog.cancelAll()
        #expect(longDone.wait(until: { $0.returned }) { done, _ in done.firing } == .cancelled)
    }

    @Test func cancelAllUnblocksABlockedCallAndEveryLaterOne() {
        let watchdog = BlockedCallWatchdog(limit: .seconds(3600))
        defer { watchdog.stop() }
        let call = BlockedCall()
        NamedThread.start("camrec-test-watchdog") {
            call.waitUntilEntered()
            watchdog.cancelAll()
        }
        let (unblocked, firing) = watchdog.run(unblock: { call.unblock() }) { call.block() }
        #expect(unblocked)
        #expect(firing == .cancelled)

        let later = BlockedCall()
        let (laterUnblocked, laterFiring) = watchdog.run(unblock: { later.unblock() }) { later.block() }
        #expect(laterUnblocked)
        #expect(laterFiring == .cancelled)
    }
}

@testable import CamrecKit
import Synchronization
import Testing

@Suite struct FreeMemoryTests {
    @Test func glibcHasMallocTrim() {
        #expect(FreeMemory.isAvailable)
    }

    /// Once per interval, the first time one interval after the start, never twice for
    /// the same moment.
    @Test func releasesAtMostOncePerInterval() {
        let calls = Mutex(0)
        let start = ContinuousClock.now
        var memory = FreeMemory(every: .seconds(30), start: start) { calls.withLock { $0 += 1 } }
        memory.releaseIfDue(start + .seconds(29))
        #expect(calls.withLock { $0 } == 0)
        memory.releaseIfDue(start + .seconds(30))
        memory.releaseIfDue(start + .seconds(31))
        #expect(calls.withLock { $0 } == 1)
        memory.releaseIfDue(start + .seconds(59))
        #expect(calls.withLock { $0 } == 1)
        memory.releaseIfDue(start + .seconds(61))
        #expect(calls.withLock { $0 } == 2)
    }
}

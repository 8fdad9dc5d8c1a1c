@testable import CamrecKit
import Foundation
import Testing

/// The wake a still's wait for its frame's place rests on.
@Suite struct EventCountTests {
    @Test func aFrameLetThroughWakesTheWaiter() {
        let signal = EventCount()
        let seen = signal.current
        let notifier = Thread { signal.signal() }
        notifier.start()
        // An hour: only the frame can end this wait within the test's bound.
        #expect(signal.wait(since: seen, timeout: .seconds(3600)))
        #expect(signal.current == seen + 1)
    }

    @Test func aFrameAlreadyLetThroughEndsTheWaitAtOnceAndNoFrameTimesOut() {
        let signal = EventCount()
        signal.signal()
        #expect(signal.wait(since: 0, timeout: .seconds(3600)))
        #expect(!signal.wait(since: signal.current, timeout: .milliseconds(10)))
    }
}

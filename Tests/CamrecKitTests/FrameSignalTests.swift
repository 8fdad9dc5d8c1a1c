@testable import CamrecKit
import Foundation
import Testing

/// The wake a still's wait for its frame's place rests on.
@Suite struct FrameSignalTests {
    @Test func aFrameLetThroughWakesTheWaiter() {
        let signal = FrameSignal()
        let seen = signal.frames
        let notifier = Thread { signal.notify() }
        notifier.start()
        // An hour: only the frame can end this wait within the test's bound.
        #expect(signal.wait(after: seen, seconds: 3600))
        #expect(signal.frames == seen + 1)
    }

    @Test func aFrameAlreadyLetThroughEndsTheWaitAtOnceAndNoFrameTimesOut() {
        let signal = FrameSignal()
        signal.notify()
        #expect(signal.wait(after: 0, seconds: 3600))
        #expect(!signal.wait(after: signal.frames, seconds: 0.01))
    }
}

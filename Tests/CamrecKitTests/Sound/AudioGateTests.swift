@testable import CamrecKit
import Testing

/// `AudioGate` across threads: sound that comes before the movie's first frame waits on
/// its streaming thread until the frame is known or the gate is released; the stop waits
/// for the sound past the movie's end.
@Suite struct AudioGateTests {
    /// `admit` on a thread of its own, as on the sound branch's streaming thread.
    static func admitting(_ gate: AudioGate, pts: UInt64, duration: UInt64) -> Monitor<AudioGate.Admission?> {
        let result = Monitor<AudioGate.Admission?>(nil)
        NamedThread.start("camrec-test-sound") {
            let admission = gate.admit(pts: pts, duration: duration)
            result.withLockWaking { $0 = admission }
        }
        return result
    }

    /// Waits for the admission (at most a minute, so that a test fails rather than hangs).
    static func admission(_ result: Monitor<AudioGate.Admission?>) -> AudioGate.Admission? {
        result.wait(until: { $0 != nil }, deadline: .now + .seconds(60)) { admission, _ in admission }
    }

    @Test func soundBeforeTheFirstFrameWaitsForItThenPasses() {
        let gate = AudioGate(length: nil)
        let result = Self.admitting(gate, pts: 50_000_000, duration: 10_000_000)
        // Once the sound is known to have come, it is waiting: no frame has started the movie.
        #expect(Wait.until { gate.mayStart(at: 40_000_000) == .hold && gate.mayStart(at: 60_000_000) == .go })
        #expect(result.withLock { $0 } == nil)
        gate.videoStarted(at: 45_000_000)
        #expect(Self.admission(result) == .pass)
        #expect(gate.passedSeconds == 0.01)
    }

    @Test func soundThatStraddlesTheFirstFrameIsCut() {
        let gate = AudioGate(length: nil)
        let result = Self.admitting(gate, pts: 50_000_000, duration: 10_000_000)
        #expect(Wait.until { gate.mayStart(at: 55_000_000) == .go })
        gate.videoStarted(at: 55_000_000)
        #expect(Self.admission(result) == .part(55_000_000..<60_000_000))
    }

    @Test func releaseEndsTheWaitAndTheSoundIsDropped() {
        let gate = AudioGate(length: nil)
        let result = Self.admitting(gate, pts: 50_000_000, duration: 10_000_000)
        #expect(Wait.until { gate.mayStart(at: 40_000_000) == .hold && gate.mayStart(at: 60_000_000) == .go })
        gate.release()
        #expect(Self.admission(result) == .drop)
        #expect(!gate.hasStarted)
    }

    @Test func theStopWaitsForSoundPastTheEnd() {
        let gate = AudioGate(length: 100_000_000)
        gate.videoStarted(at: 0)
        #expect(gate.admit(pts: 0, duration: 50_000_000) == .pass)
        #expect(!gate.waitUntilComplete(seconds: 0), "no sound past the end yet")
        NamedThread.start("camrec-test-sound") {
            _ = gate.admit(pts: 100_000_000, duration: 10_000_000)
        }
        #expect(gate.waitUntilComplete(seconds: 60))
        #expect(gate.isComplete)
    }

    @Test func releaseEndsTheStopsWait() {
        let gate = AudioGate(length: 100_000_000)
        gate.videoStarted(at: 0)
        NamedThread.start("camrec-test-stop") { gate.release() }
        #expect(!gate.waitUntilComplete(seconds: 60))
    }
}

@testable import CamrecKit
import Testing

/// The gate's three jobs, each on its own, with plain timestamps.
@Suite struct GateJobsTests {
    static let rate = FrameRateValue(numerator: 30, denominator: 1)
    static let frame: UInt64 = 33_333_333

    @Test func limitKeepsTheFramesThatStartWithinIt() {
        var limit = DurationLimit(limit: .seconds(3), rate: Self.rate)
        var admitted = 0
        for index in 0..<120 where limit.admits(5_000_000_000 + UInt64(index) * Self.frame) { admitted += 1 }
        #expect(admitted == 90)
        #expect(limit.isReached)
        let again = limit.admits(5_000_000_000)
        #expect(!again)   // closed for good
    }

    @Test func noLimitAdmitsEverything() {
        var limit = DurationLimit(limit: nil, rate: Self.rate)
        var admitted = 0
        for index in 0..<1000 where limit.admits(UInt64(index) * Self.frame) { admitted += 1 }
        #expect(admitted == 1000)
        #expect(!limit.isReached)
    }

    @Test func dropsAreTheMissingIntervals() {
        var drops = DropCounter(rate: Self.rate)
        for index: UInt64 in [0, 1, 2, 5, 6, 7, 8, 12] { drops.note(index * Self.frame) }
        #expect(drops.dropped == 2 + 3)
        // Jitter under half a frame is not a drop.
        var jitter = DropCounter(rate: Self.rate)
        for index: UInt64 in 0..<30 { jitter.note(index * Self.frame + (index % 2 == 0 ? 0 : 12_000_000)) }
        #expect(jitter.dropped == 0)
    }

    /// A frame lost just before the limit is counted when the limit is reached, though
    /// no later frame shows the gap.
    @Test func framesLostJustBeforeTheLimitAreCounted() {
        let gate = FrameGate(limit: .seconds(1), rate: Self.rate)
        for index: UInt64 in 0..<40 where index != 29 && index != 28 {
            _ = gate.admit(pts: 7_000 + index * Self.frame) {}
        }
        #expect(gate.frames == 28)
        #expect(gate.droppedFrames == 2)
        // A clean end counts nothing.
        let clean = FrameGate(limit: .seconds(1), rate: Self.rate)
        for index: UInt64 in 0..<40 { _ = clean.admit(pts: index * Self.frame) {} }
        #expect(clean.frames == 30)
        #expect(clean.droppedFrames == 0)
    }

    @Test func timelineFindsFramesByCameraTimestamp() {
        var timeline = FrameTimeline()
        for index: UInt64 in 0..<10 { timeline.append(pts: 1_000 + index * Self.frame, time: 1_000 + index * Self.frame) }
        #expect(timeline.frames == 10)
        #expect(timeline.lookup(pts: 1_000 + 4 * Self.frame, closed: false) == .found(index: 4, seconds: 0.133333332))
        #expect(timeline.lookup(pts: 1_000 + 20 * Self.frame, closed: false) == .pending)
        #expect(timeline.lookup(pts: 1_000 + 20 * Self.frame, closed: true) == .absent)
        #expect(timeline.lookup(pts: 1_000 + Self.frame / 2, closed: false) == .absent)   // between frames: never recorded
        #expect(timeline.seconds(frameDuration: 1.0 / 30) == 0.333)
    }

    @Test func timelineForgetsOldFramesButKeepsCounting() {
        var timeline = FrameTimeline()
        for index: UInt64 in 0..<2000 { timeline.append(pts: index * Self.frame, time: index * Self.frame) }
        #expect(timeline.frames == 2000)
        #expect(timeline.lookup(pts: 1999 * Self.frame, closed: false) == .found(index: 1999, seconds: 66.633332667))
        #expect(timeline.lookup(pts: 0, closed: false) == .absent)
    }
}

@testable import CamrecKit
import Testing

/// A schedule's window as a rule on frames' capture times: the frames before its start
/// are held back, the movie holds round(window × fps) frames when the camera was ready,
/// and the end counts as the limit (`FrameGate`).
struct WindowLimitTests {
    static let rate = FrameRateValue(numerator: 30, denominator: 1)
    static let frame: Int64 = 33_333_333
    /// The window: 3 s from a whole second.
    static let window = RecordingWindow(start: WallTime(seconds: 1_796_000_000, nanoseconds: 0),
                                        end: WallTime(seconds: 1_796_000_003, nanoseconds: 0))

    /// Capture times every frame from `first` (ns relative to the window's start), `count` of them.
    static func captures(from first: Int64, count: Int) -> [WallTime] {
        (0..<count).map { window.start.adding(nanoseconds: first + Int64($0) * frame) }
    }

    @Test(arguments: [-2_000_000_000, -2_012_345_678, -1_990_000_000] as [Int64])
    func aCameraReadyBeforeTheStartGivesExactlyTheWindowsFrames(from first: Int64) {
        var limit = WindowLimit(Self.window, rate: Self.rate)
        let decisions = Self.captures(from: first, count: 200).map { limit.decide(capture: $0) }
        #expect(decisions.count { $0 == .inside } == 90)
        // Early ones, then the window's, then ended for good.
        let firstInside = decisions.firstIndex(of: .inside) ?? 0
        #expect(decisions[..<firstInside].allSatisfy { $0 == .early })
        #expect(decisions[firstInside..<(firstInside + 90)].allSatisfy { $0 == .inside })
        #expect(decisions[(firstInside + 90)...].allSatisfy { $0 == .ended })
    }

    /// Started inside the window: from the first frame to the end.
    @Test func startedLateEndsAtTheEndAllTheSame() {
        var limit = WindowLimit(Self.window, rate: Self.rate)
        let decisions = Self.captures(from: 1_000_000_000, count: 100).map { limit.decide(capture: $0) }
        #expect(decisions.count { $0 == .inside } == 60 && decisions.first == .inside)
    }

    /// The wall clock stepped back half a second during the window: the window's end is
    /// where the stepped clock reads it, so 15 more frames are recorded.
    @Test func aClockSteppedDuringTheWindowMovesItsEnd() {
        var limit = WindowLimit(Self.window, rate: Self.rate)
        var inside = 0
        for index in 0..<200 {
            var capture = Self.window.start.adding(nanoseconds: Int64(index) * Self.frame)
            if index >= 30 { capture = capture.adding(nanoseconds: -500_000_000) }
            if limit.decide(capture: capture) == .inside { inside += 1 }
        }
        #expect(inside == 105)
    }

    /// Through the gate: early frames are held back (before the sound's and the barrier's
    /// gates ask), the window's are let through, and the end calls the limit's callback once.
    @Test func theGateHoldsBackEarlyFramesAndEndsAtTheWindow() {
        let gate = FrameGate(limit: nil, rate: Self.rate, window: Self.window)
        var limits = 0
        var passed = 0
        var early = 0
        for (index, capture) in Self.captures(from: -1_000_000_000, count: 150).enumerated() {
            let pts = UInt64(index) * UInt64(Self.frame)
            if gate.isBeforeWindow(pts: pts, capture: capture) {
                early += 1
                continue
            }
            if case .pass = gate.admit(pts: pts, capture: capture, onLimit: { limits += 1 }) { passed += 1 }
        }
        #expect(early == 30 && passed == 90 && limits == 1 && gate.isClosed)
    }

    /// --max-duration shorter than the window: the earlier of the two ends the movie.
    @Test func aShorterLimitEndsTheMovieFirst() {
        let gate = FrameGate(limit: .seconds(1), rate: Self.rate, window: Self.window)
        var passed = 0
        for (index, capture) in Self.captures(from: 0, count: 150).enumerated() {
            if case .pass = gate.admit(pts: UInt64(index) * UInt64(Self.frame), capture: capture, onLimit: {}) { passed += 1 }
        }
        #expect(passed == 30)
    }
}

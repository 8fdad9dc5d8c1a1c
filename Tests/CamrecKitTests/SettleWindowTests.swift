@testable import CamrecKit
import Testing

/// `--settle` for recordings: which frames are held back, and that the movie after them
/// is as exact as without (the limit counts from the first recorded frame).
@Suite struct SettleWindowTests {
    static let rate = FrameRateValue(numerator: 30, denominator: 1)
    static let frame: UInt64 = 33_333_333
    static let start: UInt64 = 7_000_000_000

    /// Brightness of frame `index` of a camera whose auto-exposure ramps up over 30 frames.
    static func ramp(_ index: Int) -> Double { index < 30 ? 16 + Double(index) * 3 : 106 }

    /// Offers `window` frames 1/30 s apart until it ends (at most 100), each settling one
    /// given to `measure` with its index and time; returns how many were held back.
    static func hold(_ window: inout SettleWindow, measure: (inout SettleWindow, Int, UInt64) throws -> Void) rethrows -> Int {
        var held = 0
        for index in 0..<100 {
            let time = start + UInt64(index) * frame
            guard window.isSettling(time) else { break }
            held += 1
            try measure(&window, index, time)
        }
        return held
    }

    @Test func holdsBackFramesUntilTheBrightnessIsStable() throws {
        var window = try #require(SettleWindow(limit: .seconds(5), rate: Self.rate))
        let held = Self.hold(&window) { window, index, time in
            let measured = window.measure(time) { Self.ramp(index) }
            #expect(measured)
        }
        // Frames 30…35 agree: the window ends at frame 36, the first recorded.
        #expect(held == 36)
        let outcome = try #require(window.outcome)
        #expect(outcome.stable)
        #expect(outcome.frames == 36)
        #expect(outcome.milliseconds == 1200)
    }

    /// A steady picture whose autofocus searches for 50 frames: held back until focus is
    /// reached (the brightness alone would have ended the window after 6 frames).
    @Test func waitsForAutofocusWhereTheCameraReportsIt() throws {
        var window = try #require(SettleWindow(limit: .seconds(5), rate: Self.rate))
        let held = Self.hold(&window) { window, index, time in
            _ = window.measure(time, brightness: { 100 }, focusBusy: { index < 50 })
        }
        #expect(held == 51)
        #expect(window.outcome?.stable == true)
    }

    @Test func endsAtTheLimitWhenThePictureNeverSettles() throws {
        var window = try #require(SettleWindow(limit: TimeSpec(nanoseconds: 500_000_000), rate: Self.rate))
        let held = Self.hold(&window) { window, index, time in
            _ = window.measure(time) { Double(index % 2 == 0 ? 20 : 200) }
        }
        #expect(held == 15)                       // 0.5 s of camera time at 30 fps
        #expect(window.outcome?.stable == false)
        #expect(window.outcome?.milliseconds == 500)
        #expect(SettleWindow(limit: .zero, rate: Self.rate) == nil)
    }

    @Test func framesNotMarkedAsSettlingAreLeftAlone() throws {
        var window = try #require(SettleWindow(limit: .seconds(1), rate: Self.rate))
        let settling = window.isSettling(Self.start)
        let other = window.measure(Self.start + 1) { 0 }
        let first = window.measure(Self.start) { 0 }
        let again = window.measure(Self.start) { 0 }   // once
        #expect(settling && !other && first && !again)
    }

    /// With settling frames first, `--max-duration 2s` still lets exactly 60 frames through,
    /// and the frames held back count neither as recorded nor as dropped.
    @Test func theLimitCountsFromTheFirstRecordedFrame() throws {
        let gate = FrameGate(limit: .seconds(2), rate: Self.rate, settle: .seconds(3))
        var settling = 0
        for index in 0..<300 {
            let pts = Self.start + UInt64(index) * Self.frame
            _ = gate.admit(pts: pts) {}
            if gate.measureSettling(pts: pts, brightness: { Self.ramp(index) }) { settling += 1 }
        }
        #expect(settling == 36)
        #expect(gate.frames == 60)
        #expect(gate.droppedFrames == 0)
        let outcome = try #require(gate.takeSettleOutcome())
        #expect(outcome.frames == 36)
        #expect(gate.takeSettleOutcome() == nil)   // reported once
    }

    @Test func withoutSettleNothingIsHeldBack() {
        let gate = FrameGate(limit: .seconds(1), rate: Self.rate)
        _ = gate.admit(pts: Self.start) {}
        #expect(!gate.measureSettling(pts: Self.start) { 0 })
        #expect(gate.frames == 1)
        #expect(gate.takeSettleOutcome() == nil)
    }
}

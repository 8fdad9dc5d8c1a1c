@testable import Trim
import Testing

/// Which frames a time-lapse keeps and decodes (``TimelapseSelection``): plain values.
@Suite struct TimelapseSelectionTests {
    /// `count` frames 1/30 s apart (ns), a keyframe every `gop`.
    static func frames(_ count: Int, gop: Int) -> (pts: [Int64], keys: [Bool]) {
        ((0..<count).map { Int64($0) * 1_000_000_000 / 30 }, (0..<count).map { $0 % gop == 0 })
    }

    @Test func exactlyTheFrameCapturedAtEachInstant() {
        let (pts, keys) = Self.frames(90, gop: 30)
        // Every 0.2 s from 0.1 s: frames 3, 9, 15, ... (the first at or after each instant).
        let selection = TimelapseSelection.make(pts: pts, isKeyframe: keys, from: 100_000_000, to: 3_000_000_000, step: 200_000_000)
        #expect(!selection.keyframesOnly)
        #expect(selection.kept == Array(stride(from: 3, to: 90, by: 6)))
        // Each kept frame decoded from its keyframe: 0...27 of the first GOP, and so on.
        #expect(selection.fed == Array(0...27) + Array(30...57) + Array(60...87))
    }

    /// Times truncated from ticks (frames of 33 333 333 ns: the 6th at 199 999 998 ns) are
    /// the frame at the instant, not one before it.
    @Test func truncatedTimesStillMeetTheirInstant() {
        let pts: [Int64] = (0..<60).map { (index: Int) -> Int64 in Int64(index) * 33_333_333 }
        let keys = (0..<60).map { $0 == 0 }
        let selection = TimelapseSelection.make(pts: pts, isKeyframe: keys, from: 0, to: 2_000_000_000, step: 200_000_000)
        #expect(selection.kept == Array(stride(from: 0, to: 60, by: 6)))
    }

    @Test func keyframesStandForInstantsAtLeastAGopApart() {
        let (pts, keys) = Self.frames(300, gop: 30)
        // Every 2.1 s from 0: the nearest keyframe (every 1 s): 0, 60 (2 s), 120 (4 s, for 4.2), 180 (6 s, 6.3), 240 (8 s, 8.4).
        let selection = TimelapseSelection.make(pts: pts, isKeyframe: keys, from: 0, to: 10_000_000_000, step: 2_100_000_000)
        #expect(selection.keyframesOnly)
        #expect(selection.kept == [0, 60, 120, 180, 240])
        #expect(selection.fed == selection.kept)
    }

    @Test func aStepShorterThanAGopDecodesExactly() {
        let (pts, keys) = Self.frames(120, gop: 60)
        let selection = TimelapseSelection.make(pts: pts, isKeyframe: keys, from: 0, to: 4_000_000_000, step: 1_000_000_000)
        #expect(!selection.keyframesOnly)
        #expect(selection.kept == [0, 30, 60, 90])
    }

    @Test func nothingInTheRangeKeepsNothing() {
        let (pts, keys) = Self.frames(30, gop: 30)
        let selection = TimelapseSelection.make(pts: pts, isKeyframe: keys, from: 2_000_000_000, to: 3_000_000_000, step: 100_000_000)
        #expect(selection.kept.isEmpty && selection.fed.isEmpty)
    }
}

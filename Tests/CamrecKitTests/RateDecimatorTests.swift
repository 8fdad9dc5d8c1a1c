@testable import CamrecKit
import Testing

@Suite struct RateDecimatorTests {
    static let camera = FrameRateValue(numerator: 30, denominator: 1)

    func kept(_ movie: FrameRateValue, stamps: [UInt64]) -> [Int] {
        let decimator = RateDecimator(cameraRate: Self.camera, movieRate: movie)
        return stamps.indices.filter { decimator.keep(pts: stamps[$0]) != nil }
    }

    /// 30 fps stamps with a few milliseconds of jitter either way.
    static let jittered: [UInt64] = (0..<90).map { index in
        let jitter: Int64 = [0, 3, -4, 2, -2, 4][index % 6] * 1_000_000
        return UInt64(Int64(index) * 33_333_333 + 1_000_000_000 + jitter)
    }

    @Test func halfTheRateKeepsEveryOtherFrame() {
        #expect(kept(FrameRateValue(numerator: 15, denominator: 1), stamps: Self.jittered) == Array(stride(from: 0, to: 90, by: 2)))
    }

    @Test func sevenAndAHalfKeepsEveryFourth() {
        #expect(kept(FrameRateValue(numerator: 15, denominator: 2), stamps: Self.jittered) == Array(stride(from: 0, to: 90, by: 4)))
    }

    @Test func twentyKeepsTwoOfThree() {
        // 20 fps from 30: slots every 50 ms, kept frames 0, 2, 3, 5, 6, 8, … (two of every three).
        let kept = kept(FrameRateValue(numerator: 20, denominator: 1), stamps: Self.jittered)
        #expect(kept.count == 60)
    }

    /// A frame late for its slot (the camera lost the one on time) fills that slot; the
    /// slot's time is what the gate reckons with, so lateness is never a lost frame.
    @Test func lateFrameFillsItsSlotOnTheGrid() {
        let decimator = RateDecimator(cameraRate: Self.camera, movieRate: FrameRateValue(numerator: 15, denominator: 1))
        let interval: UInt64 = 66_666_666
        #expect(decimator.keep(pts: 1_000_000_000) == .at(1_000_000_000))
        #expect(decimator.keep(pts: 1_033_333_333) == nil)
        // Frame 2 lost: frame 3 fills slot 1.
        #expect(decimator.keep(pts: 1_100_000_000) == .at(1_000_000_000 + interval))
        #expect(decimator.keep(pts: 1_133_333_333) == .at(1_000_000_000 + 2 * interval))
        #expect(decimator.keep(pts: nil) == .untimed)
    }

    @Test func aStallSkipsTheMissedSlotsOnly() {
        // Frames 10-19 lost by the camera: the next frame is kept, then the rhythm goes on.
        let stamps = Self.jittered.enumerated().filter { !(10..<20).contains($0.offset) }.map(\.element)
        let kept = kept(FrameRateValue(numerator: 15, denominator: 1), stamps: stamps)
        let keptFrames = kept.map { stamps[$0] }
        let original = keptFrames.compactMap { Self.jittered.firstIndex(of: $0) }
        #expect(original == [0, 2, 4, 6, 8] + Array(stride(from: 20, to: 90, by: 2)))
    }
}

@testable import CamrecKit
import Testing

@Suite struct TimeLapseGridTests {
    static let camera = FrameRateValue(numerator: 30, denominator: 1)
    static let movie = FrameRateValue(numerator: 30, denominator: 1)

    /// 30 fps stamps from 1 s, with a few milliseconds of jitter either way.
    static let jittered: [UInt64] = (0..<90).map { index in
        let jitter: Int64 = [0, 3, -4, 2, -2, 4][index % 6] * 1_000_000
        return UInt64(Int64(index) * 33_333_333 + 1_000_000_000 + jitter)
    }

    func grid(_ interval: TimeSpec, movie: FrameRateValue = movie) -> TimeLapseGrid {
        TimeLapseGrid(interval: interval, cameraRate: Self.camera, movieRate: movie)
    }

    func kept(_ interval: TimeSpec, stamps: [UInt64]) -> [Int] {
        var grid = grid(interval)
        return stamps.indices.filter { grid.keep(pts: stamps[$0]) != nil }
    }

    @Test func twoHundredMillisecondsAt30KeepsEverySixthFrame() {
        #expect(kept(TimeSpec(nanoseconds: 200_000_000), stamps: Self.jittered) == Array(stride(from: 0, to: 90, by: 6)))
    }

    @Test func aSecondKeepsEveryThirtiethFrame() {
        #expect(kept(.seconds(1), stamps: Self.jittered) == [0, 30, 60])
    }

    /// The kept frames are one movie frame apart from the first one's timestamp, and each
    /// has its slot on the capture-time grid.
    @Test func keptFramesAreRetimedOneMovieFrameApart() {
        var grid = grid(TimeSpec(nanoseconds: 200_000_000))
        let places = Self.jittered.compactMap { grid.keep(pts: $0) }
        #expect(places.count == 15)
        #expect(places.map(\.index) == Array(0..<15))
        let slots: [UInt64] = (0..<15).map { (index: Int) -> UInt64 in 1_000_000_000 + UInt64(index) * 200_000_000 }
        #expect(places.map(\.capture) == slots)
        // 1/30 s apart, to the nanosecond, without drift: frame 3 at exactly 100 ms.
        let movie: [UInt64] = (0..<15).map { (index: Int) -> UInt64 in 1_000_000_000 + UInt64(index) * 1_000_000_000 / 30 }
        #expect(places.map(\.movie) == movie)
        #expect(places[3].movie == 1_100_000_000)
        #expect(grid.kept == 15)
    }

    /// At 29.97 fps (30000/1001) frame 30000 starts exactly 1001 s in, and days of frames
    /// neither overflow nor drift.
    @Test func movieTimesAreExactFractions() {
        let grid = grid(.seconds(10), movie: FrameRateValue(numerator: 30000, denominator: 1001))
        #expect(grid.movieTime(30000) == 1001 * 1_000_000_000)
        #expect(grid.movieTime(1) == 33_366_666)
        // A year at one frame every second, played at 30 fps.
        let year = 365 * 24 * 3600
        #expect(self.grid(.seconds(1)).movieTime(year) == UInt64(year) * 1_000_000_000 / 30)
    }

    /// A stall (frames 10–49 lost) loses the slots in it; the next frame fills the slot it
    /// is in, then the grid goes on from the first frame. The movie has no gap.
    @Test func aStallLosesItsSlotsAndTheGridGoesOn() {
        var grid = grid(TimeSpec(nanoseconds: 200_000_000))
        let stamps = Self.jittered.enumerated().filter { !(10..<50).contains($0.offset) }
        let places = stamps.compactMap { frame in grid.keep(pts: frame.element).map { (frame.offset, $0) } }
        #expect(places.map(\.0) == [0, 6, 50, 54, 60, 66, 72, 78, 84])
        // Frame 50 (1.667 s) is in slot 8 (1.6 s); frame 54 (1.8 s) fills slot 9.
        #expect(places[2].1.capture == 1_000_000_000 + 8 * 200_000_000)
        #expect(places[3].1.capture == 1_000_000_000 + 9 * 200_000_000)
        #expect(places.map(\.1.index) == Array(0..<9))
    }

    @Test func aFrameWithoutATimestampIsDropped() {
        var grid = grid(.seconds(1))
        #expect(grid.keep(pts: nil) == nil)
        #expect(grid.keep(pts: 5) == TimeLapseGrid.Kept(capture: 5, movie: 5, index: 0))
        #expect(grid.keep(pts: nil) == nil)
        // Earlier than the origin (cannot happen on one stream): dropped.
        #expect(grid.keep(pts: 1) == nil)
    }
}

/// The gate with a time-lapse's grid: the limit, segments and lost frames in capture time,
/// the movie files' timelines in movie frames, stills looked up by camera timestamp.
@Suite struct TimeLapseGateTests {
    static let camera = FrameRateValue(numerator: 30, denominator: 1)
    static let frame: UInt64 = 33_333_333

    /// 3 s of capture at one frame every 200 ms, cut every second: 15 frames in three
    /// files of 5, each 5/30 s long; a segment starts where its frame is retimed to.
    @Test func limitAndSegmentsAreCaptureTimeAndFilesArePlayingTime() {
        let lapse = TimeLapse(interval: TimeSpec(nanoseconds: 200_000_000))
        let gate = FrameGate(limit: .seconds(3), rate: Self.camera, segment: .seconds(1), captureRate: lapse.captureRate)
        var grid = TimeLapseGrid(interval: lapse.interval, cameraRate: Self.camera, movieRate: Self.camera)
        var starts: [UInt64] = []
        var limitReached = 0
        for index: UInt64 in 0..<150 {
            let pts = 1_000_000_000 + index * Self.frame
            guard let kept = grid.keep(pts: pts) else {
                gate.passOver(pts: pts)
                continue
            }
            _ = gate.admit(pts: pts, slot: kept.capture, movieTime: kept.movie) { limitReached += 1 } onSegmentStart: { starts.append($0) }
        }
        #expect(gate.frames == 15 && limitReached == 1 && gate.droppedFrames == 0)
        #expect((0..<3).map { gate.segment($0)?.frames } == [5, 5, 5])
        #expect(gate.segment(0)?.seconds == 0.167)
        let movieFrames: [UInt64] = [5, 10]
        let expected: [UInt64] = movieFrames.map { (frames: UInt64) -> UInt64 in 1_000_000_000 + frames * 1_000_000_000 / 30 }
        #expect(starts == expected)
        // Three files of 0.167 s each (each rounded to the millisecond).
        #expect(gate.recordedSeconds(frameDuration: 1.0 / 30) == 0.501)
    }

    /// A still of a kept frame is found at its movie frame's time; one of a frame the
    /// time-lapse passed over is known absent at once (no wait for the next kept frame).
    @Test func stillsAreFoundOrAbsentAtOnce() {
        let lapse = TimeLapse(interval: .seconds(1))
        let gate = FrameGate(limit: nil, rate: Self.camera, captureRate: lapse.captureRate)
        var grid = TimeLapseGrid(interval: lapse.interval, cameraRate: Self.camera, movieRate: Self.camera)
        for index: UInt64 in 0..<40 {
            let pts = index * Self.frame
            if let kept = grid.keep(pts: pts) {
                _ = gate.admit(pts: pts, slot: kept.capture, movieTime: kept.movie) {}
            } else {
                gate.passOver(pts: pts)
            }
        }
        #expect(gate.movieFrame(pts: 30 * Self.frame) == .found(index: 1, seconds: 0.033333333))
        #expect(gate.movieFrame(pts: 35 * Self.frame) == .absent)
        #expect(gate.movieFrame(pts: 45 * Self.frame) == .pending)
    }
}

/// A time-lapse slower than one frame a second (`--timelapse 5s`: 0.2 kept frames a
/// second): the gate's jobs reckon with its real interval, not one of a second.
@Suite struct SlowTimeLapseGateTests {
    @Test func fiveSecondsLosesNothingAndKeepsTheLimit() {
        let lapse = TimeLapse(interval: .seconds(5))
        let gate = FrameGate(limit: .seconds(13), rate: FrameRateValue(30), segment: .seconds(10), captureRate: lapse.captureRate)
        var grid = TimeLapseGrid(interval: lapse.interval, cameraRate: FrameRateValue(30), movieRate: FrameRateValue(30))
        var segments = 0
        for index: UInt64 in 0..<600 {
            let pts = index * 33_333_333
            guard let kept = grid.keep(pts: pts) else { continue }
            _ = gate.admit(pts: pts, slot: kept.capture, movieTime: kept.movie) {} onSegmentStart: { _ in segments += 1 }
        }
        // round(13 / 5) = 3 slots, at 0, 5 and 10 s: no loss; the 10-s slot starts segment 2.
        #expect(gate.frames == 3)
        #expect(gate.droppedFrames == 0)
        #expect(segments == 1)
        var drops = DropCounter(rate: lapse.captureRate)
        for slot: UInt64 in [0, 1, 2, 4] { drops.note(slot * 5_000_000_000) }
        #expect(drops.dropped == 1)
    }
}

import Foundation
import Testing
@testable import CamrecKit
@testable import CamrecCore

/// Segments without GStreamer: where the clock cuts, how files are named and recognised,
/// what retention deletes, and what the gate reports per movie file.
struct SegmentTests {
    static let rate = FrameRateValue(numerator: 30, denominator: 1)
    static let frame: UInt64 = 33_333_333

    /// The frames (by index) that start a segment, for frame times `times`.
    func cuts(_ clock: inout SegmentClock, _ times: [UInt64]) -> [Int] {
        times.indices.filter { clock.startsSegment(at: times[$0]) }
    }

    @Test func cutsEveryLengthOfVideoOnTheRunsOwnGrid() {
        var clock = SegmentClock(length: .seconds(1), rate: Self.rate)
        // Jitter of a few milliseconds either way never moves a cut.
        var times: [UInt64] = []
        for index in 0..<95 {
            let ideal: UInt64 = 5_000_000_000 + UInt64(index) * Self.frame
            let late: UInt64 = index % 2 == 0 ? 3_000_000 : 0
            let early: UInt64 = index % 3 == 0 ? 2_000_000 : 0
            times.append(ideal + late - early)
        }
        #expect(cuts(&clock, times) == [30, 60, 90])
    }

    @Test func aLengthThatIsNotAWholeNumberOfFramesRoundsEachCutToTheNearestFrame() {
        var clock = SegmentClock(length: TimeSpec(nanoseconds: 1_300_000_000), rate: Self.rate)
        let times = (0..<120).map { UInt64($0) * Self.frame }
        // 1.3 s, 2.6 s, 3.9 s: frames 39, 78, 117.
        #expect(cuts(&clock, times) == [39, 78, 117])
    }

    @Test func aCameraStallCutsOnceNotOncePerMissedBoundary() {
        var clock = SegmentClock(length: .seconds(1), rate: Self.rate)
        let times: [UInt64] = [0, Self.frame, 3_500_000_000, 3_500_000_000 + Self.frame, 4_000_000_000]
        #expect(cuts(&clock, times) == [2, 4])
    }

    @Test func aRequestedSplitCutsAtTheNextFrameAndRestartsTheGrid() {
        var clock = SegmentClock(length: .seconds(1), rate: Self.rate)
        var cutsSeen: [Int] = []
        for index in 0..<80 {
            if index == 10 { clock.requestSplit() }
            if clock.startsSegment(at: UInt64(index) * Self.frame) { cutsSeen.append(index) }
        }
        #expect(cutsSeen == [10, 40, 70])
    }

    @Test("a pipeline that goes on with an earlier grid (several cameras, after a reconnect) cuts on that grid's boundaries")
    func continuingAGridCutsOnItsBoundaries() {
        // The first frame is 0.4 s into a segment of the grid: the first cut 0.6 s later.
        var clock = SegmentClock(length: .seconds(1), rate: Self.rate)
        clock.continueGrid(phase: 12 * Self.frame)
        #expect(cuts(&clock, (0..<80).map { UInt64($0) * Self.frame }) == [18, 48, 78])
        // A first frame within half a frame of a boundary is on it: the next cut a whole length later.
        var onBoundary = SegmentClock(length: .seconds(1), rate: Self.rate)
        onBoundary.continueGrid(phase: 1_000_000_000 - 5_000_000)
        #expect(cuts(&onBoundary, (0..<65).map { UInt64($0) * Self.frame }) == [30, 60])
        // A phase of several lengths counts as its remainder.
        var far = SegmentClock(length: .seconds(1), rate: Self.rate)
        far.continueGrid(phase: 3_000_000_000 + 12 * Self.frame)
        #expect(cuts(&far, (0..<50).map { UInt64($0) * Self.frame }) == [18, 48])
    }

    @Test func withoutALengthOnlyRequestsCut() {
        var clock = SegmentClock(length: nil, rate: Self.rate)
        #expect(cuts(&clock, (0..<300).map { UInt64($0) * Self.frame }) == [])
        clock.requestSplit()
        let cut = clock.startsSegment(at: 300 * Self.frame)
        #expect(cut)
    }

    @Test func aSplitAtAnInstantCutsAtTheFirstFrameAtOrAfterIt() {
        var clock = SegmentClock(length: nil, rate: Self.rate)
        let opens = clock.startsSegment(at: 0)
        #expect(!opens)
        // Asked for frame 20's instant while frames 10… are still on their way.
        clock.requestSplit(at: 20 * Self.frame - 1)
        let first = cuts(&clock, (10..<40).map { UInt64($0) * Self.frame })
        #expect(first == [10])   // the 10th of these: frame 20
        // Once cut, the request is spent.
        let later = cuts(&clock, (40..<80).map { UInt64($0) * Self.frame })
        #expect(later.isEmpty)
    }

    @Test func theGateCountsEachMovieFileAndAsksForTheCutAtTheFramesOwnTimestamp() {
        let gate = FrameGate(limit: .seconds(5), rate: Self.rate, segment: .seconds(2))
        var starts: [UInt64] = []
        var limitCalls = 0
        for index in 0..<200 {
            _ = gate.admit(pts: 1_000 + UInt64(index) * Self.frame, onLimit: { limitCalls += 1 },
                           onSegmentStart: { starts.append($0) })
        }
        #expect(starts == [1_000 + 60 * Self.frame, 1_000 + 120 * Self.frame])
        #expect(gate.segment(0) == SegmentSummary(frames: 60, seconds: 2))
        #expect(gate.segment(1) == SegmentSummary(frames: 60, seconds: 2))
        #expect(gate.segment(2) == SegmentSummary(frames: 30, seconds: 1))
        #expect(gate.segment(3) == nil)
        #expect(gate.frames == 150)
        #expect(gate.recordedSeconds(frameDuration: 1.0 / 30) == 5)
        #expect(limitCalls == 1)
        // A still of the last frame before a cut is found in the earlier file.
        #expect(gate.movieFrame(pts: 1_000 + 149 * Self.frame) == .found(index: 29, seconds: 29 * Double(Self.frame) / 1e9))
    }

    // MARK: names

    func date(_ text: String) throws -> Date {
        let formatter = ISO8601DateFormatter()
        return try #require(formatter.date(from: text))
    }

    @Test func aPlainNameGetsACounter() throws {
        let naming = try SegmentNaming(output: "rec/cam.mp4", utc: true)
        let when = try date("2026-11-30T08:09:10Z")
        #expect(naming.path(counter: 1, date: when) == "rec/cam-0001.mp4")
        #expect(naming.path(counter: 12345, date: when) == "rec/cam-12345.mp4")
        #expect(naming.path(counter: 2, date: when, collision: 3) == "rec/cam-0002-3.mp4")
        #expect(naming.match("cam-0007.mp4") == 7)
        #expect(naming.match("cam-0007-2.mp4") == 7)
        #expect(naming.match("cam.mp4") == nil)
        #expect(naming.match("cam-0007.mkv") == nil)
        #expect(naming.match("cam-still-0001.jpg") == nil)
        #expect(naming.match("xcam-0007.mp4") == nil)
        #expect(naming.stillBase == "rec/cam.mp4")
    }

    @Test("a run of several cameras with the same OUTPUT is not this series: cam-1-0001.mp4 is no segment of cam.mp4")
    func theCamerasSeriesAreNotTheOneCamerasSeries() throws {
        let one = try SegmentNaming(output: "rec/cam.mp4", utc: true)
        let first = try SegmentNaming(output: "rec/cam-1.mp4", utc: true)
        #expect(first.name(counter: 1, date: Date()) == "cam-1-0001.mp4")
        #expect(one.match("cam-1-0001.mp4") == nil)
        #expect(one.match("cam-2-0013.mp4") == nil)
        #expect(one.match("cam-12-0001-2.mp4") == nil)
        #expect(first.match("cam-0001.mp4") == nil)
        #expect(first.match("cam-1-0001.mp4") == 1)
        // Taken-name suffixes are -2, -3, …: never with a leading zero.
        #expect(one.match("cam-0001-02.mp4") == nil)
        #expect(one.match("cam-0001-10.mp4") == 1)
        let wide = try SegmentNaming(output: "c-%06d.mkv", utc: true)
        #expect(wide.match("c-000042.mkv") == 42)
        #expect(wide.match("c-1000000.mkv") == 1_000_000)
        #expect(wide.match("c-0042.mkv") == nil)
    }

    @Test func timeFieldsAndACounter() throws {
        let naming = try SegmentNaming(output: "/data/cam-%Y%m%d-%H%M%S-%03d.mkv", utc: true)
        let when = try date("2026-11-30T08:09:10Z")
        #expect(naming.path(counter: 4, date: when) == "/data/cam-20261130-080910-004.mkv")
        #expect(naming.match("cam-20261130-080910-004.mkv") == 4)
        #expect(naming.match("cam-20261130-080910-004-2.mkv") == 4)
        #expect(naming.match("cam-2026113-080910-004.mkv") == nil)
        #expect(naming.stillBase == "/data/cam.mkv")
    }

    @Test func percentDAloneIsTheDayNotACounter() throws {
        let naming = try SegmentNaming(output: "%Y-%m-%d_%H%M.mp4", utc: true)
        #expect(!naming.hasCounter)
        #expect(naming.path(counter: 9, date: try date("2026-01-02T03:04:05Z")) == "2026-01-02_0304.mp4")
        #expect(naming.match("2026-01-02_0304.mp4") == 0)
        #expect(naming.match("2026-01-02_0304-2.mp4") == 0)
        #expect(naming.stillBase == "segment.mp4")
    }

    @Test func localTimeFollowsTheZone() throws {
        let naming = try SegmentNaming(output: "%H.mp4", utc: false)
        let when = try date("2026-06-01T12:00:00Z")
        var seconds = time_t(when.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&seconds, &parts)
        #expect(naming.path(counter: 1, date: when) == String(format: "%02d.mp4", parts.tm_hour))
    }

    @Test(arguments: [
        ("a/%Y/cam.mp4", "folder"),
        ("cam-%04d-%02d.mp4", "2 counters"),
        ("cam-%Q.mp4", "%Q is not a time field"),
        ("cam-%.mp4", "%. is not a time field"),
        ("cam-%", "lone %"),
        ("cam-%3H.mp4", "only the counter takes digits"),
    ])
    func badPatternsAreUsageErrors(_ pattern: String, _ words: String) {
        #expect {
            _ = try SegmentNaming(output: pattern, utc: false)
        } throws: { error in
            (error as? CamrecError)?.kind == .usage && ((error as? CamrecError)?.message.contains(words) ?? false)
        }
    }

    @Test func isoStartTimesCarryTheZone() throws {
        let when = try date("2026-11-30T08:09:10Z")
        #expect(SegmentNaming.iso8601(when, utc: true) == "2026-11-30T08:09:10.000Z")
    }

    // MARK: retention

    typealias Candidate = RetentionPolicy.Candidate
    let files = (1...5).map { Candidate(path: "m\($0)", bytes: 100, modified: Double($0)) }

    @Test func keepDeletesTheOldestBeyondN() {
        let (deleted, short, _) = RetentionPolicy(keep: 3).victims(files.shuffled(), freeBytes: 0)
        #expect(deleted.map(\.0.path) == ["m1", "m2"])
        #expect(deleted.allSatisfy { $0.1 == .keep })
        #expect(!short)
    }

    @Test func keepSizeDeletesTheOldestUntilTheTotalFits() {
        let (deleted, _, _) = RetentionPolicy(keepBytes: 250).victims(files, freeBytes: 0)
        #expect(deleted.map(\.0.path) == ["m1", "m2", "m3"])
        #expect(deleted.allSatisfy { $0.1 == .keepSize })
    }

    @Test func minFreeDeletesUntilEnoughIsFreeOrNothingIsLeft() {
        let (deleted, short, _) = RetentionPolicy(minFree: 1_000).victims(files, freeBytes: 850)
        #expect(deleted.map(\.0.path) == ["m1", "m2"])
        #expect(!short)
        // The newest is always kept.
        let (all, stillShort, _) = RetentionPolicy(minFree: 10_000).victims(files, freeBytes: 850)
        #expect(all.map(\.0.path) == ["m1", "m2", "m3", "m4"])
        #expect(stillShort)
        #expect(RetentionPolicy(keepBytes: 10).victims(files, freeBytes: 0).deletions.count == 4)
        #expect(RetentionPolicy(minFree: 10_000).victims([], freeBytes: 850).stillShort)
    }

    @Test func heldFilesArePassedOverForTheNextOldestAndWait() {
        // m1 and m3 have an --on-file command running: --keep 3 deletes m2 and m4 instead.
        let (deleted, _, waiting) = RetentionPolicy(keep: 2).victims(files, freeBytes: 0, held: ["m1", "m3"])
        #expect(deleted.map(\.0.path) == ["m2", "m4"])
        #expect(waiting == ["m1", "m3"])
        // Every deletable one held: nothing goes, and the rule waits.
        let (none, _, all) = RetentionPolicy(keep: 1).victims(files, freeBytes: 0, held: ["m1", "m2", "m3", "m4"])
        #expect(none.isEmpty)
        #expect(all == ["m1", "m2", "m3", "m4"])
        // The newest is kept whether held or not, and a met rule touches nothing held.
        #expect(RetentionPolicy(keep: 5).victims(files, freeBytes: 0, held: ["m1"]).waiting.isEmpty)
    }

    @Test func rulesCombineAndNothingGoesWhenAllAreMet() {
        let (deleted, _, _) = RetentionPolicy(keep: 4, keepBytes: 1_000, minFree: 100).victims(files, freeBytes: 500)
        #expect(deleted.map(\.0.path) == ["m1"])
        #expect(RetentionPolicy(keep: 10, keepBytes: 10_000, minFree: 10).victims(files, freeBytes: 500).deletions.isEmpty)
    }

    @Test func aLowFreeSpaceStopsTheRecordingCleanly() {
        var machine = RecordingMachine(start: .now)
        let now = ContinuousClock.now
        let first = machine.handle(.diskLow(now))
        #expect(first == [.report(.stopping(.diskFull)), .sendEndOfStream])
        let again = machine.handle(.diskLow(now))
        #expect(again == [])
        let end = machine.handle(.endOfStream())
        #expect(end == [.finish(requested: .diskFull, message: nil)])
    }
}

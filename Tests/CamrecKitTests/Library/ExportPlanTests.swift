@testable import CamrecKit
@testable import Library
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `camrec export`'s times (``ExportTime``) and which movies go into which output
/// (``ExportPlan``): plain values, no files.
@Suite struct ExportPlanTests {
    func file(_ name: String, _ start: Int64?, seconds: Double = 1, health: LibraryFile.Health = .complete) -> LibraryFile {
        LibraryFile(path: "rec/" + name, name: RecordingName(name), kind: .movie, format: "mp4", startMilliseconds: start,
                    timeSource: .captureTime, duration: seconds, frames: Int(seconds * 30), bytes: 1000, health: health)
    }

    func series(_ files: [LibraryFile]) throws -> LibrarySeries {
        try #require(Library(files).series.first)
    }

    func plan(_ files: [LibraryFile], from: Int64, to: Int64, split: Bool = false,
              differ: Set<String> = []) throws -> ExportPlan {
        try ExportPlan.make(series: try series(files), from: from, to: to, splitAtGaps: split, describe: { "\($0)" }) { _, after in
            differ.contains(after.path) ? "the video's sample description differs" : nil
        }
    }

    // MARK: Times

    @Test(arguments: [
        ("90", ExportTime.offset(90_000_000_000)),
        ("2m", .offset(120_000_000_000)),
        ("1.5", .offset(1_500_000_000)),
        ("+1:30", .offset(90_000_000_000)),
        ("-5m", .offset(-300_000_000_000)),
        ("10:04", .clock(.init(date: nil, hour: 10, minute: 4, second: 0, milliseconds: 0, zoneSeconds: nil))),
        ("10:04:30.25", .clock(.init(date: nil, hour: 10, minute: 4, second: 30, milliseconds: 250, zoneSeconds: nil))),
        ("2026-12-01 10:04:30.250", .clock(.init(date: (2026, 12, 1), hour: 10, minute: 4, second: 30, milliseconds: 250, zoneSeconds: nil))),
        ("2026-12-01T10:04:30Z", .clock(.init(date: (2026, 12, 1), hour: 10, minute: 4, second: 30, milliseconds: 0, zoneSeconds: 0))),
        ("2026-12-01T10:04:30.5+01:00", .clock(.init(date: (2026, 12, 1), hour: 10, minute: 4, second: 30, milliseconds: 500, zoneSeconds: 3600))),
        ("10:04:30-0530", .clock(.init(date: nil, hour: 10, minute: 4, second: 30, milliseconds: 0, zoneSeconds: -19800))),
    ])
    func timesParse(text: String, expected: ExportTime) throws {
        #expect(try ExportTime.parse(text, option: "--from") == expected)
    }

    @Test(arguments: ["", "yesterday", "25:00", "10:60", "10:4", "2026-13-01 10:00", "10:00:00.", "10:00+15:00", "1:2:3:4", "+x"])
    func badTimesAreUsageErrors(text: String) {
        #expect(throws: CamrecError.self) { try ExportTime.parse(text, option: "--from") }
        do {
            _ = try ExportTime.parse(text, option: "--from")
        } catch {
            #expect(error.kind == .usage && error.message.hasPrefix("--from '\(text)'"), "\(error.message)")
        }
    }

    @Test func clockTimesResolveOnTheSeriesDay() throws {
        // 2026-12-01 23:30:00.000 UTC to 2026-12-02 00:30:00.000 UTC.
        let start: Int64 = 1_796_167_800_000
        let end = start + 3_600_000
        func at(_ text: String, notBefore: Int64? = nil) throws -> Int64 {
            try ExportTime.parse(text, option: "--from").resolve(start: start, end: end, notBefore: notBefore, utc: true)
        }
        #expect(try at("23:45") == start + 900_000)
        // After midnight: the next day of the series.
        #expect(try at("00:10") == start + 2_400_000)
        // --to: the first such time after --from.
        #expect(try at("00:10", notBefore: start + 900_000) == start + 2_400_000)
        // Before the series on its only day: that day (the cut begins at the start).
        #expect(try at("23:00") == start - 1_800_000)
        #expect(try at("2026-12-02T00:10:00Z") == start + 2_400_000)
        #expect(try at("2026-12-02T01:10:00+01:00") == start + 2_400_000)
        #expect(try at("90") == start + 90_000)
        #expect(try at("-1m") == end - 60_000)
    }

    @Test func localTimesAreTheMachinesZone() throws {
        // The local clock time of an instant (as the C library gives it), written back.
        let start: Int64 = 1_782_892_800_000
        var seconds = time_t(start / 1000 + 1)
        var parts = tm()
        localtime_r(&seconds, &parts)
        let text = String(cFormat: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
        let resolved = try ExportTime.parse(text, option: "--from").resolve(start: start, end: start + 60_000, utc: false)
        #expect(resolved == start + 1000, "\(text)")
        let utc = try ExportTime.parse("08:00:01", option: "--from").resolve(start: start, end: start + 60_000, utc: true)
        #expect(utc == start + 1000)
    }

    // MARK: Plans

    @Test func theMoviesOfTheRangeMakeOneOutput() throws {
        let files = (0..<5).map { file("cam-000\($0 + 1).mp4", 10_000 + Int64($0) * 1000) }
        let made = try plan(files, from: 11_500, to: 13_200)
        #expect(made.outputs.count == 1)
        #expect(made.outputs[0].movies.map(\.path) == ["rec/cam-0002.mp4", "rec/cam-0003.mp4", "rec/cam-0004.mp4"])
        #expect(made.outputs[0].chapterStarts.isEmpty && made.outputs[0].splitReason == nil)
        // A range ending exactly where a movie starts does not take it.
        #expect(try plan(files, from: 10_000, to: 12_000).outputs[0].movies.count == 2)
    }

    @Test func aGapIsAChapterOrASplit() throws {
        let files = [file("cam-0001.mp4", 10_000), file("cam-0002.mp4", 11_000), file("cam-0003.mp4", 15_000)]
        let joined = try plan(files, from: 10_000, to: 16_000)
        #expect(joined.outputs.count == 1)
        #expect(joined.outputs[0].chapterStarts == ["rec/cam-0003.mp4"])
        #expect(joined.outputs[0].gaps.count == 1)
        let split = try plan(files, from: 10_000, to: 16_000, split: true)
        #expect(split.outputs.map { $0.movies.count } == [2, 1])
        #expect(split.outputs[1].splitReason?.contains("gap of 3.000 s") == true)
    }

    @Test func otherParametersAlwaysSplit() throws {
        let files = [file("cam-0001.mp4", 10_000), file("cam-0002.mp4", 11_000), file("cam-0003.mp4", 12_000)]
        let made = try plan(files, from: 10_000, to: 13_000, differ: ["rec/cam-0003.mp4"])
        #expect(made.outputs.map { $0.movies.count } == [2, 1])
        #expect(made.outputs[1].splitReason?.contains("cannot follow rec/cam-0002.mp4") == true)
        // --reencode joins them again, in one group.
        #expect(made.outputs[1].splitOnParameters && !made.outputs[0].splitOnParameters)
        #expect(made.reencodedGroups.map { $0.map { $0.movies.count } } == [[2, 1]])
    }

    /// With --split-at-gaps and --reencode, a gap still splits; a difference of parameters
    /// after a gap joins (the gap is kept with the part after it).
    @Test func reencodeGroupsEndOnlyAtGapSplits() throws {
        let files = [file("cam-0001.mp4", 10_000), file("cam-0002.mp4", 11_000), file("cam-0003.mp4", 15_000),
                     file("cam-0004.mp4", 16_000)]
        let split = try plan(files, from: 10_000, to: 17_000, split: true, differ: ["rec/cam-0004.mp4"])
        #expect(split.outputs.map { $0.movies.count } == [2, 1, 1])
        #expect(split.reencodedGroups.map { $0.map { $0.movies.count } } == [[2], [1, 1]])
        let joined = try plan(files, from: 10_000, to: 17_000, differ: ["rec/cam-0003.mp4"])
        #expect(joined.outputs.map { $0.movies.count } == [2, 2])
        #expect(joined.outputs[1].gapBefore != nil)
        #expect(joined.reencodedGroups.count == 1)
    }

    @Test func unfinishedOrUnreadableMoviesInTheRangeAreRefused() throws {
        let files = [file("cam-0001.mp4", 10_000), file("cam-0002.partial.mp4", 11_000, health: .unfinished),
                     file("cam-0003.mp4", 12_000, health: .unreadable("cut short"))]
        do {
            _ = try plan(files, from: 10_000, to: 13_000)
            Issue.record("no error")
        } catch let error as CamrecError {
            #expect(error.kind == .invalidInput)
            #expect(error.message.contains("rec/cam-0002.partial.mp4 is unfinished: run camrec recover"), "\(error.message)")
            #expect(error.message.contains("rec/cam-0003.mp4 is unreadable (cut short)"), "\(error.message)")
        } catch {
            Issue.record("\(error)")
        }
        // Outside the range they do not matter.
        #expect(try plan(files, from: 10_000, to: 10_900).outputs[0].movies.count == 1)
    }

    @Test func aRangeWithoutFramesIsRefused() throws {
        let files = [file("cam-0001.mp4", 10_000), file("cam-0002.mp4", 20_000)]
        #expect(throws: CamrecError.self) { try plan(files, from: 12_000, to: 19_000) }
        #expect(throws: CamrecError.self) { try plan(files, from: 30_000, to: 40_000) }
    }

    @Test func severalOutputsAreNumbered() throws {
        let request = try ExportRequest(series: ["cam.mp4"], from: nil, to: nil, output: "out/day.mp4", splitAtGaps: false,
                                        force: false, utc: false)
        #expect(request.outputPaths(count: 1) == ["out/day.mp4"])
        #expect(request.outputPaths(count: 2) == ["out/day-1.mp4", "out/day-2.mp4"])
        #expect(throws: CamrecError.self) {
            try ExportRequest(series: ["cam.mp4"], from: nil, to: nil, output: "day.mkv", splitAtGaps: false, force: false, utc: false)
        }
        #expect(throws: CamrecError.self) {
            try ExportRequest(series: [], from: nil, to: nil, output: "day.mp4", splitAtGaps: false, force: false, utc: false)
        }
    }

    @Test func missingMoviesInTheRangeAreNamed() throws {
        // cam-0003 and cam-0004 are gone: a hole from 12 s to 14 s.
        let files = [file("cam-0001.mp4", 10_000), file("cam-0002.mp4", 11_000), file("cam-0005.mp4", 14_000)]
        do {
            _ = try plan(files, from: 10_500, to: 14_500)
            Issue.record("no error")
        } catch let error as CamrecError {
            #expect(error.kind == .noCamera)
            #expect(error.message.hasPrefix("cam-0003.mp4, cam-0004.mp4 are missing between rec/cam-0002.mp4 and rec/cam-0005.mp4"),
                    "\(error.message)")
        } catch {
            Issue.record("\(error)")
        }
        // A range that does not reach into the hole is fine; so is a hole of time-field names.
        #expect(try plan(files, from: 10_000, to: 11_500).outputs.count == 1)
        #expect(try ExportPlan.make(series: try series(files), from: 10_000, to: 15_000, splitAtGaps: false,
                                    countersAreSequential: false, describe: { "\($0)" }) { _, _ in nil }.outputs.count == 1)
        // A restart numbers on: a gap without a skipped counter is a gap, not a loss.
        let restarted = [file("cam-0001.mp4", 10_000), file("cam-0002.mp4", 20_000)]
        #expect(try plan(restarted, from: 10_000, to: 21_000).outputs[0].chapterStarts == ["rec/cam-0002.mp4"])
    }
}

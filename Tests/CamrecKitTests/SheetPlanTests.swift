@testable import CamrecKit
@testable import Library
import CamrecCore
import MP4
import Testing

/// The contact sheet's moments, grid and request, without GStreamer.
@Suite("Contact sheet plan")
struct SheetPlanTests {
    @Test func countPicksTheMiddleOfEqualSpansAcrossMovies() {
        let plan = SheetPlan(durations: [2_000_000_000, 2_000_000_000], selection: .count(4))
        #expect(plan.moments == [.init(input: 0, time: 500_000_000), .init(input: 0, time: 1_500_000_000),
                                 .init(input: 1, time: 500_000_000), .init(input: 1, time: 1_500_000_000)])
        #expect(plan.tolerance == 250_000_000)
    }

    @Test func everyStartsAtZeroAndStopsBeforeTheEnd() {
        let plan = SheetPlan(durations: [3_000_000_000, 1_000_000_000], selection: .every(TimeSpec(nanoseconds: 1_500_000_000)))
        #expect(plan.moments == [.init(input: 0, time: 0), .init(input: 0, time: 1_500_000_000), .init(input: 1, time: 0)])
        #expect(plan.tolerance == 375_000_000)
        let long = SheetPlan(durations: [3_600_000_000_000], selection: .every(TimeSpec(nanoseconds: 1_000_000_000)), limit: 400)
        #expect(long.moments.count == 400)
        #expect(SheetPlan(durations: [10_000_000_000_000], selection: .count(2)).tolerance == 500_000_000)
    }

    @Test func theGridHoldsEveryTileWithItsCaption() {
        let grid = SheetGrid(tiles: 7, columns: 3, tileWidth: 320, tileHeight: 180)
        #expect(grid.rows == 3 && grid.columns == 3)
        #expect(grid.width == 4 + 3 * 324 && grid.height == 4 + 3 * (180 + 24 + 4))
        #expect(grid.origin(of: 4) == (4 + 324, 4 + 208))
        #expect(SheetGrid(tiles: 2, columns: 4, tileWidth: 320, tileHeight: 180).columns == 2)
    }

    @Test func theRequestIsCheckedBeforeAnyMovieIsOpened() throws {
        let request = try SheetRequest(inputs: ["a.mp4"], output: "s.PNG", count: nil, every: nil, columns: nil, width: "330", force: false)
        #expect(request.selection == .count(12) && request.columns == 4 && request.tileWidth == 328 && request.format == .png)
        let refusals: [(String?, String?, String?, String?, String?, String)] = [
            (nil, nil, nil, nil, nil, "give the sheet to write with -o"),
            ("s.gif", nil, nil, nil, nil, "end the name with"),
            ("s.jpg", "401", nil, nil, nil, "--count '401'"),
            ("s.jpg", "2", "1s", nil, nil, "contradict"),
            ("s.jpg", nil, "0s", nil, nil, "--every '0s'"),
            ("s.jpg", nil, nil, "21", nil, "--columns '21'"),
            ("s.jpg", nil, nil, nil, "32", "--width '32'"),
        ]
        for (output, count, every, columns, width, message) in refusals {
            #expect {
                try SheetRequest(inputs: ["a.mp4"], output: output, count: count, every: every, columns: columns, width: width, force: false)
            } throws: { error in
                (error as? CamrecError).map { $0.kind == .usage && $0.message.contains(message) } ?? false
            }
        }
        #expect(throws: CamrecError.self) {
            try SheetRequest(inputs: [], output: "s.jpg", count: nil, every: nil, columns: nil, width: nil, force: false)
        }
    }

    @Test func captionsAndTimes() {
        #expect(ContactSheet.clock(3_723_456_000_000) == "01:02:03.456")
        #expect(ContactSheet.clock(0) == "00:00:00.000")
        #expect(ContactSheet.caption(CaptureTimeStamp(unixMilliseconds: 1_796_115_870_250, utcOffsetSeconds: 3600)) == "2026-12-01 10:04:30.250")
    }
}

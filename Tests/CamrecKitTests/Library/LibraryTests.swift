@testable import CamrecKit
@testable import Library
import Testing

/// ``Library`` groups files into series by their names and finds the gaps, overlaps and
/// Live Photos by their times: plain values, no files.
@Suite struct LibraryTests {
    /// A movie (or clip, or still) named `name`, starting at `start` ms, `seconds` long at 30 fps.
    func file(_ name: String, _ start: Int64?, seconds: Double = 1, kind: LibraryFile.Kind? = nil,
              health: LibraryFile.Health = .complete) -> LibraryFile {
        let parsed = RecordingName(name)
        let kind = kind ?? (parsed.marker == .still ? .still : parsed.marker == .clip ? .clip : .movie)
        return LibraryFile(path: "rec/" + name, name: parsed, kind: kind, format: "mp4", startMilliseconds: start,
                           timeSource: .captureTime, duration: kind == .still ? nil : seconds,
                           frames: kind == .still ? nil : Int(seconds * 30), bytes: 1000, health: health)
    }

    @Test(arguments: [
        ("cam-0001.mp4", "cam", RecordingName.Marker.none, false),
        ("cam-0002.partial.mp4", "cam", .none, true),
        ("cam-0003-2.mp4", "cam", .none, false),
        ("cam.mp4", "cam", .none, false),
        ("lab-1-0001.mkv", "lab-1", .none, false),
        ("lab-2.mkv", "lab-2", .none, false),
        ("cam-clip-0001.mp4", "cam", .clip, false),
        ("cam-clip-0002.partial-3.mp4", "cam", .clip, true),
        ("lab-1-still-0001.jpg", "lab-1", .still, false),
        ("door-20261201-100430.mp4", "door", .none, false),
        ("door-2026_12_01-10_04_30.mp4", "door", .none, false),
        ("holiday 2019.mov", "holiday 2019", .none, false),
        ("cam-0003-recovered-20261203-170418.mp4", "cam", .none, false),
        ("cam-recovered.mp4", "cam", .none, false),
        ("cam-clip-0002-recovered-20261203-170418-2.mp4", "cam", .clip, false),
    ])
    func namesSayTheirSeries(name: String, series: String, marker: RecordingName.Marker, partial: Bool) {
        let parsed = RecordingName(name)
        #expect(parsed.series == series)
        #expect(parsed.marker == marker)
        #expect(parsed.partial == partial)
    }

    @Test func aRunsSegmentsFollowEachOtherWithoutGaps() throws {
        let files = [file("cam-0002.mp4", 11_000), file("cam-0001.mp4", 10_000), file("cam-0003.mp4", 12_033, seconds: 0.5)]
        let library = Library(files)
        let series = try #require(library.series.first)
        #expect(library.series.count == 1)
        #expect(series.movies.map(\.path) == ["rec/cam-0001.mp4", "rec/cam-0002.mp4", "rec/cam-0003.mp4"])
        // 33 ms late is one frame at 30 fps: no gap.
        #expect(series.gaps == [])
        #expect(series.runs == 1)
        #expect(series.duration == 2.5)
        #expect(series.frames == 75)
        #expect(series.startMilliseconds == 10_000 && series.endMilliseconds == 12_533)
    }

    @Test func aGapOrAnOverlapStartsANewRun() {
        let files = [file("cam-0001.mp4", 10_000), file("cam-0002.mp4", 11_060),   // 60 ms late: a gap (> 50 ms)
                     file("cam-0003.mp4", 20_000), file("cam-0004.mp4", 20_500)]   // 500 ms early: an overlap
        let series = Library(files).series[0]
        #expect(series.gaps.count == 3)
        #expect(series.gaps[0] == SeriesGap(after: "rec/cam-0001.mp4", before: "rec/cam-0002.mp4", seconds: 0.06))
        #expect(!series.gaps[0].isOverlap)
        #expect(series.gaps[1].after == "rec/cam-0002.mp4" && series.gaps[1].seconds == 7.94)
        #expect(series.gaps[2].isOverlap && series.gaps[2].seconds == -0.5)
        let overlap = Library([file("cam-0001.mp4", 20_000), file("cam-0002.mp4", 20_500)]).series[0].gaps
        #expect(overlap.count == 1 && overlap[0].isOverlap && overlap[0].seconds == -0.5)
        // A start in whole seconds (a movie header's) may be up to 1 s early: not an overlap.
        var unstamped = file("cam-0002.partial.mp4", 20_000, health: .unfinished)
        unstamped.timeSource = .movieHeader
        #expect(Library([file("cam-0001.mp4", 19_000, seconds: 0.5), unstamped]).series[0].gaps.count == 1)
        #expect(Library([file("cam-0001.mp4", 19_000, seconds: 1.5), unstamped]).series[0].gaps.isEmpty)
        #expect(Library([file("cam-0001.mp4", 19_000, seconds: 2.1), unstamped]).series[0].gaps.count == 1)
        #expect(series.runs == 4)
    }

    @Test func severalCamerasAreSeveralSeries() {
        let files = [file("lab-1-0001.mp4", 0), file("lab-2-0001.mp4", 0), file("lab-1-0002.mp4", 1000),
                     file("lab-2-0002.mp4", 1000), file("lab-1-clip-0001.mp4", 500), file("lab-2-still-0001.jpg", 700)]
        let library = Library(files)
        #expect(library.series.map(\.name) == ["lab-1", "lab-2"])
        #expect(library.series.map(\.movies.count) == [2, 2])
        #expect(library.series[0].clips.map(\.path) == ["rec/lab-1-clip-0001.mp4"])
        #expect(library.series[1].stills.map(\.path) == ["rec/lab-2-still-0001.jpg"])
        #expect(library.series.allSatisfy { $0.gaps.isEmpty })
    }

    @Test func aStillWithinAClipIsItsLivePhoto() {
        let files = [file("cam.mp4", 0, seconds: 60), file("cam-clip-0001.mp4", 10_000, seconds: 4),
                     file("cam-clip-0002.mp4", 30_000, seconds: 4), file("cam-still-0001.jpg", 12_000),
                     file("cam-still-0002.jpg", 20_000)]
        let series = Library(files).series[0]
        #expect(series.livePhotos == [LibrarySeries.LivePhoto(clip: "rec/cam-clip-0001.mp4", still: "rec/cam-still-0001.jpg")])
        #expect(series.clips.count == 2 && series.stills.count == 2 && series.movies.count == 1)
        #expect(series.bytes == 5000)
    }

    @Test func foreignFilesAndUnreadableMoviesAreKeptApart() {
        var notes = file("notes.txt", nil, kind: .foreign)
        notes.format = nil
        let files = [notes, file("cam-0001.mp4", 0), file("cam-0002.mp4", nil, health: .unreadable("cut short")),
                     file("cam-0003.partial.mp4", 1000, health: .unfinished)]
        let library = Library(files)
        #expect(library.foreign.map(\.path) == ["rec/notes.txt"])
        let series = library.series[0]
        #expect(series.movies.map(\.path) == ["rec/cam-0001.mp4", "rec/cam-0003.partial.mp4", "rec/cam-0002.mp4"])
        #expect(series.gaps.isEmpty)
        #expect(series.movies[1].recoverCommand == "camrec recover rec/cam-0003.partial.mp4")
        var odd = file("it's.partial.mp4", 0, health: .unfinished)
        odd.path = "my rec/it's.partial.mp4"
        #expect(odd.recoverCommand == #"camrec recover 'my rec/it'\''s.partial.mp4'"#)
    }

    @Test(arguments: [
        ("2026-12-01T10:04:30.250+01:00", Int64(1_796_115_870_250)),
        ("2026-12-01T09:04:30.250Z", 1_796_115_870_250),
        ("2026-12-01T09:04:30Z", 1_796_115_870_000),
        ("2026-12-01T04:04:30.25-05:00", 1_796_115_870_250),
    ])
    func captureTimesAreRead(text: String, milliseconds: Int64) {
        #expect(ISO8601Time.milliseconds(text) == milliseconds)
        #expect(ISO8601Time.milliseconds(LibraryLines.time(milliseconds, utc: true)) == milliseconds)
    }
}

@testable import CamrecKit
@testable import CamrecCore
import Foundation
import MP4
import Matroska
import Testing

/// ``LibraryFileReader`` (and ``MatroskaHead`` under it) on real files made by gst-launch
/// and ffmpeg: finished and unfinished Matroska, a partial MP4, stills, an empty movie and
/// a foreign file; frames against ffprobe's count.
@Suite struct LibraryFileReaderTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-ls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func read(_ name: String) -> LibraryFile {
        var info = stat()
        _ = stat(path(name), &info)
        return LibraryFileReader.read(path: path(name), name: RecordingName(name), bytes: Int64(info.st_size), modified: 0)
    }

    /// Two seconds of 160x120 H.264 at 30 fps and Opus, by matroskamux (`streamable`: never finalised).
    func matroska(_ name: String, streamable: Bool = false) throws {
        try RecoverMatroskaTests.makeMovie(at: path(name), streamable: streamable)
    }

    func probeFrames(_ name: String) throws -> Int { try RecoverMatroskaTests.probeFrames(path(name)) }

    @Test func aFinishedMatroskaMovieIsReadFromItsHead() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try matroska("cam-0001.mkv")
        let head = try MatroskaHead.read(path: path("cam-0001.mkv"))
        #expect(head.finalised && head.docType == "matroska")
        #expect(head.video?.codecID == "V_MPEG4/ISO/AVC" && head.audio?.codecID == "A_OPUS")
        let file = read("cam-0001.mkv")
        #expect(file.kind == .movie && file.format == "mkv" && file.health == .complete)
        #expect(file.videoCodec == "h264" && file.width == 160 && file.height == 120 && file.soundCodec == "opus")
        let probed = try probeFrames("cam-0001.mkv")
        #expect(file.frames == probed)
        #expect(file.framesEstimated)
        #expect(abs((file.duration ?? 0) - 2) < 0.05)
        // matroskamux writes DateUTC (its clock, without creation-time): a capture time.
        #expect(file.timeSource == .captureTime && file.startMilliseconds != nil)
    }

    @Test func anUnfinishedMatroskaMovieIsWalkedAndNamesItsRecovery() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try matroska("live.mkv", streamable: true)
        let file = read("live.mkv")
        #expect(file.health == .unfinished)
        #expect(file.frames == 60 && !file.framesEstimated)
        #expect(file.recoverCommand == "camrec recover " + path("live.mkv"))
    }

    @Test func aPartialOrFragmentedMP4IsUnfinishedAndItsFramesAreCounted() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try ProcessRunner.check("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30:duration=2",
                                           "-c:v", "libx264", "-preset", "ultrafast", "-g", "15",
                                           "-movflags", "frag_keyframe+empty_moov", "-f", "mp4", path("cam-0002.partial.mp4")])
        let file = read("cam-0002.partial.mp4")
        #expect(file.kind == .movie && file.health == .unfinished)
        #expect(file.name.series == "cam" && file.name.partial)
        let probed = try probeFrames("cam-0002.partial.mp4")
        #expect(file.frames == 60 && file.frames == probed)
        #expect(file.soundCodec == nil)
        #expect(file.recoverCommand == "camrec recover " + path("cam-0002.partial.mp4"))
    }

    /// Killed before its muxer wrote a movie box (a kill early in a segment): its frames are
    /// in the data, so it is unfinished, with the recover command, not unreadable.
    @Test func aPartialMP4WithoutAMovieBoxIsUnfinished() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var bytes: [UInt8] = [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 2, 0]
        bytes += [0, 0, 0x10, 8] + Array("mdat".utf8) + [UInt8](repeating: 0x55, count: 4096)
        try Data(bytes).write(to: URL(fileURLWithPath: path("cam-0003.partial.mp4")))
        let file = read("cam-0003.partial.mp4")
        #expect(file.health == .unfinished)
        #expect(file.recoverCommand == "camrec recover " + path("cam-0003.partial.mp4"))
        #expect(file.note?.contains("moov") == true, "\(String(describing: file.note))")
        try Data(bytes).write(to: URL(fileURLWithPath: path("other.mp4")))
        if case .unreadable = read("other.mp4").health {} else { Issue.record("a finished name without a movie box is unreadable") }
    }

    @Test func stillsEmptyMoviesAndForeignFiles() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try ProcessRunner.check("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240", "-frames:v", "1",
                                           path("cam-still-0001.jpg")])
        let still = read("cam-still-0001.jpg")
        #expect(still.kind == .still && still.format == "jpeg" && still.width == 320 && still.height == 240)
        #expect(still.timeSource == .fileTime)
        try Data().write(to: URL(fileURLWithPath: path("cam-0003.mp4")))
        let empty = read("cam-0003.mp4")
        #expect(empty.kind == .movie && empty.health == .unreadable("empty (0 bytes)"))
        try Data("hello".utf8).write(to: URL(fileURLWithPath: path("notes.txt")))
        let notes = read("notes.txt")
        #expect(notes.kind == .foreign && notes.note == "not a movie or still")
    }

    @Test func aStillsEXIFTimeIsItsCaptureTime() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // A minimal EXIF block (big-endian): IFD0 → Exif IFD with DateTimeOriginal,
        // SubSecTimeOriginal and OffsetTimeOriginal, in an APP1 segment after SOI.
        var tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8]
        tiff += [0, 1, 0x87, 0x69, 0, 4, 0, 0, 0, 1, 0, 0, 0, 26, 0, 0, 0, 0]   // IFD0 at 8: one entry, next 0
        let date = Array("2026:12:01 10:04:30\0".utf8)
        let zone = Array("+01:00\0".utf8)
        let dataStart = 26 + 2 + 3 * 12 + 4
        tiff += [0, 3]
        tiff += [0x90, 0x03, 0, 2, 0, 0, 0, UInt8(date.count), 0, 0, 0, UInt8(dataStart)]
        tiff += [0x92, 0x91, 0, 2, 0, 0, 0, 4] + Array("250\0".utf8)
        tiff += [0x90, 0x11, 0, 2, 0, 0, 0, UInt8(zone.count), 0, 0, 0, UInt8(dataStart + date.count)]
        tiff += [0, 0, 0, 0] + date + zone
        let app1 = Array("Exif\0\0".utf8) + tiff
        let length = app1.count + 2
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + app1
            + [0xFF, 0xC0, 0, 11, 8, 0, 120, 0, 160, 1, 1, 0x11, 0] + [0xFF, 0xD9]
        try Data(jpeg).write(to: URL(fileURLWithPath: path("x-still-0001.jpg")))
        let still = read("x-still-0001.jpg")
        #expect(still.timeSource == .captureTime)
        #expect(still.startMilliseconds == 1_796_115_870_250)
        #expect(still.width == 160 && still.height == 120)
    }

    @Test func anOutputPatternListsItsSeriesCamerasClipsAndStills() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = ["lab.mp4", "lab-0001.mp4", "lab-0002.partial.mp4", "lab-1-0001.mp4", "lab-2-clip-0001.mp4",
                     "lab-still-0001.jpg", "lab-0001.mkv", "labrador-0001.mp4", "other-0001.mp4", "door-20261201-100430.mp4",
                     "door-20261201-100530.mkv", "door-note.txt"]
        for name in names { try Data("x".utf8).write(to: URL(fileURLWithPath: path(name))) }
        let lab = try LibraryScan.files([path("lab.mp4")]).map(\.path).sorted()
        #expect(lab == ["lab-0001.mp4", "lab-0002.partial.mp4", "lab-1-0001.mp4", "lab-2-clip-0001.mp4", "lab-still-0001.jpg",
                        "lab.mp4"].map(path), "\(lab)")
        let door = try LibraryScan.files([path("door-%Y%m%d-%H%M%S.mp4")])
        #expect(door.map(\.path) == [path("door-20261201-100430.mp4")])
        #expect(door.first?.name.series == "door")
        #expect(try LibraryScan.files([folder.path]).count == names.count)
        #expect(throws: CamrecError.self) { try LibraryScan.files([path("nowhere")]) }
        #expect(throws: CamrecError.self) { try LibraryScan.files([path("cam-%04d.mp4")]) }
    }
}

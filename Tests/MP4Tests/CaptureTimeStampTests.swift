import Foundation
@testable import MP4
import Testing

/// ``CaptureTimeStamp`` writes a finished movie's capture time into it: ffprobe and
/// exiftool (independent readers) read it back to the millisecond, and every sample stays
/// where it was.
@Suite("MP4 capture time stamp")
struct CaptureTimeStampTests {
    let folder: URL
    let rounds: MovieRoundTripTests

    init() throws {
        rounds = try MovieRoundTripTests()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("mp4-stamp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// 2026-12-01 10:04:30.250 at +01:00.
    static let stamp = CaptureTimeStamp(unixMilliseconds: 1_796_115_870_250, utcOffsetSeconds: 3600,
                                        model: "Acme Cam", software: "camrec test")

    func movie(_ name: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try rounds.run("ffmpeg", [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30:duration=1",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=1",
            "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", path,
        ])
        return path
    }

    @Test(arguments: ["a.mp4", "a.mov"])
    func readersFindTheTimeToTheMillisecond(name: String) throws {
        let path = try movie(name)
        let packets = ["-v", "error", "-show_entries", "packet=stream_index,pts,size,pos", "-of", "csv=p=0", path]
        let before = try rounds.run("ffprobe", packets)
        try Self.stamp.write(into: path)
        #expect(try rounds.run("ffprobe", packets) == before, "every sample where it was")
        #expect(try rounds.run("ffmpeg", ["-v", "error", "-i", path, "-f", "null", "-"]).isEmpty)
        let tags = try rounds.run("ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "default=nw=1", path])
        #expect(tags.contains("TAG:com.apple.quicktime.creationdate=2026-12-01T10:04:30.250+01:00"), "\(tags)")
        #expect(tags.contains("TAG:creation_time=2026-12-01T09:04:30.000000Z"), "\(tags)")
        #expect(tags.contains("TAG:com.apple.quicktime.model=Acme Cam"), "\(tags)")
        let exif = try rounds.run("exiftool", ["-s", "-Keys:CreationDate", "-QuickTime:CreateDate", "-api", "QuickTimeUTC", path])
        #expect(exif.contains("CreationDate                    : 2026:12:01 10:04:30.250+01:00"), "\(exif)")
        let file = try SampleFile(path: path)
        let boxes = try Box.topLevel(in: file)
        let moov = try #require(boxes.last { $0.type == "moov" })
        #expect(boxes.filter { $0.type == "moov" }.count == 1 && boxes.contains { $0.type == "free" })
        #expect(CaptureTimeStamp.read(moov: try file.read(offset: UInt64(moov.start), count: moov.end - moov.start)) == Self.stamp.iso8601)
        #expect(try Movie.read(path: path).metadata.creationTime == 1_796_115_870 + 2_082_844_800)
    }

    @Test func aSecondStampReplacesTheFirst() throws {
        let path = try movie("twice.mp4")
        try Self.stamp.write(into: path)
        try Self.stamp.adding(milliseconds: 1250).write(into: path)
        let tags = try rounds.run("ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "default=nw=1", path])
        #expect(tags.contains("creationdate=2026-12-01T10:04:31.500+01:00") && !tags.contains("30.250"), "\(tags)")
    }

    @Test func theTextIsISO8601ToTheMillisecondAndReadsBack() {
        #expect(Self.stamp.iso8601 == "2026-12-01T10:04:30.250+01:00")
        #expect(CaptureTimeStamp(iso8601: "2026-12-01T10:04:30.250+01:00") == CaptureTimeStamp(unixMilliseconds: 1_796_115_870_250, utcOffsetSeconds: 3600))
        #expect(CaptureTimeStamp(iso8601: "2026-12-01T09:04:30.25Z")?.unixMilliseconds == 1_796_115_870_250)
        #expect(CaptureTimeStamp(iso8601: "2026-12-01T04:04:30-05:00")?.unixMilliseconds == 1_796_115_870_000)
        // Leap day, year and century edges, and before 1970.
        for (text, milliseconds) in [("2024-02-29T23:59:59.999Z", Int64(1_709_251_199_999)), ("2000-03-01T00:00:00.000Z", 951_868_800_000),
                                     ("1969-12-31T23:59:59.500Z", -500), ("2100-03-01T00:00:00.000Z", 4_107_542_400_000)] {
            let stamp = CaptureTimeStamp(iso8601: text)
            #expect(stamp?.unixMilliseconds == milliseconds, "\(text)")
            #expect(stamp.map { CaptureTimeStamp(unixMilliseconds: $0.unixMilliseconds, utcOffsetSeconds: 0).iso8601 } == text.replacingOccurrences(of: "Z", with: "+00:00"))
        }
        // The basic form of the offset, as iPhones and exiftool write it.
        #expect(CaptureTimeStamp(iso8601: "2026-12-01T10:04:30+0100") == CaptureTimeStamp(unixMilliseconds: 1_796_115_870_000, utcOffsetSeconds: 3600))
        #expect(CaptureTimeStamp(iso8601: "2026-12-01T04:04:30.250-05")?.unixMilliseconds == 1_796_115_870_250)
        for bad in ["", "2026-12-01", "2026-13-01T00:00:00Z", "2026-12-01T10:04:30.+01:00", "2026-12-01T10:04:30+010", "2026-12-01T10:04:30.250",
                    "2026-12-01T10:04:30+01:0"] {
            #expect(CaptureTimeStamp(iso8601: bad) == nil, "\(bad)")
        }
    }

    @Test func unfinishedAndMissingMoviesAreRefusedUntouched() throws {
        let fragmented = folder.appendingPathComponent("f.mp4").path
        try rounds.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30:duration=1",
                                  "-c:v", "libx264", "-preset", "ultrafast", "-movflags", "frag_keyframe+empty_moov", fragmented])
        let before = try Data(contentsOf: URL(fileURLWithPath: fragmented))
        #expect(throws: MP4Error.self) { try Self.stamp.write(into: fragmented) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: fragmented)) == before)
        #expect(throws: MP4Error.self) { try Self.stamp.write(into: folder.appendingPathComponent("none.mp4").path) }
    }
}

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
    static let stamp = CaptureTimeStamp(unixSeconds: 1_796_115_870, iso8601: "2026-12-01T10:04:30.250+01:00",
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
        var later = Self.stamp
        later.iso8601 = "2026-12-01T10:04:31.500+01:00"
        later.unixSeconds += 1
        try later.write(into: path)
        let tags = try rounds.run("ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "default=nw=1", path])
        #expect(tags.contains("creationdate=2026-12-01T10:04:31.500+01:00") && !tags.contains("30.250"), "\(tags)")
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

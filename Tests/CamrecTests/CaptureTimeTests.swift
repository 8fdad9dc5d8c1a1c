import Foundation
import Testing

/// Every movie and segment records when its first frame was captured, to the millisecond:
/// the JSON line's `start`, and inside the file (MP4/MOV: the QuickTime metadata key
/// `com.apple.quicktime.creationdate` and the headers' second; Matroska: `DateUTC`), read
/// back with ffprobe and exiftool.
@Suite("Capture time in every movie")
struct CaptureTimeTests {
    /// ISO 8601 with optional fractional seconds, as seconds since 1970.
    static func seconds(_ text: String) -> Double? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)?.timeIntervalSince1970
    }

    static func formatTags(_ path: String) throws -> [String: String] {
        let run = try ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "default=nw=1", path])
        var tags: [String: String] = [:]
        for line in run.stdoutText.split(separator: "\n") where line.hasPrefix("TAG:") {
            let parts = line.dropFirst(4).split(separator: "=", maxSplits: 1)
            if parts.count == 2 { tags[String(parts[0])] = String(parts[1]) }
        }
        return tags
    }

    /// The capture time the file at `path` holds, as seconds since 1970, and its text.
    static func embedded(_ path: String) throws -> (seconds: Double, text: String)? {
        let tags = try formatTags(path)
        if let text = tags["com.apple.quicktime.creationdate"], let value = seconds(text) { return (value, text) }
        if path.hasSuffix(".mkv"), let text = tags["creation_time"], let value = seconds(text) { return (value, text) }
        return nil
    }

    @Test(arguments: ["mp4", "mov", "mkv"])
    func aMovieHoldsItsFirstFramesCaptureTime(ext: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let launched = Date().timeIntervalSince1970
        let run = try CamrecBinary.run(["--device", "test", "--size", "320x240", "-t", "1", "--location", "48.8584,-2.2945,35",
                                        "--json", folder.path("m.\(ext)")])
        #expect(run.status == 0, "\(run.stderr)")
        let result = try #require(JSONLines.parse(run).last)
        let movie = try #require((result["files"] as? [[String: Any]])?.first)
        let start = try #require(movie["start"] as? String, "\(movie)")
        #expect(start.range(of: #"T\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$"#, options: .regularExpression) != nil, "\(start)")
        let startSeconds = try #require(Self.seconds(start))
        #expect(startSeconds >= launched - 0.001 && startSeconds <= Date().timeIntervalSince1970, "\(start)")
        let embedded = try #require(try Self.embedded(folder.path("m.\(ext)")), "no capture time in the movie")
        #expect(abs(embedded.seconds - startSeconds) < 0.001, "file \(embedded.text), line \(start)")
        if ext != "mkv" {
            #expect(embedded.text == start)
            // The headers hold the same second (ffprobe's creation_time, in UTC).
            let second = try #require(Self.seconds(try Self.formatTags(folder.path("m.\(ext)"))["creation_time"] ?? ""))
            #expect(second == startSeconds.rounded(.down), "\(second) against \(startSeconds)")
            // The camera's name, camrec's version and the place, as the stills have them.
            let tags = try Self.formatTags(folder.path("m.\(ext)"))
            #expect(tags["com.apple.quicktime.model"] == "test pattern", "\(tags)")
            #expect(tags["com.apple.quicktime.software"]?.hasPrefix("camrec ") == true, "\(tags)")
            #expect(tags["com.apple.quicktime.location.ISO6709"] == "+48.8584-002.2945+035.000/", "\(tags)")
            let exif = try ChildProcess.run("exiftool", ["-s3", "-Keys:CreationDate", folder.path("m.\(ext)")])
            #expect(exif.stdoutText.hasPrefix(String(start.prefix(10)).replacingOccurrences(of: "-", with: ":")), "\(exif.stdoutText)")
        }
    }

    /// Segments cut at exact camera times: their first frames are exactly a segment apart,
    /// so their capture times are too (to the millisecond the clocks are read at).
    @Test(arguments: ["mp4", "mkv"])
    func eachSegmentHoldsItsOwnStart(ext: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--fps", "30", "-t", "3.5", "--segment", "1",
                                        "--json", folder.path("s.\(ext)")])
        #expect(run.status == 0, "\(run.stderr)")
        let segments = JSONLines.parse(run).filter { $0["type"] as? String == "segment" }
        #expect(segments.count == 4)
        var starts: [Double] = []
        for line in segments {
            let path = try #require(line["path"] as? String)
            let start = try #require((line["start"] as? String).flatMap(Self.seconds), "\(line)")
            let embedded = try #require(try Self.embedded(path), "no capture time in \(path)")
            #expect(abs(embedded.seconds - start) < 0.001, "\(path): file \(embedded.text), line \(line["start"] ?? "")")
            starts.append(start)
        }
        for (earlier, later) in zip(starts, starts.dropFirst()) {
            #expect(abs(later - earlier - 1) < 0.005, "segments start \(later - earlier) s apart")
        }
    }

    /// A trimmed movie's first frame was captured later than its input's by exactly where
    /// the cut starts: the output holds its own time, not its input's.
    @Test(arguments: ["mp4", "mkv", "mp4>mkv", "mkv>mp4"], ["accurate", "keyframe", "reencode"])
    func aTrimmedMovieHoldsItsOwnFirstFramesTime(ext containers: String, mode: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // "a>b": a movie of one container cut to the other (through GStreamer's muxers).
        let parts = containers.split(separator: ">").map(String.init)
        let (ext, outputExt) = (parts[0], parts.last ?? parts[0])
        let input = folder.path("in.\(ext)")
        let record = try CamrecBinary.run(["--device", "test", "--size", "320x240", "-t", "3", "-g", "1s", "--json", input])
        try #require(record.status == 0, "\(record.stderr)")
        let trim = try CamrecBinary.run(["trim", "--start", "1.2", "--mode", mode, "--json", "-o", folder.path("out.\(outputExt)"), input])
        try #require(trim.status == 0, "\(trim.stderr)")
        let first = try #require(JSONLines.parse(trim).last?["first_frame_time"] as? Double)
        let source = try #require(try Self.embedded(input))
        let output = try #require(try Self.embedded(folder.path("out.\(outputExt)")), "no capture time in the trimmed movie")
        #expect(abs(output.seconds - source.seconds - first) < 0.0015, "in \(source.text), out \(output.text), first frame at \(first) s")
    }
}

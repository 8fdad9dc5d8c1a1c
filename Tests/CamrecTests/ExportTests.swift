import Foundation
import Testing

/// `camrec export`: a time range of a recorded series as one movie, across its segments.
/// What a movie holds is read independently: ffprobe gives each frame's time and each file's
/// capture time, the emulated camera's stamps say which camera frame each one is.
@Suite("camrec export", .serialized)
struct ExportTests {
    static let spec = "/dev/video0,formats=yuyv,sizes=320x240@30+640x480@30"

    func environment() throws -> [String: String] {
        var environment = try VirtualCameraEnvironment.shared().environment(spec: Self.spec)
        environment["CAMREC_DEVICE_PATHS"] = nil
        return environment
    }

    /// Records `seconds` of the emulated camera into `output` (segments of 1 s).
    func record(_ output: String, seconds: String, size: String = "320x240", extra: [String] = []) throws -> [[String: Any]] {
        let run = try CamrecBinary.run(["--device", "/dev/video0", "--size", size, "--fps", "30", "-t", seconds, "--segment", "1",
                                        "--json", output] + extra, environment: environment(), timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        return JSONLines.parse(run)
    }

    /// Each frame of `path` as (capture time in seconds since 1970, camera stamp): the
    /// file's capture time plus the frame's time, as ffprobe reads them.
    static func capturedFrames(_ path: String) throws -> [(time: Double, stamp: UInt32?)] {
        let start = try #require(try CaptureTimeTests.embedded(path), "no capture time in \(path)").seconds
        let probe = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                     "packet=pts_time", "-of", "csv=p=0", path])
        let times = probe.stdoutText.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.sorted()
        let stamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: path))
        #expect(times.count == stamps.count, "\(path): \(times.count) frame times, \(stamps.count) stamps")
        let first = times.first ?? 0
        return zip(times, stamps).map { (start + $0 - first, $1) }
    }

    /// Seconds since 1970 as ISO 8601 in UTC with milliseconds.
    static func iso(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }

    /// The sound's start and end against the video's (seconds), by ffprobe.
    static func soundAndPicture(_ path: String) throws -> (videoStart: Double, videoEnd: Double, soundStart: Double, soundEnd: Double) {
        func span(_ stream: String) throws -> (Double, Double) {
            let probe = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries",
                                                         "packet=pts_time,duration_time", "-of", "csv=p=0", path])
            let packets = probe.stdoutText.split(separator: "\n").compactMap { line -> (Double, Double)? in
                let fields = line.split(separator: ",").compactMap { Double($0) }
                return fields.count == 2 ? (fields[0], fields[1]) : nil
            }
            let start = packets.map(\.0).min() ?? 0
            let end = packets.map { $0.0 + $0.1 }.max() ?? 0
            return (start, end)
        }
        let video = try span("v:0")
        let sound = try span("a:0")
        return (video.0, video.1, sound.0, sound.1)
    }

    /// Across 0, 1, 2 and 5 segment boundaries, with sound: exactly the camera frames
    /// captured in [from, to), each once and in order, the sound from the same instant to
    /// the same instant (within one AAC packet), and the first frame's capture time inside.
    @Test(arguments: ["mp4", "mkv"])
    func exportHoldsExactlyTheFramesCapturedInTheRange(ext: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let lines = try record(folder.path("cam.\(ext)"), seconds: "7.5", extra: ["--audio", "test"])
        let segments = lines.filter { $0["type"] as? String == "segment" }.compactMap { $0["path"] as? String }
        #expect(segments.count == 8, "\(segments)")
        var frames: [(time: Double, stamp: UInt32?)] = []
        for segment in segments { frames += try Self.capturedFrames(segment) }
        let seriesStart = try #require(frames.first?.time)
        for boundaries in [0, 1, 2, 5] {
            // From 0.517 s into the second segment (off its keyframe) to 0.3 s into a later one.
            let from = seriesStart + 1.517
            let to = seriesStart + 1 + Double(boundaries) + (boundaries == 0 ? 0.8 : 0.3)
            let output = folder.path("out-\(boundaries).mp4")
            let run = try CamrecBinary.run(["export", "--from", Self.iso(from), "--to", Self.iso(to), "--json", "-o", output,
                                            folder.path("cam.\(ext)")])
            #expect(run.status == 0, "\(boundaries) boundaries: \(run.stderr)")
            let line = try #require(JSONLines.parse(run).first { $0["type"] as? String == "export" }, "\(run.stdoutText)")
            #expect((line["movies"] as? [String])?.count == boundaries + 1, "\(line)")
            let expected = frames.filter { $0.time >= from - 0.0005 && $0.time < to - 0.0005 }.map(\.stamp)
            let stamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: output))
            #expect(stamps == expected, "\(boundaries) boundaries: got \(stamps), want \(expected)")
            #expect(!stamps.contains(nil), "unreadable stamps: \(stamps)")
            let probe = try MediaProbe.probe(output)
            #expect(probe.frames == expected.count)
            #expect(line["frames"] as? Int == expected.count, "\(line)")
            #expect((line["frames_reencoded"] as? Int ?? 0) > 0, "the cut starts off a keyframe: \(line)")
            #expect(try MediaProbe.decodeErrors(output).isEmpty)
            // The sound starts and ends with the picture, within one packet (AAC: 1024 / 48000 s; Opus: 20 ms).
            let span = try Self.soundAndPicture(output)
            let packet = 1024.0 / 48000 + 0.001
            #expect(abs(span.soundStart - span.videoStart) <= packet, "\(boundaries) boundaries: \(span)")
            #expect(abs(span.soundEnd - span.videoEnd) <= packet, "\(boundaries) boundaries: \(span)")
            // The output's own capture time: its first frame's.
            let firstTime = try #require(frames.first { $0.time >= from - 0.0005 }?.time)
            let embedded = try #require(try CaptureTimeTests.embedded(output), "no capture time in \(output)")
            #expect(abs(embedded.seconds - firstTime) < 0.0015, "\(embedded.text) against \(Self.iso(firstTime))")
            // A Matroska series is read through MP4 copies, removed afterwards.
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains(".export-") }
            #expect(left.isEmpty, "\(left)")
            let start = try #require((line["start"] as? String).flatMap(CaptureTimeTests.seconds))
            #expect(abs(start - firstTime) < 0.0015, "\(line)")
        }
    }

    /// Offsets into the series (`--from 2 --to 3.5`, `--from -1s`), and the whole series by default.
    @Test func offsetsAndDefaultsCountFromTheSeriesFirstFrame() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let lines = try record(folder.path("cam.mp4"), seconds: "4")
        let segments = lines.filter { $0["type"] as? String == "segment" }.compactMap { $0["path"] as? String }
        var frames: [(time: Double, stamp: UInt32?)] = []
        for segment in segments { frames += try Self.capturedFrames(segment) }
        let start = try #require(frames.first?.time)
        let cases: [([String], (Double) -> Bool)] = [
            (["--from", "2", "--to", "3.5"], { $0 >= start + 2 - 0.0005 && $0 < start + 3.5 - 0.0005 }),
            (["--from", "+0:00:01.2"], { $0 >= start + 1.2 - 0.0005 }),
            ([], { _ in true }),
        ]
        for (index, (arguments, keep)) in cases.enumerated() {
            let output = folder.path("o\(index).mp4")
            let run = try CamrecBinary.run(["export"] + arguments + ["-o", output, folder.path("cam-0002.mp4")])
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            let expected = frames.filter { keep($0.time) }.map(\.stamp)
            let stamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: output))
            #expect(stamps == expected, "\(arguments): got \(stamps), want \(expected)")
        }
        // -1s: the last second of the series (its end is the last frame's end).
        let end = try #require(frames.last?.time).advanced(by: 1.0 / 30)
        let run = try CamrecBinary.run(["export", "--from", "-1s", "-o", folder.path("last.mp4"), folder.path("cam.mp4")])
        #expect(run.status == 0, "\(run.stderr)")
        let stamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: folder.path("last.mp4")))
        let expected = frames.filter { $0.time >= end - 1 - 0.0015 }.map(\.stamp)
        #expect(abs(stamps.count - expected.count) <= 1 && stamps.last == expected.last, "got \(stamps), want \(expected)")
    }

    /// Two runs into one series, with a gap between them: one movie with a chapter at each
    /// run's first frame, named by its capture time; or, with --split-at-gaps, a movie per run.
    @Test func aGapBecomesAChapterOrASplit() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try record(folder.path("cam.mp4"), seconds: "2.5")
        _ = try record(folder.path("cam.mp4"), seconds: "2")
        let movies = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix("cam-") }.sorted()
        #expect(movies.count == 5, "\(movies)")
        var frames: [(time: Double, stamp: UInt32?)] = []
        for movie in movies { frames += try Self.capturedFrames(folder.path(movie)) }
        let secondRun = try #require(try CaptureTimeTests.embedded(folder.path("cam-0004.mp4")))

        let run = try CamrecBinary.run(["export", "--json", "-o", folder.path("all.mp4"), folder.path("cam.mp4")])
        #expect(run.status == 0, "\(run.stderr)")
        let line = try #require(JSONLines.parse(run).first { $0["type"] as? String == "export" })
        #expect((line["gaps"] as? [Any])?.count == 1, "\(line)")
        #expect(try MediaProbe.probe(folder.path("all.mp4")).frames == frames.count)
        let stamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: folder.path("all.mp4")))
        #expect(stamps == frames.map(\.stamp))
        let chapters = try ChildProcess.run("ffprobe", ["-v", "error", "-show_chapters", "-of", "json", folder.path("all.mp4")])
        let object = try JSONSerialization.jsonObject(with: chapters.stdout) as? [String: Any]
        let list = try #require(object?["chapters"] as? [[String: Any]], "\(chapters.stdoutText)")
        #expect(list.count == 2, "\(list)")
        // The second chapter starts where the first run's 75 frames end, named by the second run's start.
        let second = try #require(list.last)
        let chapterStart = Double(second["start_time"] as? String ?? "") ?? -1
        #expect(abs(chapterStart - 2.5) <= 1.0 / 30 + 0.001, "\(second)")
        let title = (second["tags"] as? [String: Any])?["title"] as? String ?? ""
        #expect(CaptureTimeTests.seconds(title).map { abs($0 - secondRun.seconds) < 0.0015 } == true, "\(title) against \(secondRun.text)")

        let split = try CamrecBinary.run(["export", "--split-at-gaps", "--json", "-o", folder.path("part.mp4"), folder.path("cam.mp4")])
        #expect(split.status == 0, "\(split.stderr)")
        let parts = JSONLines.parse(split).filter { $0["type"] as? String == "export" }
        #expect(parts.compactMap { $0["path"] as? String } == [folder.path("part-1.mp4"), folder.path("part-2.mp4")])
        #expect(try MediaProbe.probe(folder.path("part-1.mp4")).frames == 75)
        #expect(try MediaProbe.probe(folder.path("part-2.mp4")).frames == 60)
    }

    /// A second run at another size: never joined into one broken movie, but two movies.
    @Test func segmentsWithOtherParametersBecomeSeparateMovies() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try record(folder.path("cam.mp4"), seconds: "1.5")
        _ = try record(folder.path("cam.mp4"), seconds: "1.5", size: "640x480")
        let run = try CamrecBinary.run(["export", "--json", "-o", folder.path("out.mp4"), folder.path("cam.mp4")])
        #expect(run.status == 0, "\(run.stderr)")
        let outputs = JSONLines.parse(run).filter { $0["type"] as? String == "export" }
        #expect(outputs.count == 2, "\(run.stdoutText)")
        #expect((outputs.last?["split_reason"] as? String)?.contains("sample description differs") == true, "\(outputs)")
        let first = try MediaProbe.probe(folder.path("out-1.mp4"))
        let second = try MediaProbe.probe(folder.path("out-2.mp4"))
        #expect(first.width == 320 && second.width == 640)
        #expect(first.frames == 45 && second.frames == 45)
        #expect(try MediaProbe.decodeErrors(folder.path("out-2.mp4")).isEmpty)
    }

    /// `--reencode`: a second run at another size, with sound, joined into one movie by
    /// encoding again: every camera frame of both runs once and in order (the second run's
    /// read from its picture scaled to the first's size), the sound throughout, a chapter
    /// where the second run begins named by its capture time, no part files left behind.
    @Test func reencodeJoinsSegmentsWithOtherParametersIntoOneMovie() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try record(folder.path("cam.mp4"), seconds: "1.5", size: "640x480", extra: ["--audio", "test"])
        let second = try record(folder.path("cam.mp4"), seconds: "1.5", extra: ["--audio", "test"])
        let segments = { (lines: [[String: Any]]) in
            lines.filter { $0["type"] as? String == "segment" }.compactMap { $0["path"] as? String }
        }
        var firstStamps: [UInt32?] = []
        for segment in segments(first) { firstStamps += try Self.capturedFrames(segment).map(\.stamp) }
        var secondStamps: [UInt32?] = []
        for segment in segments(second) { secondStamps += try Self.capturedFrames(segment).map(\.stamp) }
        #expect(firstStamps.count == 45 && secondStamps.count == 45, "\(firstStamps.count) and \(secondStamps.count) frames")
        let secondFirst = try #require(segments(second).first)
        let secondStart = try #require(try CaptureTimeTests.embedded(secondFirst))

        let run = try CamrecBinary.run(["export", "--reencode", "--json", "-o", folder.path("joined.mp4"), folder.path("cam.mp4")])
        #expect(run.status == 0, "\(run.stderr)")
        let outputs = JSONLines.parse(run).filter { $0["type"] as? String == "export" }
        #expect(outputs.count == 1, "\(run.stdoutText)")
        let line = try #require(outputs.first)
        #expect((line["reencoded_joins"] as? [String])?.first?.contains("sample description differs") == true, "\(line)")
        #expect(line["frames"] as? Int == 90 && line["frames_reencoded"] as? Int == 90, "\(line)")
        let joined = folder.path("joined.mp4")
        let probe = try MediaProbe.probe(joined)
        #expect(probe.codec == "h264" && probe.width == 640 && probe.frames == 90, "\(probe)")
        #expect(try MediaProbe.decodeErrors(joined).isEmpty)
        let url = URL(fileURLWithPath: joined)
        let asIs = try FrameStampReader.sequences(inVideo: url)
        let scaled = try FrameStampReader.sequences(inVideo: url, region: .init(width: 640, sourceWidth: 320))
        #expect(Array(asIs.prefix(45)) == firstStamps)
        #expect(Array(scaled.suffix(45)) == secondStamps)
        // Sound from start to end, within an AAC packet (21 ms) or so of the picture at each end.
        let spans = try Self.soundAndPicture(joined)
        #expect(abs(spans.soundStart - spans.videoStart) < 0.05 && abs(spans.soundEnd - spans.videoEnd) < 0.05, "\(spans)")
        let chapters = try ChildProcess.run("ffprobe", ["-v", "error", "-show_chapters", "-of", "json", joined])
        let object = try JSONSerialization.jsonObject(with: chapters.stdout) as? [String: Any]
        let list = try #require(object?["chapters"] as? [[String: Any]], "\(chapters.stdoutText)")
        #expect(list.count == 2, "\(list)")
        let start = Double(list.last?["start_time"] as? String ?? "") ?? -1
        #expect(abs(start - 1.5) <= 1.0 / 30 + 0.001, "\(list)")
        let title = (list.last?["tags"] as? [String: Any])?["title"] as? String ?? ""
        #expect(CaptureTimeTests.seconds(title).map { abs($0 - secondStart.seconds) < 0.0015 } == true, "\(title)")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "\(left)")
    }

    /// Refusals: each a one-line error with its exit code, and nothing written.
    @Test func badRequestsAreRefusedAndWriteNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        _ = try record(folder.path("cam.mp4"), seconds: "3")
        let out = folder.path("out.mp4")
        func export(_ arguments: [String]) throws -> ChildProcessResult {
            try CamrecBinary.run(["export"] + arguments)
        }
        var run = try export(["-o", out, folder.path("none.mp4")])
        #expect(run.status == 66, "\(run.stderr)")
        run = try export(["--from", "2", "--to", "1", "-o", out, folder.path("cam.mp4")])
        #expect(run.status == 64 && run.stderr.contains("is not before"), "\(run.stderr)")
        run = try export(["--from", "yesterday", "-o", out, folder.path("cam.mp4")])
        #expect(run.status == 64 && run.stderr.contains("--from 'yesterday'"), "\(run.stderr)")
        run = try export(["--from", "1", "-o", folder.path("out.mkv"), folder.path("cam.mp4")])
        #expect(run.status == 64, "\(run.stderr)")
        run = try export(["--from", "+1h", "-o", out, folder.path("cam.mp4")])
        #expect(run.status == 65 && run.stderr.contains("no frame of cam was captured"), "\(run.stderr)")
        // An unfinished segment in the range: named, with the command that finishes it.
        try FileManager.default.moveItem(atPath: folder.path("cam-0002.mp4"), toPath: folder.path("cam-0002.partial.mp4"))
        run = try export(["-o", out, folder.path("cam.mp4")])
        #expect(run.status == 65 && run.stderr.contains("camrec recover") && run.stderr.contains("cam-0002.partial.mp4"), "\(run.stderr)")
        // A missing one: named, exit 66.
        try FileManager.default.moveItem(atPath: folder.path("cam-0002.partial.mp4"), toPath: folder.path("away.bin"))
        run = try export(["-o", out, folder.path("cam.mp4")])
        #expect(run.status == 66 && run.stderr.contains("cam-0002.mp4 is missing between"), "\(run.stderr)")
        try FileManager.default.moveItem(atPath: folder.path("away.bin"), toPath: folder.path("cam-0002.mp4"))
        // An existing output is kept without --force.
        try Data("keep".utf8).write(to: URL(fileURLWithPath: out))
        run = try export(["-o", out, folder.path("cam.mp4")])
        #expect(run.status == 73 && run.stderr.contains("--force"), "\(run.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "keep")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { !$0.hasPrefix("cam-") }
        #expect(left == ["out.mp4"], "\(left)")
        run = try export(["--force", "--from", "1", "--to", "2", "-o", out, folder.path("cam.mp4")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try MediaProbe.probe(out).frames == 30)
    }
}

extension ExportTests {
    /// The capture times of a movie's keyframes (seconds since 1970), by ffprobe's packet flags.
    static func keyframeTimes(_ path: String) throws -> [Double] {
        let start = try #require(try CaptureTimeTests.embedded(path)).seconds
        let probe = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                     "packet=pts_time,flags", "-of", "csv=p=0", path])
        let packets = probe.stdoutText.split(separator: "\n").compactMap { line -> (Double, Bool)? in
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let time = Double(fields[0]) else { return nil }
            return (time, fields[1].contains("K"))
        }
        let first = packets.map(\.0).min() ?? 0
        return packets.filter(\.1).map { start + $0.0 - first }
    }

    /// `--speed 6`: exactly every 6th camera frame, played at 30 fps; `--timelapse 1s` with
    /// keyframes a second apart: the keyframe nearest each second, decoding nothing else.
    /// With sound too: its edit list puts the first frames before 0, which the encoder once
    /// took for one frame (a time-lapse of a series with sound failed, a frame short).
    @Test(arguments: [false, true])
    func aTimelapseKeepsTheFrameOfEachInstant(sound: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let lines = try record(folder.path("cam.mp4"), seconds: "4", extra: sound ? ["--audio", "test"] : [])
        let segments = lines.filter { $0["type"] as? String == "segment" }.compactMap { $0["path"] as? String }
        var frames: [(time: Double, stamp: UInt32?)] = []
        var keyframes: [Double] = []
        for segment in segments {
            frames += try Self.capturedFrames(segment)
            keyframes += try Self.keyframeTimes(segment)
        }
        let start = try #require(frames.first?.time)
        let end = try #require(frames.last?.time) + 1.0 / 30

        let run = try CamrecBinary.run(["export", "--speed", "6", "--json", "-o", folder.path("fast.mp4"), folder.path("cam.mp4")])
        #expect(run.status == 0, "\(run.stderr)")
        let line = try #require(JSONLines.parse(run).first { $0["type"] as? String == "export" })
        #expect(line["speed"] as? Double == 6 && line["keyframes_only"] as? Bool == false, "\(line)")
        var expected: [UInt32?] = []
        var instant = start
        while instant < end - 0.0005 {
            if let frame = frames.first(where: { $0.time >= instant - 0.0005 }), expected.last != frame.stamp { expected.append(frame.stamp) }
            instant += 0.2
        }
        let stamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: folder.path("fast.mp4")))
        #expect(stamps == expected, "got \(stamps), want \(expected)")
        let probe = try MediaProbe.probe(folder.path("fast.mp4"))
        #expect(probe.frames == expected.count)
        #expect(abs(probe.duration - Double(expected.count) / 30) < 0.002, "\(probe.duration)")
        #expect(try MediaProbe.decodeErrors(folder.path("fast.mp4")).isEmpty)
        let captured = try #require(try CaptureTimeTests.embedded(folder.path("fast.mp4")))
        #expect(abs(captured.seconds - start) < 0.0015)

        // Keyframes alone when the step is at least the distance between them.
        let gop = zip(keyframes, keyframes.dropFirst()).map { $1 - $0 }.max() ?? 1
        let slow = try CamrecBinary.run(["export", "--timelapse", String(format: "%.3f", gop + 0.01), "--json", "-o",
                                         folder.path("slow.mp4"), folder.path("cam.mp4")])
        #expect(slow.status == 0, "\(slow.stderr)")
        let slowLine = try #require(JSONLines.parse(slow).first { $0["type"] as? String == "export" })
        #expect(slowLine["keyframes_only"] as? Bool == true, "\(slowLine)")
        #expect(slowLine["frames_decoded"] as? Int == slowLine["frames"] as? Int, "\(slowLine)")
        let keyStamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: folder.path("slow.mp4")))
        var expectedKeys: [UInt32?] = []
        instant = start
        while instant < end - 0.0005 {
            let nearest = keyframes.min { abs($0 - instant) < abs($1 - instant) } ?? start
            let stamp = frames.first { abs($0.time - nearest) < 0.002 }?.stamp
            if expectedKeys.last != stamp { expectedKeys.append(stamp) }
            instant += gop + 0.01
        }
        #expect(keyStamps == expectedKeys, "got \(keyStamps), want \(expectedKeys)")
        // A step of one frame or less is no time-lapse.
        let refused = try CamrecBinary.run(["export", "--timelapse", "10ms", "-o", folder.path("no.mp4"), folder.path("cam.mp4")])
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("no.mp4")))
    }
}

extension ExportTests {
    /// Each decoded frame's MD5 (ffmpeg's framemd5), in presentation order.
    static func frameHashes(_ path: String) throws -> [String] {
        let run = try ChildProcess.run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:v:0", "-f", "framemd5", "-"])
        return run.stdoutText.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    /// Another program's series (ffmpeg's x264 with B-frames), its capture time written by
    /// exiftool in the basic zone form iPhones use (`+0000`): cut across the boundary with
    /// every frame in its place: the copied ones decode bit for bit as ffmpeg decodes the
    /// segments, at the right positions.
    @Test func aSeriesOfAnotherProgramWithBFramesIsCutExactly() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let piece = folder.path("piece.mp4")
        let made = try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=2",
                                                   "-c:v", "libx264", "-g", "30", "-bf", "2", "-pix_fmt", "yuv420p", piece])
        #expect(made.status == 0, "\(made.stderr)")
        for (index, second) in [(1, "00"), (2, "02")] {
            let path = folder.path("other-000\(index).mp4")
            try FileManager.default.copyItem(atPath: piece, toPath: path)
            let stamped = try ChildProcess.run("exiftool", ["-q", "-overwrite_original", "-Keys:CreationDate=2026:12:01 10:00:\(second).000+00:00", path])
            #expect(stamped.status == 0, "\(stamped.stderr)")
        }
        let run = try CamrecBinary.run(["export", "--utc", "--from", "10:00:01.5", "--to", "10:00:03.2", "--json", "-o",
                                        folder.path("out.mp4"), folder.path("other.mp4")])
        #expect(run.status == 0, "\(run.stderr)")
        let line = try #require(JSONLines.parse(run).first { $0["type"] as? String == "export" })
        let source = try Self.frameHashes(piece)
        #expect(source.count == 60)
        let expected = Array(source[45..<60]) + Array(source[0..<36])
        let exported = try Self.frameHashes(folder.path("out.mp4"))
        #expect(exported.count == expected.count, "\(exported.count) frames, want \(expected.count)")
        #expect(line["frames"] as? Int == expected.count)
        let copied = try #require(line["frames_copied"] as? Int)
        let matching = zip(exported, expected).filter { $0 == $1 }.count
        #expect(copied > 0 && matching >= copied, "\(matching) frames decode as the source's, \(copied) were copied")
        #expect(line["start"] as? String == "2026-12-01T10:00:01.500Z", "\(line)")
    }
}

extension ExportTests {
    /// A series still being recorded: without --to, the export ends where the movie being
    /// written begins (with a warning), and holds every frame of the finished segments.
    @Test func aSeriesBeingRecordedIsExportedUpToItsLiveMovie() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let recording = try CamrecBinary.start(["--device", "test", "--size", "320x240", "-t", "none", "--segment", "1", "--json",
                                                folder.path("live.mp4")])
        defer { recording.signal(SIGKILL) }
        #expect(recording.waitUntil { _ in recording.lines(type: "segment").count >= 2 }, "\(recording.stderrText)")
        let run = try CamrecBinary.run(["export", "--json", "-o", folder.path("out.mp4"), folder.path("live.mp4")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("is still being recorded: the export ends where it begins"), "\(run.stderr)")
        let line = try #require(JSONLines.parse(run).first { $0["type"] as? String == "export" }, "\(run.stdoutText)")
        let movies = try #require(line["movies"] as? [String])
        #expect(movies.count >= 2 && movies.allSatisfy { !$0.contains(".partial") }, "\(movies)")
        var frames = 0
        for movie in movies { frames += try MediaProbe.probe(movie).frames }
        #expect(try MediaProbe.probe(folder.path("out.mp4")).frames == frames)
        recording.signal(SIGINT)
        #expect(recording.wait() == 0)
    }
}

import Foundation
import Testing

/// `camrec trim` on the input side of issue 30: Matroska with and without Cues (item 13: the
/// index comes from the block headers, any times) and AVI (item 12: MPEG-4 Part 2 and MJPEG,
/// as older cameras and dashcams write them). Each source is made by ffmpeg in the test and
/// every output is checked by ffprobe/ffmpeg (frame count, framemd5 against the source).
@Suite("Trim input formats (issue 30 items 12, 13)", .serialized)
struct TrimInputFormatsTests {
    // MARK: Item 13: Matroska, with and without Cues

    /// 12 s of H.264 with B-frames (a keyframe every second) and AAC, as Matroska; without
    /// Cues when written to a pipe (as a live stream is).
    static func matroska(_ folder: TemporaryFolder, cues: Bool) throws -> String {
        let path = folder.path(cues ? "in.mkv" : "live.mkv")
        let arguments = [
            "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=12",
            "-f", "lavfi", "-i", "sine=frequency=440:duration=12", "-c:v", "libx264", "-bf", "2", "-g", "30",
            "-sc_threshold", "0", "-c:a", "aac", "-f", "matroska",
        ]
        let result = cues
            ? try ChildProcess.run("ffmpeg", arguments + [path], timeout: 300)
            : try ChildProcess.run("sh", ["-c", "ffmpeg " + arguments.map { "'\($0)'" }.joined(separator: " ") + " - > '\(path)'"],
                                   timeout: 300)
        guard result.status == 0 else { throw ChildProcess.LaunchFailure(description: "ffmpeg failed: \(result.stderr)") }
        return path
    }

    @Test("item 13: negative times on Matroska, with and without Cues, give the source's frames",
          arguments: [true, false])
    func matroskaNegativeTimes(cues: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.matroska(folder, cues: cues)
        let source = try WildMedia.frameHashes(input)
        #expect(source.count == 360)

        // The last 3 s: source frames 270 to 359.
        let tail = folder.path("tail.mkv")
        let last = try CamrecBinary.run(["trim", "--start", "-3", "-o", tail, input])
        #expect(last.status == 0, "\(last.stderr)")
        #expect(try WildMedia.frameTimes(tail).count == 90)
        try WildMedia.expectSourceFrames(tail, source: source, firstSourceFrame: 270, atLeast: 60)

        // All but the last 5 s: source frames 0 to 209.
        let head = folder.path("head.mkv")
        let first = try CamrecBinary.run(["trim", "--end", "-5", "-o", head, input])
        #expect(first.status == 0, "\(first.stderr)")
        let times = try WildMedia.frameTimes(head)
        #expect(times.count == 210, "\(times.count)")
        #expect(WildMedia.strictlyRising(times))
        try WildMedia.expectSourceFrames(head, source: source, firstSourceFrame: 0, atLeast: 200)

        // A window in the middle, to MP4: source frames 100 to 249.
        let middle = folder.path("middle.mp4")
        let cut = try CamrecBinary.run(["trim", "--start", "3.35", "--end", "8.35", "-o", middle, input])
        #expect(cut.status == 0, "\(cut.stderr)")
        #expect(try WildMedia.frameTimes(middle).count == 150)
        try WildMedia.expectSourceFrames(middle, source: source, firstSourceFrame: 100, atLeast: 120)
    }

    // MARK: Item 12: AVI (MPEG-4 Part 2, MJPEG)

    /// 6 s of `codec` video in AVI, with `audio` ("pcm_s16le", "libmp3lame") or none.
    static func avi(_ folder: TemporaryFolder, _ name: String, video: [String], audio: String?) throws -> String {
        var arguments = ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=6"]
        if let audio { arguments += ["-f", "lavfi", "-i", "sine=frequency=440:duration=6", "-c:a", audio] }
        let path = folder.path(name)
        let result = try ChildProcess.run("ffmpeg", arguments + video + [path], timeout: 300)
        guard result.status == 0 else { throw ChildProcess.LaunchFailure(description: "ffmpeg failed: \(result.stderr)") }
        return path
    }

    static let mpeg4 = ["-c:v", "mpeg4", "-q:v", "3", "-bf", "2", "-g", "60"]
    static let mjpeg = ["-c:v", "mjpeg", "-q:v", "3"]

    /// The audio streams' codec names, by ffprobe.
    static func audioCodecs(_ path: String) throws -> [String] {
        let result = try ChildProcess.run("ffprobe", [
            "-v", "error", "-select_streams", "a", "-show_entries", "stream=codec_name", "-of", "csv=p=0", path,
        ])
        return result.stdoutText.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The video frames' times as ffmpeg shows them (its best-effort times: AVI stores no
    /// presentation time for MPEG-4 frames other than keyframes).
    static func shownTimes(_ path: String) throws -> [Double] {
        let result = try ChildProcess.run("ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=best_effort_timestamp_time", "-of", "csv=p=0", path,
        ])
        return result.stdoutText.split(whereSeparator: \.isNewline).compactMap { line in
            line.split(separator: ",").first.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        }
    }

    @Test("item 12: an MJPEG AVI is cut to Matroska beside it, exactly (all copied), its sound kept",
          arguments: ["pcm_s16le", "libmp3lame", nil] as [String?])
    func mjpegAccurate(audio: String?) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.avi(folder, "cam.avi", video: Self.mjpeg, audio: audio)
        let source = try WildMedia.frameHashes(input)
        // ffmpeg may leave a frame out of an AVI with MP3 (an empty chunk): count by time.
        let sourceTimes = try Self.shownTimes(input)
        #expect(source.count == sourceTimes.count && source.count >= 179)
        let first = try #require(sourceTimes.firstIndex { $0 >= 1.4995 })
        let wanted = sourceTimes.filter { $0 >= 1.4995 && $0 < 4.4995 }.count
        let result = try CamrecBinary.run(["trim", "--start", "1.5", "--end", "4.5", "--json", input])
        #expect(result.status == 0, "\(result.stderr)")
        let output = folder.path("cam-trimmed.mkv")
        let line = try #require(JSONLines.parse(result).last)
        #expect(line["mode"] as? String == "accurate", "\(line)")
        let times = try WildMedia.frameTimes(output)
        #expect(times.count == wanted, "\(times)")
        #expect(WildMedia.strictlyRising(times))
        try WildMedia.expectSourceFrames(output, source: source, firstSourceFrame: first, atLeast: wanted)
        #expect(try MediaProbe.decodeErrors(output).isEmpty)
        if let audio {
            #expect(try Self.audioCodecs(output) == [audio == "libmp3lame" ? "mp3" : "pcm_s16le"])
        }
    }

    @Test("item 12: an MPEG-4 Part 2 AVI with B-frames is cut frame-accurately beside its sound",
          arguments: ["pcm_s16le", "libmp3lame", nil] as [String?])
    func mpeg4WithBFramesAccurate(audio: String?) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.avi(folder, "cam.avi", video: Self.mpeg4, audio: audio)
        let source = try WildMedia.frameHashes(input)
        #expect(source.count == 180)
        let result = try CamrecBinary.run(["trim", "--start", "2.5", "--end", "4.5", "--json", input])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(JSONLines.parse(result).last)
        #expect(line["mode"] as? String == "accurate", "\(line)")
        let output = folder.path("cam-trimmed.mkv")
        let times = try WildMedia.frameTimes(output)
        #expect(WildMedia.strictlyRising(times))
        // Source frames 75 to 134 (source frame n is shown at n/30 s; ffmpeg's framemd5 lists
        // them in display order): B-frames shown in their order, not in the order AVI stores them.
        #expect(times.count == 60, "\(times.count) frames, \(line)")
        #expect(line["first_frame_time"] as? Double == 2.5, "\(line)")
        try WildMedia.expectSourceFrames(output, source: source, firstSourceFrame: 75, atLeast: line["frames_copied"] as? Int ?? 0)
        #expect(try WildMedia.lumaPSNR(output, source: input, firstSourceFrame: 75).minimum >= 35)
        #expect(try MediaProbe.decodeErrors(output).isEmpty)
        if let audio {
            #expect(try Self.audioCodecs(output) == [audio == "libmp3lame" ? "mp3" : "pcm_s16le"])
        }
    }

    @Test("item 12: MPEG-4 Part 2 in AVI without B-frames is cut frame-accurately, edges re-encoded")
    func mpeg4WithoutBFramesAccurate() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.avi(folder, "cam.avi", video: ["-c:v", "mpeg4", "-q:v", "3", "-bf", "0", "-g", "60"],
                                 audio: "libmp3lame")
        let source = try WildMedia.frameHashes(input)
        let sourceTimes = try Self.shownTimes(input)
        let first = try #require(sourceTimes.firstIndex { $0 >= 1.4995 })
        let wanted = sourceTimes.filter { $0 >= 1.4995 && $0 < 4.4995 }.count
        let output = folder.path("out.mkv")
        let result = try CamrecBinary.run(["trim", "--start", "1.5", "--end", "4.5", "--json", "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(JSONLines.parse(result).last)
        #expect(line["mode"] as? String == "accurate", "\(line)")
        let times = try WildMedia.frameTimes(output)
        #expect(times.count == wanted, "\(times)")
        #expect(WildMedia.strictlyRising(times))
        // The copied middle (keyframes at 2 and 4 s: 60 frames) is the source's bit for bit.
        try WildMedia.expectSourceFrames(output, source: source, firstSourceFrame: first, atLeast: 60)
    }

    @Test("the output check decodes MPEG-4 Part 2 with B-frames beside sound (MKV input, MKV and MP4 output)",
          arguments: ["mkv", "mp4"])
    func mpeg4WithSoundIsChecked(output ext: String) throws {
        // Before the check gave other streams a queue, its sound sink held the demuxer's
        // thread while it prerolled: the MPEG-4 decoder never got its first frames, and the
        // check stalled for 30 s (exit 1, nothing written).
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try WildMedia.ffmpeg(folder.path("in.mkv"), input: "testsrc2=size=320x240:rate=30:duration=6", audio: true,
                                         ["-c:v", "mpeg4", "-q:v", "3", "-bf", "2", "-g", "60", "-c:a", "aac", "-t", "6"])
        let output = folder.path("out.\(ext)")
        let result = try CamrecBinary.run(["trim", "--start", "1.5", "--end", "4.5", "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try WildMedia.frameTimes(output).count == 90)
        #expect(try Self.audioCodecs(output) == ["aac"])
    }

    @Test("item 12: camrec writes no AVI: -o x.avi and --in-place on an AVI are usage errors")
    func aviOutputRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.avi(folder, "cam.avi", video: Self.mjpeg, audio: nil)
        let toAVI = try CamrecBinary.run(["trim", "--start", "1", "-o", folder.path("x.avi"), input])
        #expect(toAVI.status == 64, "\(toAVI.stderr)")
        #expect(toAVI.stderr.contains("writes no AVI"), "\(toAVI.stderr)")
        #expect(toAVI.stderr.split(whereSeparator: \.isNewline).count == 1, "\(toAVI.stderr)")
        let inPlace = try CamrecBinary.run(["trim", "--start", "1", "--in-place", input])
        #expect(inPlace.status == 64, "\(inPlace.stderr)")
        #expect(inPlace.stderr.contains("-o NAME.mkv"), "\(inPlace.stderr)")
        #expect(try WildMedia.frameHashes(input).count == 180)
    }
}

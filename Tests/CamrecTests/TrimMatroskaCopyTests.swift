import Foundation
import Testing

/// `camrec trim` from Matroska to Matroska without GStreamer for the copied part (issue 30
/// item 13, "Matroska cuts without GStreamer" in docs/trim.md): the copied blocks are read
/// from the file and written by camrec's own writer. Sources are made by ffmpeg in the test;
/// every output is checked with ffprobe/ffmpeg (framemd5 of the copied frames, exact frame
/// counts, labels, chapters, cues, the muxing application named in the segment info).
@Suite("Trim Matroska by copying its blocks (issue 30 item 13)", .serialized)
struct TrimMatroskaCopyTests {
    /// 10 s of H.264 with B-frames (a keyframe every second), PCM sound starting with the
    /// video at 0 ("Main sound") and a French AAC commentary (not default), SubRip subtitles
    /// (forced), chapters at 0, 3 and 6 s; without Cues when written to a pipe.
    static func movie(_ folder: TemporaryFolder, cues: Bool = true) throws -> String {
        let subtitles = folder.path("cues.srt")
        try Data("""
        1
        00:00:01,000 --> 00:00:02,000
        one

        2
        00:00:03,000 --> 00:00:05,000
        two

        3
        00:00:07,000 --> 00:00:08,000
        three

        """.utf8).write(to: URL(fileURLWithPath: subtitles))
        let chapters = folder.path("chapters.txt")
        var text = ";FFMETADATA1\n"
        for (start, title) in [(0, "Intro"), (3000, "Middle"), (6000, "End")] {
            text += "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(start)\nEND=\(start + 3000)\ntitle=\(title)\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: chapters))
        let path = folder.path(cues ? "in.mkv" : "live.mkv")
        let arguments = [
            "-nostdin", "-v", "error", "-y",
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=10",
            "-f", "lavfi", "-i", "sine=frequency=440:duration=10", "-f", "lavfi", "-i", "sine=frequency=660:duration=10",
            "-i", subtitles, "-i", chapters,
            "-map", "0", "-map", "1", "-map", "2", "-map", "3", "-map_chapters", "4",
            "-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "30", "-sc_threshold", "0",
            "-c:a:0", "pcm_s16le", "-c:a:1", "aac", "-c:s", "srt",
            "-metadata:s:a:0", "title=Main sound", "-metadata:s:a:1", "title=Commentaire",
            "-metadata:s:a:1", "language=fre",
            "-disposition:v:0", "default", "-disposition:a:0", "default", "-disposition:a:1", "0",
            "-disposition:s:0", "forced", "-f", "matroska",
        ]
        let result = cues
            ? try ChildProcess.run("ffmpeg", arguments + [path], timeout: 300)
            : try ChildProcess.run(
                "sh", ["-c", "ffmpeg " + arguments.map { "'\($0)'" }.joined(separator: " ") + " - > '\(path)'"], timeout: 300
            )
        guard result.status == 0 else { throw MediaProbe.Failure(description: "ffmpeg failed: \(result.stderr)") }
        return path
    }

    static let labels: [LabelProbe.Stream] = [
        .init(type: "video", language: nil, title: nil, isDefault: true, isForced: false),
        .init(type: "audio", language: nil, title: "Main sound", isDefault: true, isForced: false),
        .init(type: "audio", language: "fre", title: "Commentaire", isDefault: false, isForced: false),
        .init(type: "subtitle", language: nil, title: nil, isDefault: false, isForced: true),
    ]

    /// The muxing application the file's segment info names (read from its first bytes).
    static func muxingApp(_ path: String) throws -> String? {
        let head = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(2048))
        guard let at = (0..<max(0, head.count - 3)).first(where: { head[$0] == 0x4D && head[$0 + 1] == 0x80 }),
              head[at + 2] & 0x80 != 0
        else { return nil }
        let size = Int(head[at + 2] & 0x7F)
        guard at + 3 + size <= head.count else { return nil }
        return String(decoding: head[(at + 3)..<(at + 3 + size)], as: UTF8.self)
    }

    @Test("an accurate cut copies the middle's frames bit for bit, re-encodes the edges, keeps labels and chapters")
    func accurateCut() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.movie(folder)
        let source = try WildMedia.frameHashes(input)
        #expect(source.count == 300)
        #expect(try LabelProbe.streams(input) == Self.labels, "the source as ffmpeg wrote it")
        let output = folder.path("out.mkv")
        // The AAC commentary's priming puts frame n at 0.023 + n/30 s: source frames 42 (1.423 s)
        // to 137 (4.590 s), 96 frames, at least 60 of them copied.
        let result = try CamrecBinary.run(["trim", "--start", "1.4", "--end", "4.6", "--json", "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.muxingApp(output) == "camrec", "written by camrec's own Matroska writer")
        let times = try WildMedia.frameTimes(output)
        #expect(times.count == 96, "\(times)")
        #expect(WildMedia.strictlyRising(times), "\(times)")
        #expect(times.first == 0)
        try WildMedia.expectSourceFrames(output, source: source, firstSourceFrame: 42, atLeast: 60)
        #expect(try MediaProbe.decodeErrors(output).isEmpty)
        #expect(try LabelProbe.streams(output) == Self.labels)
        let chapters = try LabelProbe.chapters(output)
        #expect(chapters == [
            .init(start: 0, end: 1.577, title: "Intro"), .init(start: 1.577, end: 3.2, title: "Middle"),
        ], "\(chapters)")
        // The cue shown across the first frame (1 to 2 s) is kept from 0; the next one is cut at the end.
        let cues = try LabelProbe.cues(output)
        #expect(cues == [
            LabelProbe.Cue(start: 0, duration: 0.6, text: "one"), LabelProbe.Cue(start: 1.6, duration: 1.6, text: "two"),
        ], "\(cues)")
        // The PCM sound is cut with the video: its first packet starts within a packet of 0.
        let sound = try LabelProbe.packetTimes(output, stream: "a:0")
        let first = try #require(sound.first)
        #expect(first >= 0 && first < 0.025, "\(sound.prefix(3))")
        #expect((sound.last ?? 0) < 3.2, "\(sound.suffix(3))")
        #expect(try !LabelProbe.packetTimes(output, stream: "a:1").isEmpty)
    }

    @Test("--mode keyframe copies whole GOPs, every frame the source's")
    func keyframeCut() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.movie(folder)
        let source = try WildMedia.frameHashes(input)
        let output = folder.path("out.mkv")
        let result = try CamrecBinary.run(["trim", "--mode", "keyframe", "--start", "2.5", "--end", "5.5", "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.muxingApp(output) == "camrec")
        // From the keyframe at 2.023 s (frame 60) to frame 164 (5.473 s), every frame shown
        // before the end, and the reference frame the last B-frames need (frame 165, 5.506 s):
        // keyframe mode's rule since issue 30 item 12 (the plan no longer stops at 5.423 s).
        let times = try WildMedia.frameTimes(output)
        #expect(times.count == 106, "\(times.count)")
        #expect(times.filter { $0 < 5.5 - 2.023 }.count == 105, "\(times.suffix(3))")
        #expect(WildMedia.strictlyRising(times))
        try WildMedia.expectSourceFrames(output, source: source, firstSourceFrame: 60, atLeast: 106)
        #expect(try LabelProbe.streams(output) == Self.labels)
    }

    @Test("negative times: all but the last 3 s, copied from the start")
    func negativeEnd() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.movie(folder)
        let source = try WildMedia.frameHashes(input)
        let output = folder.path("out.mkv")
        let result = try CamrecBinary.run(["trim", "--end", "-3", "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.muxingApp(output) == "camrec")
        let times = try WildMedia.frameTimes(output)
        #expect(times.count == 210, "\(times.count)")
        #expect(WildMedia.strictlyRising(times))
        try WildMedia.expectSourceFrames(output, source: source, firstSourceFrame: 0, atLeast: 210)
        #expect(try LabelProbe.chapters(output).map(\.title) == ["Intro", "Middle", "End"])
    }

    @Test("a Matroska file without Cues is cut by GStreamer's path, with the same frames")
    func withoutCues() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.movie(folder, cues: false)
        let source = try WildMedia.frameHashes(input)
        let output = folder.path("out.mkv")
        let result = try CamrecBinary.run(["trim", "--start", "1.4", "--end", "4.6", "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.muxingApp(output) != "camrec", "no Cues: GStreamer's muxer writes the cut")
        #expect(try WildMedia.frameTimes(output).count == 96)
        try WildMedia.expectSourceFrames(output, source: source, firstSourceFrame: 42, atLeast: 60)
        #expect(try LabelProbe.streams(output) == Self.labels)
    }

    @Test("WebM (VP9 and Opus) is cut to WebM by copying its blocks; the doctype stays webm")
    func webm() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try WildMedia.ffmpeg(folder.path("in.webm"), input: "testsrc2=size=320x240:rate=30:duration=6", audio: true, [
            "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "30", "-c:a", "libopus", "-t", "6",
        ])
        let source = try WildMedia.frameHashes(input)
        let output = folder.path("out.webm")
        let result = try CamrecBinary.run(["trim", "--start", "1.4", "--end", "4.6", "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try WildMedia.docType(output) == "webm")
        #expect(try Self.muxingApp(output) == "camrec")
        let times = try WildMedia.frameTimes(output)
        #expect(times.count == 96, "\(times.count)")
        #expect(WildMedia.strictlyRising(times))
        try WildMedia.expectSourceFrames(output, source: source, firstSourceFrame: 42, atLeast: 60)
        #expect(try MediaProbe.decodeErrors(output).isEmpty)
        #expect(try !LabelProbe.packetTimes(output, stream: "a:0").isEmpty)
    }

    @Test("a signal while camrec's Matroska writer works removes the temporary file and exits 130")
    func signalRemovesTheTemporaryFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // 20 s of 720p in one GOP: the head edge re-encodes almost all of it, long enough to
        // be caught while the writer's temporary file is open.
        let input = try WildMedia.ffmpeg(folder.path("in.mkv"), input: "testsrc2=size=1280x720:rate=30:duration=20", audio: true, [
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "600", "-c:a", "aac", "-t", "20",
        ])
        let output = folder.path("out.mkv")
        let run = try CamrecBinary.start(["trim", "--start", "0.5", "--end", "19.9", "--json", "-o", output, input])
        let started = Wait.until(timeout: 120) {
            folder.contents.contains { $0.hasSuffix(".part") } || !run.process.isRunning
        }
        #expect(started && run.process.isRunning, "the trim never wrote its temporary file: \(run.stderrText)")
        run.signal(SIGINT)
        let status = run.wait(timeout: 60)
        #expect(status == 130, "exit status \(String(describing: status)): \(run.stderrText)")
        #expect(folder.contents == ["in.mkv"], "left behind: \(folder.contents)")
    }
}

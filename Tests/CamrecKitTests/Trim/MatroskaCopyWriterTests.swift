@testable import CamrecKit
@testable import Trim
import Foundation
import MP4
import Testing
import Matroska

/// The parts of camrec's own Matroska copy (issue 30 item 13): what it reads of a source
/// (``MatroskaSource``), what its writer makes (``MatroskaFileWriter``, read back by
/// ffprobe), and which cuts it takes. The cuts themselves are checked in
/// TrimMatroskaCopyTests (CamrecTests).
@Suite("Matroska copy writer", .serialized)
struct MatroskaCopyWriterTests {
    /// 4 s of H.264 and two sounds (the second French, not default), chapters at 0 and 2 s.
    static func source(_ media: MediaFactory) throws -> String {
        let chapters = media.path("chapters.txt")
        try Data("""
        ;FFMETADATA1
        [CHAPTER]
        TIMEBASE=1/1000
        START=0
        END=2000
        title=One
        [CHAPTER]
        TIMEBASE=1/1000
        START=2000
        END=4000
        title=Two

        """.utf8).write(to: URL(fileURLWithPath: chapters))
        let output = media.path("labelled.mkv")
        try ProcessRunner.check("ffmpeg", [
            "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=4",
            "-f", "lavfi", "-i", "sine=duration=4", "-f", "lavfi", "-i", "sine=frequency=660:duration=4", "-i", chapters,
            "-map", "0", "-map", "1", "-map", "2", "-map_chapters", "3", "-c:v", "libx264", "-preset", "ultrafast",
            "-g", "30", "-c:a", "pcm_s16le", "-metadata:s:a:1", "language=fre", "-metadata:s:a:1", "title=Commentaire",
            "-disposition:a:1", "0", output,
        ])
        return output
    }

    static func probe(_ arguments: [String]) throws -> [String: Any] {
        let result = try ProcessRunner.run("ffprobe", ["-v", "error", "-of", "json"] + arguments)
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
        else { throw ProcessRunner.Failure(description: "ffprobe failed: \(result.stderr)") }
        return object
    }

    @Test("the source's track headers, chapters and video cue points are read as they are")
    func readsSource() throws {
        let media = try MediaFactory()
        let input = try Self.source(media)
        let source = try #require(MatroskaSource(path: input, videoTrack: 1))
        #expect(source.timestampScale == 1_000_000)
        #expect(source.tracks.map(\.type) == [1, 2, 2])
        #expect(source.tracks.map(\.codecID) == ["V_MPEG4/ISO/AVC", "A_PCM/INT/LIT", "A_PCM/INT/LIT"])
        #expect(source.tracks.allSatisfy { !$0.isEncoded })
        #expect(source.editions.count == 1)
        #expect(source.editions.first?.map(\.chapter.title) == ["One", "Two"])
        #expect(!source.cues.isEmpty)
        #expect(source.cues.first?.time == 0)
        // A cut from 1.5 to 3 s keeps both chapters, shifted and clipped.
        let kept = source.chapters(start: 1_500_000_000, end: 3_000_000_000, length: 4_000_000_000)
        #expect(kept.first?.map(\.chapter) == [
            Chapter(start: 0, end: 500_000_000, title: "One"), Chapter(start: 500_000_000, end: 1_500_000_000, title: "Two"),
        ])
    }

    @Test("the writer's file is read by ffprobe: the source's track headers, the chapters, the info")
    func writtenFileReads() throws {
        let media = try MediaFactory()
        let input = try Self.source(media)
        let source = try #require(MatroskaSource(path: input, videoTrack: 1))
        let output = media.path("written.mkv")
        let file = try MatroskaFileWriter(path: output)
        try file.begin()
        try file.appendTopLevel(
            EBML.ID.info, element: MatroskaFileWriter.info(timestampScale: 1_000_000, duration: 1500, title: nil)
        )
        try file.appendTopLevel(EBML.ID.tracks, element: EBML.element(EBML.ID.tracks, source.tracks.flatMap(\.entry)))
        let marks = source.chapters(start: 1_500_000_000, end: 3_000_000_000, length: 4_000_000_000)
        try file.appendTopLevel(EBML.ID.chapters, element: MatroskaFileWriter.chapters(marks))
        // One cluster holding the source's first frame, copied, and the Cues pointing to it.
        var index = try #require(MatroskaBlockIndex(path: input, videoCaps: nil))
        var cost = MatroskaBlockIndex.Cost()
        let first = try #require(index.window(start: 0, end: 0, cost: &cost)?.first)
        let payload = try SampleFile(path: input).read(offset: first.payload.lowerBound, count: first.payload.count)
        let block = EBML.element(EBML.ID.simpleBlock, EBML.trackField(1) + [0, 0, 0x80] + payload)
        let cluster = try file.appendCluster(time: 0, blocks: block)
        try file.appendCues([(time: 0, cluster: cluster)], track: 1)
        try file.finish()

        let streams = try Self.probe(["-show_streams", output])["streams"] as? [[String: Any]] ?? []
        #expect(streams.map { $0["codec_name"] as? String } == ["h264", "pcm_s16le", "pcm_s16le"])
        let tags = streams.map { $0["tags"] as? [String: Any] ?? [:] }
        #expect(tags[2]["language"] as? String == "fre")
        #expect(tags[2]["title"] as? String == "Commentaire")
        let defaults = streams.map { ($0["disposition"] as? [String: Any])?["default"] as? Int }
        #expect(defaults.last == 0)
        let chapters = try Self.probe(["-show_chapters", output])["chapters"] as? [[String: Any]] ?? []
        #expect(chapters.map { ($0["tags"] as? [String: Any])?["title"] as? String } == ["One", "Two"])
        #expect(chapters.map { $0["start_time"] as? String } == ["0.000000", "0.500000"])
        let format = try Self.probe(["-show_format", output])["format"] as? [String: Any]
        #expect(format?["duration"] as? String == "1.500000")
        let frames = try ProcessRunner.run("ffmpeg", ["-v", "error", "-i", output, "-map", "0:v", "-f", "null", "-"])
        #expect(frames.status == 0 && frames.stderr.isEmpty, "\(frames.stderr)")
    }

    @Test("a track header's codec data is replaced, every other field kept")
    func codecPrivateReplaced() throws {
        let entry = EBML.element(EBML.ID.trackEntry,
            EBML.unsigned(EBML.ID.trackNumber, 1) + EBML.element(EBML.ID.codecID, Array("V_MPEG4/ISO/AVC".utf8))
                + EBML.element(EBML.ID.codecPrivate, [1, 2, 3]) + EBML.unsigned(EBML.ID.trackType, 1)
        )
        let replaced = try MatroskaCopyWriter.replacingCodecPrivate([9, 9, 9, 9], in: entry)
        let expected = EBML.element(EBML.ID.trackEntry,
            EBML.unsigned(EBML.ID.trackNumber, 1) + EBML.element(EBML.ID.codecID, Array("V_MPEG4/ISO/AVC".utf8))
                + EBML.unsigned(EBML.ID.trackType, 1) + EBML.element(EBML.ID.codecPrivate, [9, 9, 9, 9])
        )
        #expect(replaced == expected)
    }

    @Test("the copy takes Matroska outputs in accurate and keyframe modes, never a re-encode or another container")
    func takes() throws {
        let media = try MediaFactory()
        let input = try Self.source(media)
        let opened = try #require(try GStreamerInput.openMatroska(
            path: input, start: TimeSpec(nanoseconds: 1_000_000_000), end: TimeSpec(nanoseconds: 3_000_000_000),
            control: TrimControl()
        ))
        #expect(opened.input.matroska != nil)
        let copyPlan = TrimPlan(
            mode: .keyframe, parts: [.copy(frames: 0...29)], firstPTS: 0, lastPTS: 0, endPTS: 0, frameCount: 30,
            framesCopied: 30, framesReencoded: 0
        )
        func job(_ plan: TrimPlan, _ container: MediaContainer) -> TrimJob {
            TrimJob(plan: plan, codec: .h264, encoding: nil, outputPath: media.path("x"), outputContainer: container,
                    control: TrimControl())
        }
        #expect(opened.input.writer(for: job(copyPlan, .matroska)) is MatroskaCopyWriter)
        #expect(opened.input.writer(for: job(copyPlan, .mp4)) is GStreamerTrimWriter)
        var reencode = copyPlan
        reencode.mode = .reencode
        #expect(opened.input.writer(for: job(reencode, .matroska)) is GStreamerTrimWriter)
    }
}

import Foundation
import Testing

/// `camrec trim` keeps the source's track labels and chapters in the outputs GStreamer's
/// muxers write (issue 30 items 5, 6 and 7): Matroska in every mode, MP4 of
/// `--mode reencode`. Sources are made by ffmpeg in the test; outputs are read by ffprobe.
@Suite("Trim keeps track labels and chapters (issue 30 items 5-7)", .serialized)
struct TrimMetadataTests {
    /// A 6-s MKV: H.264, two sounds ("Main sound", default; "Commentaire" in French, not
    /// default), SubRip subtitles (forced, not default, three cues), chapters at 0, 2, 4 s.
    /// PCM sound starts with the video at 0 (AAC's priming would move the video 23 ms later).
    static func labelled(_ folder: TemporaryFolder, sound: String = "pcm_s16le") throws -> String {
        let subtitles = folder.path("cues.srt")
        try Data("""
        1
        00:00:00,500 --> 00:00:01,500
        one

        2
        00:00:02,000 --> 00:00:03,000
        two

        3
        00:00:04,000 --> 00:00:05,500
        three

        """.utf8).write(to: URL(fileURLWithPath: subtitles))
        let chapters = folder.path("chapters.txt")
        var text = ";FFMETADATA1\n"
        for (start, title) in [(0, "Intro"), (2000, "Middle"), (4000, "End")] {
            text += "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(start)\nEND=\(start + 2000)\ntitle=\(title)\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: chapters))
        let path = folder.path("labelled-\(sound).mkv")
        let result = try ChildProcess.run("ffmpeg", [
            "-nostdin", "-v", "error", "-y",
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=6",
            "-f", "lavfi", "-i", "sine=frequency=440:duration=6", "-f", "lavfi", "-i", "sine=frequency=660:duration=6",
            "-i", subtitles, "-i", chapters,
            "-map", "0", "-map", "1", "-map", "2", "-map", "3", "-map_chapters", "4",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-bf", "0", "-c:a", sound, "-c:s", "srt",
            "-metadata:s:a:0", "title=Main sound", "-metadata:s:a:1", "title=Commentaire",
            "-metadata:s:a:1", "language=fre",
            "-disposition:v:0", "default", "-disposition:a:0", "default", "-disposition:a:1", "0",
            "-disposition:s:0", "forced", path,
        ], timeout: 300)
        guard result.status == 0 else { throw MediaProbe.Failure(description: "ffmpeg failed: \(result.stderr)") }
        return path
    }

    @Test("item 6: MKV output keeps each track's language, name and default/forced flags, in every mode",
          arguments: ["accurate", "keyframe", "reencode"])
    func matroskaLabels(mode: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.labelled(folder)
        let expected: [LabelProbe.Stream] = [
            .init(type: "video", language: nil, title: nil, isDefault: true, isForced: false),
            .init(type: "audio", language: nil, title: "Main sound", isDefault: true, isForced: false),
            .init(type: "audio", language: "fre", title: "Commentaire", isDefault: false, isForced: false),
            .init(type: "subtitle", language: nil, title: nil, isDefault: false, isForced: true),
        ]
        #expect(try LabelProbe.streams(input) == expected, "the source as ffmpeg wrote it")
        let output = folder.path("out-\(mode).mkv")
        let result = try CamrecBinary.run(["trim", "--start", "1", "--end", "5", "--mode", mode, "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try LabelProbe.streams(output) == expected)
    }

    @Test("item 6: MKV output's subtitles gain no zero-length cue at the end")
    func matroskaCues() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.labelled(folder)
        let output = folder.path("out.mkv")
        // The last frame ends at 2.000333 s, a third of a millisecond after the cue at 2 s starts.
        let result = try CamrecBinary.run(["trim", "--end", "2", "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        let cues = try LabelProbe.cues(output)
        #expect(cues == [LabelProbe.Cue(start: 0.5, duration: 1, text: "one")], "\(cues)")
    }

    @Test("item 5: MKV output keeps the chapters that overlap the cut, shifted and clipped, in every mode",
          arguments: ["accurate", "keyframe", "reencode"])
    func matroskaChapters(mode: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.labelled(folder)
        #expect(try LabelProbe.chapters(input).map(\.start) == [0, 2, 4])
        let output = folder.path("out-\(mode).mkv")
        let result = try CamrecBinary.run(["trim", "--start", "1", "--end", "5", "--mode", mode, "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        let chapters = try LabelProbe.chapters(output)
        #expect(chapters == [
            .init(start: 0, end: 1, title: "Intro"), .init(start: 1, end: 3, title: "Middle"),
            .init(start: 3, end: 4, title: "End"),
        ], "\(chapters)")
    }

    @Test("items 5 and 7: --mode reencode to MP4 keeps each track's language and the chapters (a Nero list)")
    func mp4LanguagesAndChapters() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.labelled(folder, sound: "aac")
        let output = folder.path("out.mp4")
        let result = try CamrecBinary.run(
            ["trim", "--start", "1", "--end", "5", "--mode", "reencode", "--json", "-o", output, input]
        )
        #expect(result.status == 0, "\(result.stderr)")
        let audio = try LabelProbe.streams(output).filter { $0.type == "audio" }
        #expect(audio.map(\.language) == ["und", "fra"], "\(audio)")
        // AAC's priming puts the first frame at 1.023 s: the chapters at 2 and 4 s follow it by 0.977 and 2.977 s.
        let line = try #require(JSONLines.parse(result).last)
        let first = try #require(line["first_frame_time"] as? Double)
        let chapters = try LabelProbe.chapters(output)
        #expect(chapters.map(\.title) == ["Intro", "Middle", "End"], "\(chapters)")
        let expected = [0, 2 - first, 4 - first].map { ($0 * 1000).rounded() / 1000 }
        #expect(chapters.map(\.start) == expected, "\(chapters)")
    }
}

extension TrimMetadataTests {
    @Test("MKV with FLAC sound is cut to MKV (matroskamux takes FLAC's headers only as flacparse gives them)")
    func matroskaFLAC() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try WildMedia.ffmpeg(folder.path("flac.mkv"), input: "testsrc2=size=320x240:rate=30:duration=4", audio: true, [
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-c:a", "flac", "-t", "4",
        ])
        let output = folder.path("out.mkv")
        let result = try CamrecBinary.run(["trim", "--start", "1", "--end", "3", "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try LabelProbe.streams(output).map(\.type) == ["video", "audio"])
        // The first packet kept is the source's first at or after 1 s, moved by 1 s.
        let source = try LabelProbe.packetTimes(input, stream: "a:0")
        let kept = try LabelProbe.packetTimes(output, stream: "a:0")
        let first = try #require(source.first { $0 >= 1 })
        #expect(kept.first == ((first - 1) * 1000).rounded() / 1000, "\(kept.prefix(3))")
        #expect(try MediaProbe.decodeErrors(output).isEmpty)
    }

    @Test("item 6: a cue shown across the first frame of a cut from MKV is kept, from 0", arguments: ["accurate", "keyframe"])
    func matroskaCueAcrossTheStart(mode: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.labelled(folder)
        let output = folder.path("out.mkv")
        let result = try CamrecBinary.run(["trim", "--start", "1", "--end", "5", "--mode", mode, "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        // Source cues 0.5-1.5, 2-3 and 4-5.5 s; a keyframe every second, so the demuxer is sought to 1 s.
        let cues = try LabelProbe.cues(output)
        #expect(cues == [
            LabelProbe.Cue(start: 0, duration: 0.5, text: "one"), LabelProbe.Cue(start: 1, duration: 1, text: "two"),
            LabelProbe.Cue(start: 3, duration: 1, text: "three"),
        ], "\(cues)")
    }

    @Test("item 6: an MP4 cut to MKV keeps its languages (und stays und, not Matroska's default eng)")
    func mp4ToMatroskaLanguages() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try WildMedia.ffmpeg(folder.path("in.mp4"), input: "testsrc2=size=320x240:rate=30:duration=4", audio: true, [
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-c:a", "aac", "-metadata:s:a:0", "language=fra", "-t", "4",
        ])
        let output = folder.path("out.mkv")
        let result = try CamrecBinary.run(["trim", "--start", "1", "--end", "3", "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        let streams = try LabelProbe.streams(output)
        #expect(streams.map(\.language) == [nil, "fre"], "\(streams)")
        #expect(streams.map(\.title) == [nil, nil], "\(streams)")
    }
}

/// Reads track labels, subtitle cues and chapters with ffprobe.
enum LabelProbe {
    struct Stream: Equatable, CustomStringConvertible {
        var type: String
        /// The language tag (ffprobe leaves out "und" for Matroska); nil without one.
        var language: String?
        var title: String?
        var isDefault: Bool
        var isForced: Bool

        var description: String {
            "\(type)(\(language ?? "-"), \(title ?? "-"), default \(isDefault), forced \(isForced))"
        }
    }

    struct Cue: Equatable {
        var start: Double
        var duration: Double
        var text: String
    }

    struct ChapterMark: Equatable {
        var start: Double
        var end: Double
        var title: String
    }

    static func json(_ arguments: [String]) throws -> [String: Any] {
        let result = try ChildProcess.run("ffprobe", ["-v", "error", "-of", "json"] + arguments)
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] else {
            throw MediaProbe.Failure(description: "ffprobe failed: \(result.stderr)")
        }
        return object
    }

    static func streams(_ path: String) throws -> [Stream] {
        let object = try json(["-show_entries", "stream=codec_type:stream_tags=language,title:stream_disposition=default,forced", path])
        return (object["streams"] as? [[String: Any]] ?? []).map { stream in
            let tags = stream["tags"] as? [String: Any] ?? [:]
            let disposition = stream["disposition"] as? [String: Any] ?? [:]
            return Stream(
                type: stream["codec_type"] as? String ?? "", language: tags["language"] as? String,
                title: tags["title"] as? String, isDefault: disposition["default"] as? Int == 1,
                isForced: disposition["forced"] as? Int == 1
            )
        }
    }

    /// The subtitle packets of the first subtitle stream: start, duration (seconds, ms
    /// precision) and text.
    static func cues(_ path: String) throws -> [Cue] {
        let object = try json(["-select_streams", "s:0", "-show_packets", "-show_data", path])
        return (object["packets"] as? [[String: Any]] ?? []).map { packet in
            Cue(
                start: rounded(packet["pts_time"]), duration: rounded(packet["duration_time"]),
                text: text(ofHexDump: packet["data"] as? String ?? "")
            )
        }
    }

    static func chapters(_ path: String) throws -> [ChapterMark] {
        let object = try json(["-show_chapters", path])
        return (object["chapters"] as? [[String: Any]] ?? []).map { chapter in
            ChapterMark(
                start: rounded(chapter["start_time"]), end: rounded(chapter["end_time"]),
                title: (chapter["tags"] as? [String: Any])?["title"] as? String ?? ""
            )
        }
    }

    /// The packets' presentation times of one stream ("a:0"), in seconds.
    static func packetTimes(_ path: String, stream: String) throws -> [Double] {
        let object = try json(["-select_streams", stream, "-show_entries", "packet=pts_time", path])
        return (object["packets"] as? [[String: Any]] ?? []).map { rounded($0["pts_time"]) }
    }

    /// A number ffprobe printed as a string, rounded to the millisecond.
    static func rounded(_ value: Any?) -> Double {
        ((Double(value as? String ?? "") ?? -1) * 1000).rounded() / 1000
    }

    /// The text of ffprobe's hex dump ("00000000: 6f6e 65  one").
    static func text(ofHexDump dump: String) -> String {
        var bytes: [UInt8] = []
        for line in dump.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let hex = line[line.index(after: colon)...].prefix(41)
            for group in hex.split(separator: " ") {
                var characters = Array(group)
                while characters.count >= 2 {
                    if let byte = UInt8(String(characters[0...1]), radix: 16) { bytes.append(byte) }
                    characters.removeFirst(2)
                }
            }
        }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

import Foundation
import Testing

/// `camrec trim` keeps the source's chapters and format (issue 30 items 5 and 7): sources made
/// by ffmpeg in the test, outputs checked by ffprobe/ffmpeg and by reading the boxes, never
/// by camrec.
@Suite("Trim keeps chapters and the source's format (issue 30)", .serialized)
struct TrimFormatTests {
    // MARK: Item 5: chapters in camrec's own MP4 writer

    /// The chapter forms a source of ``chaptered(_:forms:)`` has.
    enum ChapterForms: String, CaseIterable, CustomTestStringConvertible {
        /// ffmpeg's MP4 default: a Nero list and a QuickTime chapter track.
        case both
        /// A QuickTime chapter track alone (`-movflags +disable_chpl`).
        case track
        /// A Nero list alone (ffmpeg's 3GP muxer writes no chapter track; the file sniffs as MP4).
        case nero

        var testDescription: String { rawValue }
        var hasNero: Bool { self != .track }
        var hasTrack: Bool { self != .nero }
    }

    /// A 6-s movie (a keyframe every second) with chapters One, Two, Three at 0, 2 and 4 s.
    static func chaptered(_ folder: TemporaryFolder, forms: ChapterForms) throws -> String {
        let metadata = folder.path("chapters.txt")
        var text = ";FFMETADATA1\n"
        for (index, title) in ["One", "Two", "Three"].enumerated() {
            text += "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(index * 2000)\nEND=\(index * 2000 + 2000)\ntitle=\(title)\n"
        }
        try text.write(toFile: metadata, atomically: true, encoding: .utf8)
        var arguments = ["-i", metadata, "-map", "0", "-map_chapters", "1", "-c:v", "libx264", "-g", "30"]
        switch forms {
        case .both: break
        case .track: arguments += ["-movflags", "+disable_chpl"]
        case .nero: arguments += ["-f", "3gp"]
        }
        let path = try WildMedia.ffmpeg(folder.path("chapters-\(forms.rawValue).mp4"), input: "testsrc2=size=320x240:rate=30:duration=6", arguments)
        // The source has the forms it is said to have.
        #expect((try WildMedia.neroChapters(path) != nil) == forms.hasNero)
        #expect(try WildMedia.textTracks(path) == (forms.hasTrack ? 1 : 0))
        return path
    }

    @Test(
        "item 5: MP4 to MP4 keeps the chapters over the cut, shifted and clipped, in each form the source has",
        arguments: ChapterForms.allCases, ["accurate", "keyframe"]
    )
    func mp4Chapters(forms: ChapterForms, mode: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.chaptered(folder, forms: forms)
        let output = folder.path("out.mp4")
        // Keyframe mode starts at the keyframe exactly at 1 s (not the one before it).
        let result = try CamrecBinary.run(["trim", "--start", "1", "--end", "5", "--mode", mode, "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        // What players read (ffprobe takes the chapter track over the Nero list).
        let chapters = try WildMedia.chapters(output)
        #expect(chapters.map(\.start) == [0, 1, 3], "\(chapters)")
        #expect(chapters.map(\.end) == [1, 3, 4], "\(chapters)")
        #expect(chapters.map(\.title) == ["One", "Two", "Three"])
        // Each form, read from the boxes.
        let nero = try WildMedia.neroChapters(output)
        if forms.hasNero {
            #expect(nero?.map(\.start) == [0, 1, 3], "\(String(describing: nero))")
            #expect(nero?.map(\.title) == ["One", "Two", "Three"])
        } else {
            #expect(nero == nil)
        }
        #expect(try WildMedia.textTracks(output) == (forms.hasTrack ? 1 : 0))
        #expect(try MediaProbe.probe(output).frames == 120)
    }

    @Test(
        "item 5: an MP4's chapters are kept where GStreamer writes the output (--mode reencode to MP4, a cut to MKV)",
        arguments: [(["--mode", "reencode"], "mp4"), ([], "mkv"), (["--mode", "keyframe"], "mkv")]
    )
    func mp4ChaptersThroughGStreamer(options: [String], container: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.chaptered(folder, forms: .both)
        let output = folder.path("out.\(container)")
        let result = try CamrecBinary.run(["trim", "--start", "1", "--end", "5"] + options + ["-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        let chapters = try WildMedia.chapters(output)
        #expect(chapters.map(\.start) == [0, 1, 3], "\(chapters)")
        #expect(chapters.map(\.title) == ["One", "Two", "Three"])
    }

    @Test("item 5: a 2-s clip lists the two chapters it shows, in both forms", arguments: ChapterForms.allCases)
    func shortClipChapters(forms: ChapterForms) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.chaptered(folder, forms: forms)
        let output = folder.path("clip.mp4")
        let result = try CamrecBinary.run(["trim", "--start", "2.5", "--end", "4.5", "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        let chapters = try WildMedia.chapters(output)
        #expect(chapters.map(\.start) == [0, 1.5], "\(chapters)")
        #expect(chapters.map(\.end) == [1.5, 2], "\(chapters)")
        #expect(chapters.map(\.title) == ["Two", "Three"])
        if forms.hasNero {
            let nero = try WildMedia.neroChapters(output)
            #expect(nero?.map(\.start) == [0, 1.5], "\(String(describing: nero))")
            #expect(nero?.map(\.title) == ["Two", "Three"])
        }
    }

    @Test("item 5: a cut inside one chapter keeps that one from 0")
    func cutInsideOneChapter() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.chaptered(folder, forms: .both)
        let output = folder.path("one.mp4")
        let result = try CamrecBinary.run(["trim", "--start", "2.2", "--end", "3.8", "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        let chapters = try WildMedia.chapters(output)
        #expect(chapters.map(\.title) == ["Two"], "\(chapters)")
        #expect(chapters.first?.start == 0)
        #expect(try WildMedia.neroChapters(output)?.map(\.title) == ["Two"])
    }

    // MARK: Item 7: --mode reencode keeps the source's format

    @Test("item 7: a full-range source is re-encoded full range with its values (MP4 and MKV)")
    func reencodeFullRange() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // No colour description, as webcams' MJPEG-to-H.264 paths write it.
        let input = try WildMedia.ffmpeg(folder.path("full.mp4"), input: "testsrc2=size=320x240:rate=30:duration=4", [
            "-pix_fmt", "yuvj420p", "-c:v", "libx264", "-g", "60",
        ])
        for container in ["mp4", "mkv"] {
            let output = folder.path("out.\(container)")
            let result = try CamrecBinary.run(["trim", "--start", "1", "--mode", "reencode", "-o", output, input])
            #expect(result.status == 0, "\(container): \(result.stderr)")
            #expect(try WildMedia.colorRanges(output) == ["pc"], "\(container)")
            // The values are the source's: luma compared plane to plane (limited-range values
            // read as full range, or squeezed into limited range, give about 25 dB).
            let psnr = try WildMedia.lumaPSNR(output, source: input, firstSourceFrame: 30)
            #expect(psnr.frames == 90 && psnr.minimum >= 38, "\(container): \(psnr)")
        }
    }

    @Test("item 7: MJPEG 4:2:2 is re-encoded in 4:2:2 (High 4:2:2), full range, with its values")
    func reencodeMJPEG422() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try WildMedia.ffmpeg(folder.path("mjpeg.mp4"), input: "testsrc2=size=320x240:rate=30:duration=4", [
            "-c:v", "mjpeg", "-pix_fmt", "yuvj422p", "-q:v", "3",
        ])
        for container in ["mp4", "mkv"] {
            let output = folder.path("out.\(container)")
            let result = try CamrecBinary.run(["trim", "--start", "1", "--mode", "reencode", "-o", output, input])
            #expect(result.status == 0, "\(container): \(result.stderr)")
            let stream = try WildMedia.videoStream(output)
            #expect(stream["profile"] == "High 4:2:2", "\(container): \(stream)")
            #expect(["yuvj422p", "yuv422p"].contains(stream["pix_fmt"] ?? ""), "\(container): \(stream)")
            #expect(stream["color_range"] == "pc", "\(container): \(stream)")
            let psnr = try WildMedia.lumaPSNR(output, source: input, firstSourceFrame: 30)
            #expect(psnr.frames == 90 && psnr.minimum >= 38, "\(container): \(psnr)")
        }
    }

    @Test(
        "item 7: the H.264 level follows the output's size and frame rate",
        arguments: [("320x240", 30, "13"), ("1280x720", 30, "31"), ("640x480", 60, "31")]
    )
    func reencodeLevel(size: String, rate: Int, level: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // An MPEG-4 Part 2 source: the level is the output's, not a copy of the source's.
        let input = try WildMedia.ffmpeg(folder.path("in.mp4"), input: "testsrc2=size=\(size):rate=\(rate):duration=2", [
            "-c:v", "mpeg4", "-q:v", "3",
        ])
        let output = folder.path("out.mp4")
        let result = try CamrecBinary.run(["trim", "--start", "0.5", "--mode", "reencode", "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try WildMedia.videoStream(output)["level"] == level)
        #expect(try MediaProbe.decodeErrors(output).isEmpty)
    }

    @Test(
        "item 7: re-encoded edges declare the colour description and chroma location the source declares, no more",
        arguments: [
            ("h264.mp4", ["-c:v", "libx264", "-g", "60"]),
            ("h264-bt709.mp4", [
                "-c:v", "libx264", "-g", "60", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
                "-color_range", "tv", "-chroma_sample_location", "topleft",
            ]),
            ("vp9.webm", ["-c:v", "libvpx-vp9", "-g", "60", "-b:v", "1M"]),
        ]
    )
    func edgesDeclareTheSourcesSignal(name: String, arguments: [String]) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try WildMedia.ffmpeg(folder.path(name), input: "testsrc2=size=320x240:rate=30:duration=4", arguments)
        let declared = try WildMedia.frameSignals(input)
        #expect(declared.count == 1, "\(declared)")
        let containers = name.hasSuffix(".webm") ? ["webm"] : ["mp4", "mkv"]
        for container in containers {
            let output = folder.path("out.\(container)")
            let result = try CamrecBinary.run(["trim", "--start", "1.5", "--end", "3.5", "--json", "-o", output, input])
            #expect(result.status == 0, "\(container): \(result.stderr)")
            let line = try #require(JSONLines.parse(result).last)
            #expect((line["frames_reencoded"] as? Int ?? 0) > 0, "\(line)")
            // Every frame, copied or re-encoded, says what the source's frames say.
            #expect(try WildMedia.frameSignals(output) == declared, "\(name) to \(container)")
            #expect(try MediaProbe.decodeErrors(output).isEmpty)
        }
    }

    @Test("item 7: MPEG-4 Advanced Simple edges keep the source's profile (MP4 and MKV)")
    func mpeg4EdgesKeepTheProfile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try WildMedia.ffmpeg(folder.path("asp.mp4"), input: "testsrc2=size=320x240:rate=30:duration=4", [
            "-c:v", "mpeg4", "-q:v", "3", "-bf", "2", "-g", "60",
        ])
        #expect(try WildMedia.videoStream(input)["profile"] == "Advanced Simple Profile")
        for container in ["mp4", "mkv"] {
            let output = folder.path("out.\(container)")
            let result = try CamrecBinary.run(["trim", "--start", "1.5", "--end", "3.5", "--json", "-o", output, input])
            #expect(result.status == 0, "\(container): \(result.stderr)")
            let line = try #require(JSONLines.parse(result).last)
            #expect((line["frames_reencoded"] as? Int ?? 0) > 0, "\(line)")
            #expect(try WildMedia.videoStream(output)["profile"] == "Advanced Simple Profile", "\(container)")
            #expect(try MediaProbe.decodeErrors(output).isEmpty)
        }
    }

    // MARK: Item 10: --mode reencode of an MP4 after a long initial empty edit

    @Test("item 10: --mode reencode reads an MP4 whose video starts after a 100-s empty edit", arguments: ["mp4", "mkv"])
    func reencodeAfterLongEmptyEdit(container: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let plain = try WildMedia.ffmpeg(folder.path("plain.mp4"), input: "testsrc2=size=320x240:rate=30:duration=4", [
            "-c:v", "libx264", "-g", "60",
        ])
        // The same frames from 100 s on: an empty edit of 100 s, mvhd 104 s, 4 s of media.
        let input = folder.path("late.mp4")
        let remux = try ChildProcess.run("ffmpeg", [
            "-nostdin", "-v", "error", "-y", "-itsoffset", "100", "-i", plain, "-c", "copy", input,
        ])
        #expect(remux.status == 0, "\(remux.stderr)")
        let output = folder.path("out.\(container)")
        let result = try CamrecBinary.run(["trim", "--start", "101", "--end", "103", "--mode", "reencode", "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try MediaProbe.probe(output).frames == 60)
        let psnr = try WildMedia.lumaPSNR(output, source: plain, firstSourceFrame: 30)
        #expect(psnr.frames == 60 && psnr.minimum >= 38, "\(psnr)")
    }
}

// MARK: Independent readers

extension WildMedia {
    /// A chapter as a reader outside camrec gives it (seconds).
    struct ProbedChapter: Equatable, CustomStringConvertible {
        var start: Double
        var end: Double?
        var title: String
        var description: String { "\(title)@\(start)-\(end.map { String($0) } ?? "?")" }
    }

    /// The chapters ffprobe reads (it prefers a QuickTime chapter track to a Nero list),
    /// times rounded to the millisecond.
    static func chapters(_ path: String) throws -> [ProbedChapter] {
        let result = try ChildProcess.run("ffprobe", ["-v", "error", "-show_chapters", "-of", "json", path])
        guard result.status == 0,
              let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        else { throw MediaProbe.Failure(description: result.stderr) }
        return (object["chapters"] as? [[String: Any]] ?? []).map { chapter in
            let tags = chapter["tags"] as? [String: Any] ?? [:]
            return ProbedChapter(
                start: milliseconds(chapter["start_time"]) ?? -1, end: milliseconds(chapter["end_time"]),
                title: tags["title"] as? String ?? ""
            )
        }
    }

    private static func milliseconds(_ value: Any?) -> Double? {
        guard let text = value as? String, let seconds = Double(text) else { return nil }
        return (seconds * 1000).rounded() / 1000
    }

    /// The Nero chapter list (`moov/udta/chpl`) read from the file's boxes: each chapter's
    /// start (seconds, to the millisecond) and title; nil when there is none.
    static func neroChapters(_ path: String) throws -> [ProbedChapter]? {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard let moov = boxes(bytes, 0..<bytes.count).first(where: { $0.type == "moov" }),
              let udta = boxes(bytes, moov.payload).first(where: { $0.type == "udta" }),
              let chpl = boxes(bytes, udta.payload).first(where: { $0.type == "chpl" })
        else { return nil }
        var at = chpl.payload.lowerBound + (bytes[chpl.payload.lowerBound] == 0 ? 4 : 8)
        let count = Int(bytes[at])
        at += 1
        var list: [ProbedChapter] = []
        for _ in 0..<count {
            let start = bytes[at..<at + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let length = Int(bytes[at + 8])
            let title = String(decoding: bytes[(at + 9)..<(at + 9 + length)], as: UTF8.self)
            at += 9 + length
            list.append(ProbedChapter(start: (Double(start) / 10_000).rounded() / 1000, end: nil, title: title))
        }
        return list
    }

    /// How many tracks of the movie have a `text` handler (a QuickTime chapter track).
    static func textTracks(_ path: String) throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard let moov = boxes(bytes, 0..<bytes.count).first(where: { $0.type == "moov" }) else { return 0 }
        return boxes(bytes, moov.payload).filter { trak in
            guard trak.type == "trak", let mdia = boxes(bytes, trak.payload).first(where: { $0.type == "mdia" }),
                  let hdlr = boxes(bytes, mdia.payload).first(where: { $0.type == "hdlr" })
            else { return false }
            let at = hdlr.payload.lowerBound + 8
            return String(decoding: bytes[at..<at + 4], as: UTF8.self) == "text"
        }.count
    }

    /// The first video stream's fields as ffprobe gives them (profile, level, pix_fmt,
    /// colour range, space, primaries, transfer, chroma location).
    static func videoStream(_ path: String) throws -> [String: String] {
        let result = try ChildProcess.run("ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries",
            "stream=profile,level,pix_fmt,color_range,color_space,color_primaries,color_transfer,chroma_location",
            "-of", "json", path,
        ])
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any],
              let stream = (object["streams"] as? [[String: Any]])?.first
        else { throw MediaProbe.Failure(description: result.stderr) }
        return stream.mapValues { "\($0)" }
    }

    /// Luma PSNR (dB) of each output frame against source frame `firstSourceFrame + k`,
    /// decoded by ffmpeg to 8-bit grey planes as stored (no range conversion): the lowest and
    /// how many frames the output has.
    static func lumaPSNR(_ output: String, source: String, firstSourceFrame: Int) throws -> (frames: Int, minimum: Double) {
        func planes(_ path: String) throws -> (size: Int, data: [UInt8]) {
            let result = try ChildProcess.run("ffmpeg", [
                // Passthrough: every decoded frame once, as stored (a constant-rate output would
                // repeat the first frame of an AVI whose video starts a frame after its sound).
                "-nostdin", "-v", "error", "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough",
                "-vf", "extractplanes=y", "-f", "rawvideo", "-pix_fmt", "gray", "-",
            ], timeout: 120)
            guard result.status == 0 else { throw MediaProbe.Failure(description: result.stderr) }
            let probe = try MediaProbe.probe(path)
            return (probe.width * probe.height, [UInt8](result.stdout))
        }
        let out = try planes(output)
        let src = try planes(source)
        guard out.size > 0, out.size == src.size else { return (0, 0) }
        let count = out.data.count / out.size
        var minimum = Double.infinity
        for k in 0..<count {
            let sourceStart = (firstSourceFrame + k) * src.size
            guard sourceStart + src.size <= src.data.count else { return (count, 0) }
            var error = 0.0
            for i in stride(from: 0, to: out.size, by: 1) {
                let d = Double(Int(out.data[k * out.size + i]) - Int(src.data[sourceStart + i]))
                error += d * d
            }
            let mse = error / Double(out.size)
            minimum = min(minimum, mse == 0 ? 99 : 10 * log10(255 * 255 / mse))
        }
        return (count, minimum)
    }

    /// The distinct (range, matrix, primaries, transfer, chroma location) ffprobe reads on
    /// the video frames.
    static func frameSignals(_ path: String) throws -> Set<String> {
        let result = try ChildProcess.run("ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries",
            "frame=color_range,color_space,color_primaries,color_transfer,chroma_location", "-of", "csv=p=0", path,
        ])
        guard result.status == 0 else { throw MediaProbe.Failure(description: result.stderr) }
        return Set(result.stdoutText.split(whereSeparator: \.isNewline).map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))
        }.filter { !$0.isEmpty })
    }

    /// A box found by ``boxes(_:_:)``.
    struct FoundBox {
        var type: String
        var payload: Range<Int>
    }

    /// The boxes laid one after another in `range`.
    static func boxes(_ bytes: [UInt8], _ range: Range<Int>) -> [FoundBox] {
        var found: [FoundBox] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            var size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            var header = 8
            if size == 1, offset + 16 <= range.upperBound {
                size = bytes[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) }
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= header, offset + size <= range.upperBound else { break }
            found.append(FoundBox(
                type: String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self),
                payload: (offset + header)..<(offset + size)
            ))
            offset += size
        }
        return found
    }
}

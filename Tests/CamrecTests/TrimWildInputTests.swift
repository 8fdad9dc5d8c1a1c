import Foundation
import Testing

/// `camrec trim` on movies other tools make (issue 30): each source is made by ffmpeg in the
/// test, the output is checked by ffprobe/ffmpeg (frame times, counts, framemd5 against the
/// source), never by camrec.
@Suite("Trim movies from the wild (issue 30)", .serialized)
struct TrimWildInputTests {
    // MARK: Item 1: fragmented MP4 with B-frames

    /// The issue's command: 8 s, B-frames, a keyframe every 2 s, a fragment per keyframe.
    static func fragmented(_ folder: TemporaryFolder) throws -> String {
        try WildMedia.ffmpeg(folder.path("frag.mp4"), input: "testsrc2=size=320x240:rate=30:duration=8", audio: true, [
            "-c:v", "libx264", "-bf", "3", "-x264-params", "keyint=60:min-keyint=60:scenecut=0", "-c:a", "aac",
            "-movflags", "frag_keyframe+empty_moov+default_base_moof",
        ])
    }

    @Test("item 1: a fragmented MP4 with B-frames is cut on the right frames, each shown once")
    func fragmentedAccurate() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.fragmented(folder)
        let source = try WildMedia.frameHashes(input)
        let output = folder.path("out.mp4")
        let result = try CamrecBinary.run(["trim", "--start", "1.412", "--end", "4.75", "--json", "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        // The source's frames lie at 0.067 + n/30 s: 1.433 (n = 41) to 4.733 s (n = 140).
        let frames = try WildMedia.frameTimes(output)
        #expect(frames.count == 100, "\(frames)")
        #expect(WildMedia.strictlyRising(frames), "\(frames)")
        try WildMedia.expectSourceFrames(output, source: source, firstSourceFrame: 41, atLeast: 60)
        #expect(try MediaProbe.decodeErrors(output).isEmpty)
    }

    @Test("item 1: --mode keyframe on a fragmented MP4 reports its real first frame, no doubled frame")
    func fragmentedKeyframe() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.fragmented(folder)
        let source = try WildMedia.frameHashes(input)
        let output = folder.path("out.mp4")
        let result = try CamrecBinary.run(
            ["trim", "--mode", "keyframe", "--start", "1.412", "--end", "4.75", "--json", "-o", output, input]
        )
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(JSONLines.parse(result).last)
        #expect(line["first_frame_time"] as? Double == 0.067, "\(line)")
        let frames = try WildMedia.frameTimes(output)
        #expect(WildMedia.strictlyRising(frames), "\(frames)")
        #expect(frames.count == line["frames"] as? Int, "\(frames.count) frames, \(line)")
        // A copy from the first keyframe: every frame is the source's frame at its place.
        try WildMedia.expectSourceFrames(output, source: source, firstSourceFrame: 0, atLeast: frames.count)
    }

    @Test("item 1: a fragmented MP4 cut from its start and in place")
    func fragmentedEndAndInPlace() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.fragmented(folder)
        let source = try WildMedia.frameHashes(input)
        let output = folder.path("end.mp4")
        let result = try CamrecBinary.run(["trim", "--end", "4.266", "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        let frames = try WildMedia.frameTimes(output)
        #expect(frames.count == 126, "\(frames)")  // 0.067 to 4.233 s
        #expect(WildMedia.strictlyRising(frames))
        try WildMedia.expectSourceFrames(output, source: source, firstSourceFrame: 0, atLeast: 120)

        let inPlace = try CamrecBinary.run(["trim", "--start", "1.412", "--end", "4.75", "--in-place", input])
        #expect(inPlace.status == 0, "\(inPlace.stderr)")
        let replaced = try WildMedia.frameTimes(input)
        #expect(replaced.count == 100, "\(replaced)")
        #expect(WildMedia.strictlyRising(replaced))
        try WildMedia.expectSourceFrames(input, source: source, firstSourceFrame: 41, atLeast: 60)
    }

    // MARK: Item 2: MPEG-4 Part 2 with B-frames

    @Test("item 2: MPEG-4 Part 2 with B-frames: the last copied frame before the re-encoded tail is shown")
    func mpeg4BFramesTail() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try WildMedia.ffmpeg(folder.path("asp.mp4"), input: "testsrc2=size=320x240:rate=30:duration=8", [
            "-c:v", "mpeg4", "-q:v", "3", "-bf", "2", "-g", "60",
        ])
        let source = try WildMedia.frameHashes(input)
        // ffmpeg's GOPs are open (B-frames after each I-frame refer to the GOP before): a cut
        // from 1.5 s re-encodes everything, a cut from the start copies all but the tail.
        let cuts = [(["--end", "4.2"], 0, 126, 120), (["--start", "1.5", "--end", "4.2"], 45, 81, 0)]
        for (arguments, first, count, copied) in cuts {
            let output = folder.path("out-\(first).mp4")
            let result = try CamrecBinary.run(["trim"] + arguments + ["-o", output, input])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            let probe = try MediaProbe.probe(output)
            #expect(probe.frames == count, "\(arguments): \(probe.frames) frames shown")
            let frames = try WildMedia.frameTimes(output)
            #expect(frames.count == count && WildMedia.strictlyRising(frames), "\(arguments): \(frames)")
            try WildMedia.expectSourceFrames(output, source: source, firstSourceFrame: first, atLeast: copied)
            #expect(try MediaProbe.decodeErrors(output).isEmpty)
        }
    }

    // MARK: Item 3: full-range H.264 without a colour description

    @Test("item 3: full-range H.264 without a colour description keeps full range in the re-encoded edges")
    func fullRangeEdges() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try WildMedia.ffmpeg(folder.path("full.mp4"), input: "testsrc2=size=320x240:rate=30:duration=8", [
            "-pix_fmt", "yuvj420p", "-c:v", "libx264", "-preset", "ultrafast", "-g", "60",
        ])
        #expect(try WildMedia.colorRanges(input) == ["pc"])
        for container in ["mp4", "mkv"] {
            let output = folder.path("out.\(container)")
            let result = try CamrecBinary.run(["trim", "--start", "1.5", "--end", "6.5", "--json", "-o", output, input])
            #expect(result.status == 0, "\(container): \(result.stderr)")
            let line = try #require(JSONLines.parse(result).last)
            #expect((line["frames_reencoded"] as? Int ?? 0) > 0 && (line["frames_copied"] as? Int ?? 0) > 0, "\(line)")
            // Every frame, copied or re-encoded, says full range, and none says more than the source.
            #expect(try WildMedia.colorRanges(output) == ["pc"], "\(container)")
            #expect(try MediaProbe.probe(output).frames == 150)
        }
    }

    // MARK: Item 8: Matroska whose timestamps start at 2 s or later

    @Test("item 8: Matroska starting at 2, 5 and 10 s is cut on its own timeline in every mode", arguments: [2, 5, 10])
    func matroskaOffset(offset: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try WildMedia.ffmpeg(folder.path("late.mkv"), input: "testsrc2=size=320x240:rate=30:duration=6", [
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-bf", "0", "-output_ts_offset", "\(offset)",
        ])
        #expect(try WildMedia.frameTimes(input).first == Double(offset))
        let source = try WildMedia.frameHashes(input)
        for mode in ["accurate", "keyframe", "reencode"] {
            let output = folder.path("\(mode).mkv")
            let result = try CamrecBinary.run([
                "trim", "--start", "\(offset + 1)", "--end", "\(offset + 3)", "--mode", mode, "--json", "-o", output, input,
            ])
            #expect(result.status == 0, "\(mode): \(result.stderr)")
            let line = try #require(JSONLines.parse(result).last)
            #expect(line["first_frame_time"] as? Double == Double(offset + 1), "\(mode): \(line)")
            #expect(try WildMedia.frameTimes(output).count == 60, "\(mode)")
            if mode != "reencode" {
                try WildMedia.expectSourceFrames(output, source: source, firstSourceFrame: 30, atLeast: 60)
            }
        }
    }

    @Test("item 8: times that lie wholly before a late first frame are counted from it, with a warning")
    func matroskaRelativeTimes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try WildMedia.ffmpeg(folder.path("late.mkv"), input: "testsrc2=size=320x240:rate=30:duration=6", [
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-bf", "0", "-output_ts_offset", "10",
        ])
        let source = try WildMedia.frameHashes(input)
        let output = folder.path("out.mkv")
        let result = try CamrecBinary.run(["trim", "--start", "1", "--end", "3", "--json", "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(JSONLines.parse(result).last)
        #expect(line["first_frame_time"] as? Double == 11, "\(line)")
        let warnings = line["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.contains("counted from that frame") }, "\(warnings)")
        #expect(result.stderr.contains("warning"), "\(result.stderr)")
        try WildMedia.expectSourceFrames(output, source: source, firstSourceFrame: 30, atLeast: 60)
    }

    // MARK: Item 9: negative composition offsets

    @Test("item 9: an MP4 with negative composition offsets (ctts v1) is cut to MP4 with a re-encoded tail")
    func negativeCompositionOffsets() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try WildMedia.ffmpeg(folder.path("neg.mp4"), input: "testsrc2=size=320x240:rate=30:duration=6", [
            "-c:v", "libx264", "-preset", "ultrafast", "-bf", "2", "-g", "60", "-movflags", "+negative_cts_offsets",
        ])
        let source = try WildMedia.frameHashes(input)
        for (arguments, first, count) in [(["--start", "1.5", "--end", "3.5"], 45, 60), (["--end", "3.5"], 0, 105)] {
            let output = folder.path("out-\(first).mp4")
            let result = try CamrecBinary.run(["trim"] + arguments + ["-o", output, input])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            let frames = try WildMedia.frameTimes(output)
            #expect(frames.count == count && WildMedia.strictlyRising(frames), "\(arguments): \(frames)")
            try WildMedia.expectSourceFrames(output, source: source, firstSourceFrame: first, atLeast: first == 0 ? 60 : 0)
            #expect(try MediaProbe.decodeErrors(output).isEmpty)
        }
    }

    // MARK: Item 10: --mode reencode of a codec without a decoder of its own

    @Test("item 10: ProRes is re-encoded whole (--mode reencode) through decodebin")
    func proResReencode() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try WildMedia.ffmpeg(folder.path("in.mov"), input: "testsrc2=size=320x240:rate=30:duration=3", [
            "-c:v", "prores_ks", "-profile:v", "0",
        ])
        for output in [folder.path("out.mkv"), folder.path("out.mp4")] {
            let result = try CamrecBinary.run(["trim", "--start", "1", "--mode", "reencode", "-o", output, input])
            #expect(result.status == 0, "\(output): \(result.stderr)")
            let probe = try MediaProbe.probe(output)
            #expect(probe.codec == "h264" && probe.frames == 60, "\(output): \(probe.codec), \(probe.frames) frames")
            #expect(try MediaProbe.decodeErrors(output).isEmpty)
        }
    }

    // MARK: Item 11: WebM

    @Test("item 11: a .webm input gives a WebM (doctype webm) output, -o x.webm is accepted, H.264 to .webm is refused")
    func webM() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try WildMedia.ffmpeg(folder.path("in.webm"), input: "testsrc2=size=320x240:rate=30:duration=4", audio: true, [
            "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "30", "-c:a", "libopus", "-t", "4",
        ])
        let beside = try CamrecBinary.run(["trim", "--start", "1", "--end", "3", input])
        #expect(beside.status == 0, "\(beside.stderr)")
        let named = folder.path("clip.webm")
        let chosen = try CamrecBinary.run(["trim", "--start", "1", "--end", "3", "-o", named, input])
        #expect(chosen.status == 0, "\(chosen.stderr)")
        for output in [folder.path("in-trimmed.webm"), named] {
            #expect(try WildMedia.docType(output) == "webm", "\(output)")
            #expect(try WildMedia.frameTimes(output).count == 60, "\(output)")
            #expect(try MediaProbe.decodeErrors(output).isEmpty)
        }
        let h264 = try TrimMedia.h264(folder.path("h264.mp4"), seconds: 3)
        let refused = try CamrecBinary.run(["trim", "--end", "2", "-o", folder.path("h264.webm"), h264])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("WebM holds VP8, VP9 or AV1 video"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("h264.webm")))
    }

    // MARK: Issue 29 item 14: times beyond the video

    @Test("issue 29: --start -10 and --end 50 beyond a 4 s video are clamped with a warning; --start 50 is refused")
    func clampedTimesAreSaid() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try TrimMedia.h264(folder.path("in.mp4"), seconds: 4)
        let output = folder.path("out.mp4")
        let result = try CamrecBinary.run(["trim", "--start", "-10", "--end", "50", "--json", "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(JSONLines.parse(result).last)
        let warnings = line["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.hasPrefix("--start -10") && $0.contains("cut from its start") }, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("--end 50") && $0.contains("cut to its end") }, "\(warnings)")
        #expect(try WildMedia.frameTimes(output).count == 120)
        let refused = try CamrecBinary.run(["trim", "--start", "50", "-o", folder.path("none.mp4"), input])
        #expect(refused.status == 65, "\(refused.stderr)")
    }

    // MARK: Issue 29 items 2 and 14: a movie being written, a symbolic link

    /// Starts a shell that holds `path` open (for appending with `write`, else for reading)
    /// until killed, and waits until it does.
    static func holdOpen(_ path: String, write: Bool) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", write ? "exec 3>>\"$0\"; exec sleep 120" : "exec 3<\"$0\"; exec sleep 120", path]
        try process.run()
        let descriptor = "/proc/\(process.processIdentifier)/fd/3"
        let holding = Wait.until(timeout: 30) {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: descriptor)) == path
        }
        guard holding else {
            stop(process)
            throw MediaProbe.Failure(description: "the shell never opened \(path)")
        }
        return process
    }

    /// Kills a shell started by ``holdOpen`` (SIGKILL: test threads block SIGTERM, and a
    /// child inherits that mask) and reaps it; harmless when it already ended.
    static func stop(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    @Test("issue 29: a movie another process has open for writing is refused (73), in place or not; a reader is no obstacle")
    func movieBeingWrittenIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try TrimMedia.h264(folder.path("live.partial.mp4"), seconds: 4)
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        let writer = try Self.holdOpen(input, write: true)
        defer { Self.stop(writer) }
        let inPlace = try CamrecBinary.run(["trim", "--start", "1", "--end", "2", "--in-place", input])
        #expect(inPlace.status == 73, "\(inPlace.stderr)")
        #expect(inPlace.stderr.contains("open for writing in process \(writer.processIdentifier)"), "\(inPlace.stderr)")
        let copy = try CamrecBinary.run(["trim", "--start", "1", "--end", "2", "-o", folder.path("cut.mp4"), input])
        #expect(copy.status == 73, "\(copy.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
        #expect(folder.contents == ["live.partial.mp4"], "\(folder.contents)")
        Self.stop(writer)

        let reader = try Self.holdOpen(input, write: false)
        defer { Self.stop(reader) }
        let read = try CamrecBinary.run(["trim", "--start", "1", "--end", "2", "-o", folder.path("cut.mp4"), input])
        #expect(read.status == 0, "\(read.stderr)")
    }

    @Test("issue 29: --in-place through a symbolic link replaces the file it points to and keeps the link")
    func inPlaceThroughSymlink() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("store"), withIntermediateDirectories: true)
        let target = try TrimMedia.h264(folder.path("store/movie.mp4"), seconds: 4)
        let link = folder.path("link.mp4")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "store/movie.mp4")
        let result = try CamrecBinary.run(["trim", "--end", "2", "--in-place", link])
        #expect(result.status == 0, "\(result.stderr)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == "store/movie.mp4")
        #expect(try WildMedia.frameTimes(target).count == 60)
        #expect(folder.contents == ["link.mp4", "store"], "\(folder.contents)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder.path("store"))) == ["movie.mp4"])
    }
}

/// Sources and independent checks for ``TrimWildInputTests``.
enum WildMedia {
    /// Runs ffmpeg on a lavfi `input` (and a sine tone when `audio`) with `arguments`.
    static func ffmpeg(_ path: String, input: String, audio: Bool = false, _ arguments: [String]) throws -> String {
        var all = ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", input]
        if audio { all += ["-f", "lavfi", "-i", "sine=frequency=440:duration=8"] }
        let result = try ChildProcess.run("ffmpeg", all + arguments + [path], timeout: 300)
        guard result.status == 0 else { throw ChildProcess.LaunchFailure(description: "ffmpeg failed: \(result.stderr)") }
        return path
    }

    /// The video frames' presentation times as ffprobe decodes them (display order).
    static func frameTimes(_ path: String) throws -> [Double] {
        let result = try ChildProcess.run("ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", path,
        ])
        guard result.status == 0 else { throw MediaProbe.Failure(description: result.stderr) }
        // "0.033333" or "0.033333," (side data adds a field and a blank line).
        return result.stdoutText.split(whereSeparator: \.isNewline).compactMap { line in
            line.split(separator: ",").first.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        }
    }

    static func strictlyRising(_ times: [Double]) -> Bool {
        zip(times, times.dropFirst()).allSatisfy { $0 < $1 }
    }

    /// Each decoded video frame's MD5 (ffmpeg's framemd5), in display order.
    static func frameHashes(_ path: String) throws -> [String] {
        let result = try ChildProcess.run("ffmpeg", [
            "-nostdin", "-v", "error", "-i", path, "-map", "0:v:0", "-f", "framemd5", "-",
        ], timeout: 120)
        guard result.status == 0 else { throw MediaProbe.Failure(description: result.stderr) }
        return result.stdoutText.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }.compactMap { line in
            line.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// Expects output frame k to be source frame `firstSourceFrame + k` bit for bit for at
    /// least `atLeast` frames (the copied ones), and no output frame to be any other source
    /// frame (a frame shown early, late or twice).
    static func expectSourceFrames(
        _ output: String, source: [String], firstSourceFrame: Int, atLeast: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let hashes = try frameHashes(output)
        var matching = 0
        for (position, hash) in hashes.enumerated() {
            let wanted = firstSourceFrame + position
            if wanted < source.count, source[wanted] == hash {
                matching += 1
            } else if let other = source.firstIndex(of: hash) {
                Issue.record("output frame \(position) is source frame \(other), not \(wanted)", sourceLocation: sourceLocation)
            }
        }
        #expect(matching >= atLeast, "\(matching) of \(hashes.count) frames are the source's", sourceLocation: sourceLocation)
    }

    /// The Matroska EBML header's DocType ("matroska", "webm").
    static func docType(_ path: String) throws -> String? {
        let head = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(64))
        guard let at = (0..<max(0, head.count - 3)).first(where: { head[$0] == 0x42 && head[$0 + 1] == 0x82 }) else {
            return nil
        }
        let size = Int(head[at + 2] & 0x7F)
        guard at + 3 + size <= head.count else { return nil }
        return String(decoding: head[(at + 3)..<(at + 3 + size)], as: UTF8.self)
    }

    /// The distinct colour ranges ffprobe reads on the video frames, in order of appearance.
    static func colorRanges(_ path: String) throws -> [String] {
        let result = try ChildProcess.run("ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=color_range", "-of", "csv=p=0", path,
        ])
        guard result.status == 0 else { throw MediaProbe.Failure(description: result.stderr) }
        var seen: [String] = []
        for line in result.stdoutText.split(whereSeparator: \.isNewline) {
            let range = line.trimmingCharacters(in: CharacterSet(charactersIn: ", "))
            if !range.isEmpty, !seen.contains(range) { seen.append(range) }
        }
        return seen
    }
}

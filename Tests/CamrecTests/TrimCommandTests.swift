import Foundation
import Synchronization
import Testing

/// `camrec trim` run as a user runs it: the built binary, real signals, paths as typed,
/// and ffprobe (not camrec) saying what the output holds.
@Suite("Trim command end to end", .serialized)
struct TrimCommandTests {
    // MARK: Interrupted trims leave nothing behind

    /// 20 s of 720p for the interrupted trims, made once per test process (a few seconds of
    /// encoding) in a folder of its own; each case trims its own copy.
    static let longMovie = Mutex<Result<String, any Error>?>(nil)

    static func longInput() throws -> String {
        try longMovie.withLock { made in
            if let made { return try made.get() }
            let result = Result<String, any Error> {
                try TrimMedia.h264(try TemporaryFolder.forTheRun().path("long.mp4"), seconds: 20, size: "1280x720")
            }
            made = result
            return try result.get()
        }
    }

    @Test("a signal mid-trim removes the temporary file and exits 130", arguments: [SIGINT, SIGTERM])
    func signalRemovesTheTemporaryFile(signal: Int32) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Re-encoding 20 s of 720p takes several seconds: long enough to be caught mid-way.
        // Both signals trim a copy of the same input, made once.
        let input = folder.path("in.mp4")
        try FileManager.default.copyItem(atPath: try Self.longInput(), toPath: input)
        let output = folder.path("out.mp4")
        let run = try CamrecBinary.start(["trim", "--start", "1", "--mode", "reencode", "--json", "-o", output, input])
        // Wait until the trim writes its hidden temporary file, then interrupt it.
        let started = Wait.until(timeout: 120) {
            folder.contents.contains { $0.hasSuffix(".part") } || !run.process.isRunning
        }
        #expect(started && run.process.isRunning, "the trim never wrote its temporary file: \(run.stderrText)")
        run.signal(signal)
        let status = run.wait(timeout: 60)
        #expect(status == 130, "exit status \(String(describing: status)): \(run.stderrText)")
        #expect(folder.contents == ["in.mp4"], "left behind: \(folder.contents)")
        #expect(run.stderrText.contains("interrupted"), "\(run.stderrText)")
        let last = try #require(run.jsonLines.last)
        #expect(last["type"] as? String == "error")
        #expect(last["exit_code"] as? Int == 130)
    }

    // MARK: Progress

    @Test("a trim of more than a second reports JSON progress lines")
    func jsonProgress() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try TrimMedia.h264(folder.path("in.mp4"), seconds: 12, size: "1280x720")
        let output = folder.path("out.mp4")
        let result = try CamrecBinary.run(
            ["trim", "--start", "1", "--mode", "reencode", "--json", "-o", output, input], timeout: 300
        )
        #expect(result.status == 0, "\(result.stderr)")
        let lines = JSONLines.parse(result)
        #expect(lines.last?["type"] as? String == "result")
        let progress = lines.filter { $0["type"] as? String == "progress" }
        if result.seconds > 2 {
            #expect(!progress.isEmpty, "no progress line in \(result.seconds) s: \(result.stdoutText)")
        }
        var previous: (phase: String, fraction: Double) = ("", -1)
        for line in progress {
            let fraction = try #require(line["fraction"] as? Double, "\(line)")
            let phase = try #require(line["phase"] as? String, "\(line)")
            #expect(["indexing", "writing"].contains(phase))
            #expect((0...1).contains(fraction))
            #expect(phase != previous.phase || fraction > previous.fraction, "progress went back: \(progress)")
            previous = (phase, fraction)
            #expect(line["done_seconds"] as? Double != nil && line["total_seconds"] as? Double != nil, "\(line)")
        }
        #expect(try MediaProbe.probe(output).frames == 330)
    }

    // MARK: Help

    @Test("--help lists only trim's exit codes, within 80 columns")
    func helpListsTrimExitCodes() throws {
        let result = try CamrecBinary.run(["trim", "--help"])
        #expect(result.status == 0)
        let lines = result.stdoutText.split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines { #expect(line.count <= 80, "too wide: '\(line)'") }
        let table = try #require(lines.firstIndex { $0.hasPrefix("Exit codes") }, "no exit codes in \(result.stdoutText)")
        let rows = lines[(table + 1)...].prefix { !$0.isEmpty }
        let codes = rows.compactMap { row in Int(row.split(separator: " ").first ?? "") }
        #expect(codes == [0, 1, 64, 65, 69, 73, 74, 130], "\(rows.joined(separator: "\n"))")
        for row in rows {
            // A continuation lines up under the meaning, never under the code.
            if Int(row.split(separator: " ").first ?? "") == nil {
                #expect(row.hasPrefix(String(repeating: " ", count: 7)), "badly wrapped: '\(row)'")
            }
            #expect(!row.contains("camera") && !row.contains("recording"), "not a trim code: '\(row)'")
        }
        // Prose is not wrapped into lines of a single word.
        for line in lines where !line.isEmpty && !line.hasPrefix(" ") && !line.hasSuffix(":") {
            #expect(line.split(separator: " ").count > 1, "stray one-word line: '\(line)'")
        }
    }

    // MARK: Paths as the user gave them

    @Test("JSON gives the paths as typed, the output derived from the input's")
    func pathsAsGiven() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("clips"), withIntermediateDirectories: false)
        _ = try TrimMedia.h264(folder.path("clips/in.mp4"), seconds: 2)
        let beside = try TrimMedia.runCamrec(["trim", "--start", "1", "--json", "clips/in.mp4"], in: folder)
        #expect(beside.status == 0, "\(beside.stderr)")
        #expect(JSONLines.parse(beside.stdout).last?["output"] as? String == "clips/in-trimmed.mp4")
        #expect(beside.stderr.contains("clips/in-trimmed.mp4") && !beside.stderr.contains(folder.url.path), "\(beside.stderr)")
        let named = try TrimMedia.runCamrec(["trim", "--start", "1", "--json", "-o", "./out.mov", "clips/in.mp4"], in: folder)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(JSONLines.parse(named.stdout).last?["output"] as? String == "./out.mov")
        #expect(folder.contents == ["clips", "out.mov"])
        #expect(try MediaProbe.probe(folder.path("out.mov")).frames == 30)
    }

    @Test("a cut keeps the source's creation time and user data", arguments: ["accurate", "keyframe"])
    func cutKeepsCreationTime(mode: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.path("in.mp4")
        let made = try ChildProcess.run("ffmpeg", [
            "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=3",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "30", "-bf", "0",
            "-metadata", "creation_time=2026-05-01T10:20:30Z", "-metadata", "title=bird box", input,
        ], timeout: 300)
        try #require(made.status == 0, "\(made.stderr)")
        let output = folder.path("out.mp4")
        let result = try CamrecBinary.run(["trim", "--start", "0.5", "--mode", mode, "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        let tags = try ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "format_tags=creation_time,title",
                                                    "-of", "default=noprint_wrappers=1", output])
        #expect(tags.stdoutText.contains("TAG:creation_time=2026-05-01T10:20:30"), "\(tags.stdoutText)")
        #expect(tags.stdoutText.contains("TAG:title=bird box"), "\(tags.stdoutText)")
    }

    // MARK: Refused outputs and inputs

    @Test("the longest valid output name (254 bytes) is written, its temporary name shortened")
    func longestValidOutputName() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try TrimMedia.h264(folder.path("in.mp4"), seconds: 3)
        let name = String(repeating: "é", count: 125) + ".mp4"
        #expect(name.utf8.count == 254)
        let result = try CamrecBinary.run(["trim", "--start", "1", "-o", folder.path(name), input])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(folder.contents.sorted() == ["in.mp4", name].sorted())
        #expect(try MediaProbe.probe(folder.path(name)).frames == 60)
    }

    @Test("-o without an extension is refused as a usage error, like record")
    func outputWithoutExtension() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try TrimMedia.h264(folder.path("in.mp4"), seconds: 2)
        let result = try CamrecBinary.run(["trim", "--start", "1", "--json", "-o", folder.path("out-t"), input])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("out-t") && result.stderr.contains(".mp4, .mov, .mkv or .webm"), "\(result.stderr)")
        #expect(folder.contents == ["in.mp4"])
        #expect(JSONLines.parse(result).last?["exit_code"] as? Int == 64)
    }

    @Test("a device or other non-file input says it is not a movie file", arguments: ["/dev/null", "/dev/zero"])
    func notAFile(path: String) throws {
        let result = try CamrecBinary.run(["trim", "--start", "1", path], timeout: 30)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("\(path)") && result.stderr.contains("not a movie file"), "\(result.stderr)")
    }

    // MARK: Tracks

    @Test("the JSON result lists the output's tracks and names a track that could not be kept")
    func tracksAndWarnings() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.path("cam.mov")
        // Two sound tracks and a QuickTime timecode; Matroska has no timecode track.
        let made = try ChildProcess.run("ffmpeg", [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=2",
            "-f", "lavfi", "-i", "sine=duration=2", "-f", "lavfi", "-i", "sine=frequency=660:duration=2",
            "-map", "0:v", "-map", "1:a", "-map", "2:a", "-c:v", "libx264", "-preset", "ultrafast", "-g", "30",
            "-c:a", "aac", "-timecode", "10:00:00:00", input,
        ])
        try #require(made.status == 0, "\(made.stderr)")
        let output = folder.path("cut.mkv")
        let result = try CamrecBinary.run(["trim", "--start", "0.5", "--json", "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(JSONLines.parse(result).last)
        let tracks = try #require(line["tracks"] as? [[String: Any]], "\(line)")
        #expect(tracks.map { $0["kind"] as? String } == ["video", "audio", "audio"], "\(tracks)")
        let warnings = try #require(line["warnings"] as? [String], "\(line)")
        #expect(warnings.count == 1 && warnings.first?.contains("timecode") == true, "\(warnings)")
        // The same warning as a JSON warning line and on stderr for people.
        let warningLines = JSONLines.parse(result).filter { $0["type"] as? String == "warning" }
        #expect(warningLines.compactMap { $0["message"] as? String } == warnings)
        #expect(result.stderr.contains("camrec: warning: ") && result.stderr.contains("timecode"), "\(result.stderr)")
        #expect(try MediaProbe.probe(output).codec == "h264")

        // Kept as MOV, the timecode follows the new start: 10:00:00:00 + 15 frames.
        let same = folder.path("cut.mov")
        let kept = try CamrecBinary.run(["trim", "--start", "0.5", "--json", "-o", same, input])
        #expect(kept.status == 0, "\(kept.stderr)")
        let keptLine = try #require(JSONLines.parse(kept).last)
        #expect((keptLine["warnings"] as? [String])?.isEmpty == true, "\(keptLine)")
        let timecode = try ChildProcess.run("ffprobe", [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "stream_tags=timecode", "-of", "csv=p=0", same,
        ])
        let text = timecode.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(text == "10:00:00:15", "\(text)")
    }

    // MARK: MPEG-4 Part 2

    @Test("MPEG-4 Part 2 in MP4 is cut frame-accurately in MPEG-4 Part 2, or re-encoded to H.264")
    func mpeg4Part2() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.path("x.mp4")
        let made = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=d=2", "-c:v", "mpeg4", input])
        try #require(made.status == 0, "\(made.stderr)")
        let output = folder.path("cut.mp4")
        let result = try CamrecBinary.run(["trim", "--start", "1", "--json", "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(JSONLines.parse(result).last)
        #expect(line["mode"] as? String == "accurate")
        #expect(line["fallback_reason"] == nil, "\(line)")
        // testsrc is 25 fps and ffmpeg's mpeg4 puts a keyframe every 12 frames: the frames
        // from 1.00 s to the keyframe at 1.44 s are re-encoded with avenc_mpeg4.
        #expect(line["first_frame_time"] as? Double == 1.0, "\(line)")
        #expect(line["frames_reencoded"] as? Int == 11, "\(line)")
        let probe = try MediaProbe.probe(output)
        #expect(probe.codec == "mpeg4")
        #expect(probe.frames == 25)
        #expect(try MediaProbe.decodeErrors(output).isEmpty)

        let reencoded = folder.path("reencoded.mkv")
        let again = try CamrecBinary.run(["trim", "--start", "1", "--mode", "reencode", "--json", "-o", reencoded, input])
        #expect(again.status == 0, "\(again.stderr)")
        let probeAgain = try MediaProbe.probe(reencoded)
        #expect(probeAgain.codec == "h264")
        #expect(probeAgain.frames == 25)
        #expect(try MediaProbe.decodeErrors(reencoded).isEmpty)
    }
}

/// Test movies and helpers for the trim tests.
enum TrimMedia {
    /// An H.264 movie from ffmpeg's test pattern (30 fps, a keyframe every second, no B-frames).
    static func h264(_ path: String, seconds: Int, size: String = "320x240") throws -> String {
        let result = try ChildProcess.run("ffmpeg", [
            "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=30:duration=\(seconds)",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "30", "-bf", "0", path,
        ], timeout: 300)
        guard result.status == 0 else { throw ChildProcess.LaunchFailure(description: "ffmpeg failed: \(result.stderr)") }
        return path
    }

    /// Runs camrec with `folder` as its working directory (for relative paths).
    static func runCamrec(_ arguments: [String], in folder: TemporaryFolder) throws -> ChildProcessResult {
        let process = Process()
        process.executableURL = CamrecBinary.url
        process.arguments = arguments
        process.currentDirectoryURL = folder.url
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-trim-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("stdout")
        let err = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        let start = Date()
        try process.run()
        let timedOut = done.wait(timeout: .now() + 120) == .timedOut
        if timedOut {
            kill(process.processIdentifier, SIGKILL)
            done.wait()
        }
        return ChildProcessResult(
            status: timedOut ? -1 : process.terminationStatus, stdout: (try? Data(contentsOf: out)) ?? Data(),
            stderr: String(decoding: (try? Data(contentsOf: err)) ?? Data(), as: UTF8.self),
            seconds: Date().timeIntervalSince(start), timedOut: timedOut
        )
    }
}

import Foundation
import Testing

/// Text read while recording (`--text-every`, `--text-changes`, `ctl text`, `--text`
/// stills): the emulated camera's picture carries a label drawn by ffmpeg (DejaVu Sans),
/// placed bottom-left with --overlay-image, clear of the frame stamps across the top. The
/// readings are checked for their words and their place on the movie's timeline, and the
/// movie for every camera frame (its stamps, ffprobe), never against camrec's word alone.
@Suite("camrec --text-every", .serialized)
struct TextRecordingTests {
    static let label = "DOCK 14"

    static func camera() throws -> [String: String] {
        var environment = try VirtualCameraEnvironment.shared().environment(spec: "/dev/video0,formats=yuyv,sizes=1280x720@30")
        environment["CAMREC_DEVICE_PATHS"] = nil
        return environment
    }

    /// A 480x120 PNG label reading `text` in black on white, 60 px type (44 px capitals).
    static func drawLabel(_ path: String, text: String = label) throws {
        let draw = "drawtext=fontfile=\(TextTests.font):text='\(text)':fontsize=60:fontcolor=black:x=20:y=25"
        let make = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=white:s=480x120",
                                                   "-vf", draw, "-frames:v", "1", path])
        try #require(make.status == 0, "ffmpeg: \(make.stderr)")
    }

    /// The options of a 1280x720@30 recording of the emulated camera with `label` bottom-left
    /// (at 15,585, 480x120), and the text read within it: the camera's picture has a white
    /// bar sweeping across, and where it touches the label's white ground Tesseract sees one
    /// white shape and reads no text in it (one frame in several, read whole).
    static func options(label: String) -> [String] {
        ["--device", "/dev/video0", "--size", "1280x720", "--fps", "30", "--overlay-image", label,
         "--overlay-image-position", "bottom-left", "--text-region", "20,590,470,110", "--json"]
    }

    /// What an open-ended recording with `arguments` printed, stopped (through a control
    /// socket) once `count` text lines are out and then `moreFrames` more frames recorded:
    /// the reader runs at the lowest priority, so on a busy machine its readings come when
    /// they come (the frames due meanwhile counted as skipped), not within a fixed time.
    static func recordUntilRead(_ arguments: [String], count: Int, moreFrames: Int = 0,
                                in folder: TemporaryFolder) throws -> (lines: [[String: Any]], stdout: String, stderr: String,
                                                                       result: [String: Any]?) {
        let socket = folder.path("control")
        let recording = try CamrecBinary.start(arguments + ["-t", "none", "--control", socket], environment: Self.camera())
        defer { recording.signal(SIGKILL) }
        try #require(recording.waitForLines(type: "text", count: count, timeout: 180), "\(recording.stderrText)")
        if moreFrames > 0 {
            let now = RecordingWait.currentFrames(socket: socket) ?? 0
            try #require(RecordingWait.frames(now + moreFrames, socket: socket), "\(recording.stderrText)")
        }
        try #require(RecordingWait.stop(socket: socket))
        try #require(recording.wait(timeout: 120) == 0, "\(recording.stderrText)")
        return (recording.lines(type: "text"), String(decoding: recording.stdoutData, as: UTF8.self), recording.stderrText,
                recording.lines(type: "result").first)
    }

    /// The label's words are read, each with its box in the bottom-left corner, where it is
    /// drawn (in the frame's pixels, not the region's).
    static func checkWords(_ line: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(line["text"] as? String == label, "\(line)", sourceLocation: sourceLocation)
        #expect(line["width"] as? Int == 1280 && line["height"] as? Int == 720, "\(line)", sourceLocation: sourceLocation)
        #expect((line["region"] as? [String: Int]) == ["x": 20, "y": 590, "width": 470, "height": 110], "\(line)", sourceLocation: sourceLocation)
        for word in line["words"] as? [[String: Any]] ?? [] {
            let box = word["box"] as? [Int] ?? []
            #expect(box.count == 4 && box[0] < 480 && box[1] >= 600 && box[1] + box[3] <= 720, "\(word)", sourceLocation: sourceLocation)
        }
    }

    @Test func aFrameEveryTIsReadAtItsCameraTimeAndTheMovieKeepsEveryFrame() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let label = folder.path("label.png")
        try Self.drawLabel(label)
        let movie = folder.path("m.mp4")
        let read = try Self.recordUntilRead(Self.options(label: label) + ["--text-every", "1s", movie], count: 2, in: folder)
        let run = (stdoutText: read.stdout, stderr: read.stderr)
        let lines = read.lines
        #expect(lines.count >= 2, "\(run.stdoutText)")
        var times: [Double] = []
        var skipped = 0
        for line in lines {
            Self.checkWords(line)
            #expect(line["input"] as? String == movie && line["trigger"] as? String == "periodic", "\(line)")
            // On the grid of camera time: 0, 1, 2 … s, the frame at that time (30 fps).
            let time = try #require(line["time"] as? Double, "\(line)")
            let frame = try #require(line["frame"] as? Int, "\(line)")
            #expect(abs(time - time.rounded()) < 0.001 && frame == Int(time.rounded()) * 30, "\(line)")
            times.append(time)
            skipped += line["skipped"] as? Int ?? 0
        }
        #expect(times == times.sorted() && Set(times).count == times.count, "\(times)")
        // Every moment up to the last reading was read or said to be skipped.
        if let last = times.last { #expect(Int(last.rounded()) + 1 == lines.count + skipped, "\(times), \(skipped) skipped") }
        // The capture times are as far apart as the movie times.
        let captured = lines.compactMap { ($0["captured"] as? String).flatMap(CaptureTimeTests.seconds) }
        #expect(captured.count == lines.count, "\(lines)")
        for index in captured.indices.dropFirst() {
            #expect(abs((captured[index] - captured[0]) - (times[index] - times[0])) < 0.05, "\(captured) vs \(times)")
        }
        // The movie has every camera frame (less any the camera reported dropped), stamps
        // without a gap.
        let result = try #require(read.result)
        let dropped = result["dropped_frames"] as? Int ?? -1
        let probe = try MediaProbe.probe(movie)
        let stampsSeen = try EventClipTests.stamps(movie).compactMap { $0 }
        let span = (stampsSeen.max().map(Int.init) ?? 0) - (stampsSeen.min().map(Int.init) ?? 0) + 1
        #expect(probe.frames + dropped == span, "\(probe.frames) frames + \(dropped) dropped, camera frames \(span): \(result)")
        let stamps = try EventClipTests.stamps(movie)
        if dropped == 0 { #expect(EventClipTests.contiguous(stamps), "\(stamps)") }
        // For people: a line per reading (at whichever times the reader got to).
        for line in lines where line["text"] as? String == "DOCK 14" {
            let time = String(format: "%.3f", line["time"] as? Double ?? -1)
            #expect(run.stderr.contains("camrec: text at \(time) s: \"DOCK 14\""), "\(time): \(run.stderr)")
        }
        #expect(lines.contains { $0["text"] as? String == "DOCK 14" }, "\(run.stdoutText)")
    }

    @Test func textChangesReportsAnUnchangedLabelOnce() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let label = folder.path("label.png")
        try Self.drawLabel(label)
        let movie = folder.path("m.mp4")
        // The first reading, then readings of the same label for 3 s more of camera time (as
        // many as the machine lets the reader make): none is reported.
        let read = try Self.recordUntilRead(Self.options(label: label) + ["--text-every", "500ms", "--text-changes", movie],
                                            count: 1, moreFrames: 90, in: folder)
        let lines = read.lines
        try #require(lines.count == 1, "\(read.stdout)")
        Self.checkWords(lines[0])
        #expect(lines[0]["time"] as? Double == 0, "\(lines[0])")
    }

    @Test func textChangesReportsEachNewTextOnce() throws {
        // The overlay's {elapsed} (the frame's time in the movie, HH:MM:SS) changes every
        // second; read every half second, each second's text is reported once.
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("m.mp4")
        let read = try Self.recordUntilRead(["--device", "/dev/video0", "--size", "1280x720", "--fps", "30",
                                             "--overlay", "ELAPSED {elapsed}", "--overlay-position", "bottom-right",
                                             "--text-every", "500ms", "--text-changes", "--text-region", "900,640,380,80",
                                             "--json", movie], count: 2, in: folder)
        let run = (stdoutText: read.stdout, stderr: read.stderr)
        let lines = read.lines
        #expect(lines.count >= 2, "\(run.stdoutText)")
        var previous: String?
        for line in lines {
            let text = line["text"] as? String ?? ""
            let time = line["time"] as? Double ?? -1
            #expect(text != previous, "\(text) reported twice in a row: \(run.stdoutText)")
            previous = text
            // The text shown at that time: at a whole second the overlay may still show the
            // second before (it counts its own frames).
            let second = Int(time.rounded(.down))
            let shown = [second] + (time == time.rounded() && second > 0 ? [second - 1] : [])
            #expect(shown.map { String(format: "ELAPSED 00:00:%02d", $0) }.contains(text), "\(line)")
        }
        #expect(lines.first?["time"] as? Double == 0, "\(run.stdoutText)")
    }

    @Test func ctlTextReadsTheNextFrameAndTextStillsKeepTheirText() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let label = folder.path("label.png")
        try Self.drawLabel(label)
        let (movie, socket) = (folder.path("m.mp4"), folder.path("control"))
        let run = try CamrecBinary.start(Self.options(label: label) + ["--max-duration", "none", "--text", "--control", socket, movie],
                                         environment: Self.camera())
        defer { run.signal(SIGKILL) }
        try #require(RecordingWait.frames(30, socket: socket), "\(run.stderrText)")
        // The reader runs at the lowest priority: SCHED_IDLE (5) and nice 19, in a thread of its own.
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(run.pid)/task")) ?? []
        let reader = tasks.first { (try? String(contentsOfFile: "/proc/\(run.pid)/task/\($0)/comm", encoding: .utf8)) == "camrec-text\n" }
        let stat = try String(contentsOfFile: "/proc/\(run.pid)/task/\(try #require(reader, "no camrec-text thread"))/stat", encoding: .utf8)
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        // After the name: field 3 is the state; nice is field 19, the policy field 41.
        #expect(fields.count > 38 && fields[16] == "19" && fields[38] == "5", "\(stat)")

        let reply = try CamrecBinary.run(["ctl", socket, "text", "--timeout", "60s"], timeout: 90)
        #expect(reply.status == 0, "\(reply.stdoutText) \(reply.stderr)")
        let answer = try #require((try? JSONSerialization.jsonObject(with: reply.stdout)) as? [String: Any], "\(reply.stdoutText)")
        #expect(answer["ok"] as? Bool == true && answer["trigger"] as? String == "control", "\(answer)")
        Self.checkWords(answer)
        let frame = try #require(answer["frame"] as? Int, "\(answer)")
        #expect(frame >= 30 && abs((answer["time"] as? Double ?? -1) - Double(frame) / 30) < 0.001, "\(answer)")
        // The same reading is the run's text line.
        try #require(run.waitForLine(type: "text"), "\(run.stderrText)")
        #expect(run.lines(type: "text").first?["frame"] as? Int == frame)

        // A still: its text is read from the file written and kept beside it.
        let still = try CamrecBinary.run(["ctl", socket, "still"], timeout: 30)
        #expect(still.status == 0, "\(still.stdoutText)")
        try #require(run.waitForLines(type: "text", count: 2, timeout: 120), "\(run.stderrText)")
        let stillText = try #require(run.lines(type: "text").last)
        #expect(stillText["trigger"] as? String == "still" && stillText["input"] as? String == folder.path("m-still-0001.jpg"), "\(stillText)")
        Self.checkWords(stillText)
        #expect(stillText["text_file"] as? String == folder.path("m-still-0001.txt"))
        #expect((try? String(contentsOfFile: folder.path("m-still-0001.txt"), encoding: .utf8)) == Self.label + "\n")

        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")
        // Nothing is read after the result.
        #expect(run.jsonLines.last?["type"] as? String == "result")
    }

    @Test func ctlTextIsAnsweredWhileStillsComeFasterThanTheyAreRead() throws {
        // A still every 100 ms, each read whole (1280x720: several tenths of a second at
        // least): the stills waiting for their text reach the most kept, and then more
        // keep coming. `ctl text` is answered at the next reading all the same.
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let label = folder.path("label.png")
        try Self.drawLabel(label)
        let (movie, socket) = (folder.path("m.mp4"), folder.path("control"))
        let run = try CamrecBinary.start(["--device", "/dev/video0", "--size", "1280x720", "--fps", "30", "--overlay-image", label,
                                          "--overlay-image-position", "bottom-left", "--json", "--max-duration", "none", "--text",
                                          "--still-every", "100ms", "--control", socket, movie], environment: Self.camera())
        defer { run.signal(SIGKILL) }
        let full = "stills are waiting for theirs already"
        try #require(run.waitUntil(timeout: 180) { lines in
            lines.contains { $0["type"] as? String == "warning" && ($0["message"] as? String)?.contains(full) == true }
        }, "\(run.stderrText)")

        let reply = try CamrecBinary.run(["ctl", socket, "text", "--timeout", "60s"], timeout: 90)
        #expect(reply.status == 0, "\(reply.stdoutText) \(reply.stderr)")
        let answer = try #require((try? JSONSerialization.jsonObject(with: reply.stdout)) as? [String: Any], "\(reply.stdoutText)")
        #expect(answer["ok"] as? Bool == true && answer["trigger"] as? String == "control", "\(answer)")
        // A reading of the frame after the request (read whole, the label's text may be
        // lost where the camera's sweeping white bar touches its white ground).
        #expect((answer["frame"] as? Int).map { $0 > 0 } == true && answer["input"] as? String == movie, "\(answer)")
        // The stills waiting are read after it (their sidecars written), not dropped.
        try #require(run.waitUntil(timeout: 180) { lines in
            let texts = lines.filter { $0["type"] as? String == "text" }
            guard let control = texts.firstIndex(where: { $0["trigger"] as? String == "control" }) else { return false }
            return texts[(control + 1)...].contains { $0["trigger"] as? String == "still" }
        }, "\(run.stderrText)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait(timeout: 120) == 0, "\(run.stderrText)")

        // Every still has its text beside it, or a warning naming it says it is not read.
        let warnings = run.lines(type: "warning").compactMap { $0["message"] as? String }
        let stills = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".jpg") }
        #expect(stills.count > 16, "\(stills)")
        var unread = 0
        for still in stills {
            let path = folder.path(still)
            let sidecar = String(path.dropLast(4)) + ".txt"
            if FileManager.default.fileExists(atPath: sidecar) { continue }
            unread += 1
            #expect(warnings.contains { $0.hasPrefix("the text of \(path) is not ") }, "\(path): \(warnings)")
        }
        #expect(unread < stills.count, "no still was read: \(warnings)")
        for line in run.lines(type: "text") where line["trigger"] as? String == "still" {
            let input = line["input"] as? String ?? ""
            #expect(line["text_file"] as? String == String(input.dropLast(4)) + ".txt", "\(line)")
        }
        #expect(run.jsonLines.last?["type"] as? String == "result")
    }

    @Test func ctlTextIsRefusedWhereNoTextIsReadAndAMissingModelStopsBeforeRecording() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (movie, socket) = (folder.path("m.mp4"), folder.path("control"))
        let run = try CamrecBinary.start(["--device", "/dev/video0", "--size", "1280x720", "--max-duration", "none",
                                          "--control", socket, "--json", movie], environment: Self.camera())
        defer { run.signal(SIGKILL) }
        try #require(RecordingWait.frames(5, socket: socket), "\(run.stderrText)")
        let refused = try CamrecBinary.run(["ctl", socket, "text"], timeout: 30)
        #expect(refused.status == 1 && refused.stdoutText.contains("this recording reads no text: start camrec with --text or --text-every T"),
                "\(refused.stdoutText)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")

        let missing = try CamrecBinary.run(["--device", "/dev/video0", "-t", "2", "--text-every", "1s", "--text-lang", "eng+qqq", "--json",
                                            folder.path("none.mp4")], environment: Self.camera())
        #expect(missing.status == 69 && missing.stderr.contains("tesseract-ocr-qqq"), "\(missing.stderr)")
        #expect(JSONLines.parse(missing).map { $0["type"] as? String } == ["error"], "\(missing.stdoutText)")
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix("none") }
        #expect(written.isEmpty, "\(written)")
        // Usage errors come first.
        let usage = try CamrecBinary.run(["--device", "/dev/video0", "--text-changes", folder.path("none.mp4")], environment: Self.camera())
        #expect(usage.status == 64 && usage.stderr.contains("--text-changes goes with --text-every"), "\(usage.stderr)")
        let region = try CamrecBinary.run(["--device", "/dev/video0", "--size", "1280x720", "--text-every", "1s", "--text-region", "1300,0,10,10",
                                           folder.path("none.mp4")], environment: Self.camera())
        #expect(region.status == 64 && region.stderr.contains("lies outside the 1280x720 picture"), "\(region.stderr)")
    }
}

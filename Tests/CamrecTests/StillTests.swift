import Foundation
import Testing

/// Stills during a recording: every trigger, naming, the burst that must not disturb the
/// movie, MJPEG pass-through, and failures that must not stop the recording.
///
/// Every test acts on a condition (a frame count from the control socket, a JSON line),
/// never after a fixed sleep, and stops an open-ended recording itself (`ctl stop`) once
/// what it waits for has happened, so that a slow machine only makes it slower.
/// Serialized: the burst test counts dropped frames, which recordings running beside it
/// on a loaded 2-core machine would cause.
@Suite(.serialized) struct StillTests {
    func camera(_ spec: String = "/dev/video0,formats=yuyv") throws -> [String: String] {
        try VirtualCameraEnvironment.shared().environment(spec: spec)
    }

    func stills(in lines: [[String: Any]]) -> [[String: Any]] {
        lines.filter { $0["type"] as? String == "still" }
    }

    func triggers(_ lines: [[String: Any]]) -> [String] {
        stills(in: lines).compactMap { $0["trigger"] as? String }
    }

    @Test func sigusr1AndPeriodicStillsAreFullSizeAndReported() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("movie.mp4")
        let socket = folder.path("control")
        let run = try CamrecBinary.start(["--size", "640x480", "--max-duration", "none", "--still-every", "1s",
                                          "--control", socket, "--json", output], environment: camera())
        // The first periodic still, then one by signal, then two more periodic ones.
        try #require(run.waitUntil { triggers($0).contains("periodic") }, "no periodic still: \(run.stderrText)")
        run.signal(SIGUSR1)
        try #require(run.waitUntil { lines in
            triggers(lines).contains("signal") && triggers(lines).count { $0 == "periodic" } >= 3
        }, "stills so far: \(triggers(run.jsonLines)); \(run.stderrText)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")
        let lines = run.jsonLines
        let events = stills(in: lines)
        #expect(triggers(lines).count { $0 == "signal" } == 1, "\(triggers(lines))")
        #expect(triggers(lines).count { $0 == "periodic" } >= 3, "\(triggers(lines))")
        #expect(triggers(lines).count == events.count, "every still names its trigger")
        let result = try #require(lines.last)
        let files = result["files"] as? [[String: Any]] ?? []
        #expect(files.filter { $0["kind"] as? String == "still" }.count == events.count)
        for still in events {
            let path = try #require(still["path"] as? String)
            #expect(path.hasPrefix(folder.path("movie-still-")) && path.hasSuffix(".jpg"))
            let probe = try MediaProbe.probe(path)
            #expect(probe.codec == "mjpeg")
            #expect((probe.width, probe.height) == (640, 480))
            #expect(still["bytes"] as? Int == Int(OutputFileSize.of(path)))
            // Reported and plausible; how fast stills are is bench/'s business (section 3),
            // not a test's on a shared machine.
            let latency = try #require(still["latency_ms"] as? Double)
            #expect(latency >= 0 && latency < 30_000, "latency_ms \(latency)")
        }
        #expect(Set(events.compactMap { $0["path"] as? String }).count == events.count, "every still has its own file")
    }

    /// 20 stills in a row, each asked for as soon as the one before is written: nothing
    /// dropped, the movie holds exactly the frames camrec reports, its camera frames follow
    /// each other without a gap, and each still is the movie's frame at the index it reports
    /// (same camera stamp).
    ///
    /// Each SIGUSR1 waits for the still before it: two pending SIGUSR1s merge into one, so
    /// signals sent faster than camrec takes them would lose stills on a loaded machine.
    @Test func burstOfTwentyStillsDoesNotDisturbTheMovie() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("burst.mp4")
        let socket = folder.path("control")
        let run = try CamrecBinary.start(["--size", "640x480", "--fps", "30", "--max-duration", "none",
                                          "--control", socket, "--json", output], environment: camera())
        try #require(RecordingWait.frames(30, socket: socket), "no 30 frames within 60 s: \(run.stderrText)")
        for count in 1...20 {
            run.signal(SIGUSR1)
            try #require(run.waitForLines(type: "still", count: count), "still \(count) of 20 never came: \(run.stderrText)")
        }
        // A few frames after the last still, so that it lies inside the movie.
        let last = try #require(RecordingWait.currentFrames(socket: socket))
        try #require(RecordingWait.frames(last + 15, socket: socket))
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")
        let lines = run.jsonLines
        let result = try #require(lines.last)
        #expect(result["dropped_frames"] as? Int == 0)
        let movie = try #require((result["files"] as? [[String: Any]])?.first { $0["kind"] as? String == "movie" })
        let probe = try MediaProbe.probe(output)
        #expect(probe.frames == movie["frames"] as? Int, "ffprobe counts \(probe.frames), camrec reports \(movie["frames"] ?? "nil")")
        let events = stills(in: lines)
        #expect(events.count == 20, "\(events.count) stills of 20")
        let movieStamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: output))
        // Neighbours in the movie are neighbours from the camera (where both stamps read).
        let gaps = zip(movieStamps, movieStamps.dropFirst()).filter { pair in
            guard let a = pair.0, let b = pair.1 else { return false }
            return b != a + 1
        }
        #expect(gaps.isEmpty, "camera frames missing from the movie: \(gaps)")
        for still in events {
            let path = try #require(still["path"] as? String)
            let index = try #require(still["frame"] as? Int)
            let stamp = try FrameStampReader.sequence(inImage: URL(fileURLWithPath: path))
            #expect(stamp != nil && index < movieStamps.count && movieStamps[index] == stamp,
                    "\(path): still stamp \(String(describing: stamp)), movie frame \(index) stamp \(index < movieStamps.count ? String(describing: movieStamps[index]) : "none")")
            let pts = try #require(still["pts"] as? Double)
            #expect(abs(pts - Double(index) / 30) < 0.02)
        }
    }

    /// From an MJPEG camera the still is the camera's own JPEG: byte for byte the frame the
    /// camera produced, which the emulated camera renders identically in another process,
    /// with the EXIF segment camrec adds (StillExifEndToEndTests reads it).
    @Test func mjpegStillsAreTheCamerasOwnBytes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("mjpeg.mkv")
        let socket = folder.path("control")
        let spec = "/dev/video0,formats=mjpeg"
        let run = try CamrecBinary.start(["--size", "640x480", "--max-duration", "none", "--control", socket, "--json", output],
                                         environment: camera(spec))
        try #require(RecordingWait.frames(30, socket: socket), "no 30 frames within 60 s: \(run.stderrText)")
        run.signal(SIGUSR1)
        #expect(run.waitForLine(type: "still"), "\(run.stderrText)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0)
        let still = try #require(stills(in: run.jsonLines).first?["path"] as? String)
        let stamp = try #require(try FrameStampReader.sequence(inImage: URL(fileURLWithPath: still)))
        // Capture the same camera's first frames with gst-launch and take the one with that
        // stamp: found by its stamp, not its place, since a loaded machine may make the
        // capture miss frames (the files are numbered by arrival, the stamps by the camera).
        let frames = folder.path("frame-%05d.jpg")
        let capture = try ChildProcess.run("gst-launch-1.0", [
            "-q", "v4l2src", "device=/dev/video0", "num-buffers=\(stamp + 1)", "!",
            "image/jpeg,width=640,height=480,framerate=30/1", "!", "multifilesink", "location=\(frames)",
        ], environment: camera(spec), timeout: 60)
        #expect(capture.status == 0, "\(capture.stderr)")
        let captured = folder.contents.filter { $0.hasPrefix("frame-") }.map { URL(fileURLWithPath: folder.path($0)) }
        let match = captured.first { (try? FrameStampReader.sequence(inImage: $0)) == stamp }
        let cameraFrame = try Data(contentsOf: try #require(match, "no captured frame has stamp \(stamp)"))
        #expect(ExifTool.withoutExif(try Data(contentsOf: URL(fileURLWithPath: still))) == cameraFrame)
    }

    /// A PNG still from an MJPEG camera: its JPEG frame decoded and written as PNG, the
    /// frame's stamp still readable (the same frame as the movie's at its index).
    @Test func pngStillsFromAnMJPEGCamera() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("mjpeg.mkv")
        let socket = folder.path("control")
        let run = try CamrecBinary.start(["--size", "640x480", "--max-duration", "none", "--still-format", "png",
                                          "--control", socket, "--json", output], environment: camera("/dev/video0,formats=mjpeg"))
        defer { run.signal(SIGKILL) }
        try #require(RecordingWait.frames(15, socket: socket), "no 15 frames within 60 s: \(run.stderrText)")
        run.signal(SIGUSR1)
        try #require(run.waitForLine(type: "still"), "\(run.stderrText)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")
        let line = try #require(stills(in: run.jsonLines).first)
        let still = try #require(line["path"] as? String)
        #expect(still.hasSuffix(".png"))
        let probe = try MediaProbe.probe(still)
        #expect(probe.codec == "png" && probe.width == 640, "\(probe)")
        let stamp = try FrameStampReader.sequence(inImage: URL(fileURLWithPath: still))
        #expect(stamp != nil, "the PNG's camera stamp cannot be read")
    }

    @Test func controlSocketTakesStillsReportsStatusAndStops() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("ctl.sock")
        let output = folder.path("ctl.mp4")
        let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--max-duration", "none",
                                          "--control", socket, "--json", output])
        #expect(run.waitForLine(type: "started"))
        let attributes = try FileManager.default.attributesOfItem(atPath: socket)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(attributes[.type] as? FileAttributeType == .typeSocket)
        // "started" may come before the first frame: wait for one.
        try #require(RecordingWait.frames(1, socket: socket), "no frame within 60 s: \(run.stderrText)")

        let status = try CamrecBinary.run(["ctl", socket, "status"])
        #expect(status.status == 0)
        let state = try #require(try JSONSerialization.jsonObject(with: status.stdout) as? [String: Any])
        #expect(state["ok"] as? Bool == true && state["state"] as? String == "recording")
        #expect(state["frames"] as? Int ?? 0 > 0)

        let still = try CamrecBinary.run(["ctl", socket, "still"])
        #expect(still.status == 0, "\(still.stdoutText)")
        let reply = try #require(try JSONSerialization.jsonObject(with: still.stdout) as? [String: Any])
        let path = try #require(reply["path"] as? String)
        #expect(FileManager.default.fileExists(atPath: path))

        // ctl refuses what the recorder would not know before sending it (a usage error);
        // the recorder's own refusals are ControlServerTests'.
        let bad = try CamrecBinary.run(["ctl", socket, "explode"])
        #expect(bad.status == 64 && bad.stderr.contains("unknown command"), "\(bad.stderr)")
        let huge = try CamrecBinary.run(["ctl", socket, String(repeating: "x", count: 5000)])
        #expect(huge.status == 64 && huge.stderr.contains("unknown command"), "\(huge.stderr)")

        let after = try #require(try JSONSerialization.jsonObject(with: CamrecBinary.run(["ctl", socket, "status"]).stdout) as? [String: Any])
        #expect(after["stills"] as? Int == 1, "malformed commands changed nothing")

        #expect(try CamrecBinary.run(["ctl", socket, "stop"]).status == 0)
        #expect(run.wait() == 0)
        #expect(run.jsonLines.last?["reason"] as? String == "control")
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket is removed at the end")
        #expect(try MediaProbe.decodeErrors(output).isEmpty)

        let gone = try CamrecBinary.run(["ctl", socket, "status"])
        #expect(gone.status == 69 && gone.stderr.contains("no recorder is listening"))
    }

    @Test func controlPathThatIsNotAStaleSocketIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let taken = folder.path("file.sock")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: taken))
        let result = try CamrecBinary.run(["--device", "test", "--max-duration", "1", "--control", taken, folder.path("x.mp4")])
        #expect(result.status == 73 && result.stderr.contains("not a socket"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: taken)) == Data("mine".utf8))
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.mp4")))
    }

    @Test func namingPatternsNeverOverwriteAndPNGWorks() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("shots"), withIntermediateDirectories: false)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: folder.path("shots/img-01.png")))
        let socket = folder.path("control")
        let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--max-duration", "none",
                                          "--stills", folder.path("shots/img-%02d.png"), "--still-format", "png",
                                          "--control", socket, "--json", folder.path("m.mkv")])
        try #require(RecordingWait.frames(1, socket: socket), "no frame within 60 s: \(run.stderrText)")
        run.signal(SIGUSR1)
        try #require(run.waitForLines(type: "still", count: 1), "\(run.stderrText)")
        run.signal(SIGUSR1)
        try #require(run.waitForLines(type: "still", count: 2), "\(run.stderrText)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("shots/img-01.png"))) == Data("keep".utf8))
        let paths = stills(in: run.jsonLines).compactMap { $0["path"] as? String }
        #expect(paths == [folder.path("shots/img-02.png"), folder.path("shots/img-03.png")])
        for path in paths {
            let probe = try MediaProbe.probe(path)
            #expect(probe.codec == "png" && probe.width == 320)
        }
    }

    @Test func aStillThatCannotBeWrittenIsAWarningAndTheRecordingGoesOn() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let shots = folder.path("shots")
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: false)
        let output = folder.path("m.mp4")
        let socket = folder.path("control")
        let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--fps", "30", "--max-duration", "none",
                                          "--stills", shots, "--control", socket, "--json", output])
        try #require(RecordingWait.frames(15, socket: socket), "no 15 frames within 60 s: \(run.stderrText)")
        try FileManager.default.removeItem(atPath: shots)
        run.signal(SIGUSR1)
        let warned = run.waitUntil { lines in
            lines.contains { $0["type"] as? String == "warning" && ($0["message"] as? String ?? "").contains("still") }
        }
        #expect(warned, "no warning about the still: \(run.stderrText)")
        // The recording goes on: 30 more frames after the warning.
        let afterWarning = try #require(RecordingWait.currentFrames(socket: socket), "camrec stopped answering: \(run.stderrText)")
        #expect(RecordingWait.frames(afterWarning + 30, socket: socket), "the recording stopped after the failed still")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")
        let result = try #require(run.jsonLines.last)
        #expect(result["reason"] as? String == "control")
        #expect(stills(in: run.jsonLines).isEmpty)
        let movie = try #require((result["files"] as? [[String: Any]])?.first)
        #expect(movie["kind"] as? String == "movie")
        let frames = try MediaProbe.probe(output).frames
        #expect(frames == movie["frames"] as? Int && frames >= afterWarning + 30, "\(frames) frames in the file, \(movie)")
    }

    @Test(arguments: [["--still-quality", "0"], ["--still-format", "gif"], ["--stills", "a-%d-%d.jpg"], ["--still-every", "0"]])
    func badStillOptionsAreUsageErrors(_ options: [String]) throws {
        let result = try CamrecBinary.run(["--device", "test"] + options + ["/tmp/camrec-never.mp4"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    /// `--stills ''` is no folder (it would put stills at the filesystem root).
    @Test func emptyStillsPatternIsAUsageError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["--device", "test", "--max-duration", "0.5", "--stills", "", folder.path("m.mkv")])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--stills"), "\(result.stderr)")
        #expect(folder.contents.isEmpty)
    }

    /// The pattern's extension must be one a still can have, and agree with --still-format.
    @Test(arguments: [
        (["--stills", "/tmp/camrec-never-%04d.txt"], ".jpg, .jpeg or .png"),
        (["--stills", "/tmp/camrec-never-%04d"], ".jpg, .jpeg or .png"),
        (["--stills", "/tmp/camrec-never-%04d.png", "--still-format", "jpeg"], "--still-format"),
        (["--stills", "/tmp/camrec-never-%04d.jpg", "--still-format", "png"], "--still-format"),
    ])
    func stillsPatternExtensionMustFitTheFormat(_ options: [String], mentions: String) throws {
        let result = try CamrecBinary.run(["--device", "test", "--print-pipeline"] + options + ["/tmp/camrec-never.mp4"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(mentions), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    /// `--stills shots/img-%02d.png` alone writes PNG files: the extension picks the format.
    @Test func stillsPatternExtensionPicksTheFormat() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("control")
        let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--max-duration", "none", "--control", socket,
                                          "--stills", folder.path("img-%02d.png"), "--json", folder.path("m.mkv")])
        try #require(RecordingWait.frames(1, socket: socket), "no frame within 60 s: \(run.stderrText)")
        run.signal(SIGUSR1)
        #expect(run.waitForLine(type: "still"), "\(run.stderrText)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")
        let path = try #require(stills(in: run.jsonLines).first?["path"] as? String)
        #expect(path == folder.path("img-01.png"))
        #expect(try MediaProbe.probe(path).codec == "png")
    }

    /// A stills folder that cannot be written is found at start, like OUTPUT's (exit 73),
    /// not when the first still fails.
    @Test(arguments: ["/nonexistent-camrec/dir/", "/etc/passwd", "/etc/passwd/x-%02d.jpg"])
    func unusableStillsFolderIsFoundAtStart(_ stills: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["--device", "test", "-t", "30", "--json", "--stills", stills, folder.path("m.mkv")])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("camrec: cannot create"), "\(result.stderr)")
        // Refused before recording: no started line, nothing made.
        #expect(!JSONLines.parse(result).contains { $0["type"] as? String == "started" })
        #expect(folder.contents.isEmpty)
    }
}

import Foundation
import Testing

/// Stills during a recording: every trigger, naming, the burst that must not disturb the
/// movie, MJPEG pass-through, and failures that must not stop the recording.
@Suite struct StillTests {
    func camera(_ spec: String = "/dev/video0,formats=yuyv") throws -> [String: String] {
        try VirtualCameraEnvironment.shared().environment(spec: spec)
    }

    func stills(in lines: [[String: Any]]) -> [[String: Any]] {
        lines.filter { $0["type"] as? String == "still" }
    }

    @Test func sigusr1AndPeriodicStillsAreFullSizeAndReported() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("movie.mp4")
        let run = try CamrecBinary.start(["--size", "640x480", "--max-duration", "3.5", "--still-every", "1s", "--json", output],
                                         environment: camera())
        #expect(run.waitForLine(type: "started"))
        Thread.sleep(forTimeInterval: 1.5)
        run.signal(SIGUSR1)
        #expect(run.wait() == 0, "\(run.stderrText)")
        let lines = run.jsonLines
        let events = stills(in: lines)
        #expect(events.compactMap { $0["trigger"] as? String }.sorted() == ["periodic", "periodic", "periodic", "signal"])
        let result = try #require(lines.last)
        let files = result["files"] as? [[String: Any]] ?? []
        #expect(files.filter { $0["kind"] as? String == "still" }.count == 4)
        for still in events {
            let path = try #require(still["path"] as? String)
            #expect(path.hasPrefix(folder.path("movie-still-")) && path.hasSuffix(".jpg"))
            let probe = try MediaProbe.probe(path)
            #expect(probe.codec == "mjpeg")
            #expect((probe.width, probe.height) == (640, 480))
            #expect(still["bytes"] as? Int == Int(OutputFileSize.of(path)))
            #expect((still["latency_ms"] as? Double ?? 1e9) < 1000)
        }
        #expect(Set(events.compactMap { $0["path"] as? String }).count == 4, "every still has its own file")
    }

    /// 20 stills within 2 s: the movie keeps exactly fps × duration frames, nothing dropped,
    /// and each still is the movie's frame at the index it reports (same camera stamp).
    @Test func burstOfTwentyStillsDoesNotDisturbTheMovie() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("burst.mp4")
        let run = try CamrecBinary.start(["--size", "640x480", "--fps", "30", "--max-duration", "4", "--json", output],
                                         environment: camera())
        #expect(run.waitForLine(type: "started"))
        Thread.sleep(forTimeInterval: 1)
        for _ in 0..<20 {
            run.signal(SIGUSR1)
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(run.wait() == 0, "\(run.stderrText)")
        let lines = run.jsonLines
        let result = try #require(lines.last)
        #expect(result["dropped_frames"] as? Int == 0)
        let probe = try MediaProbe.probe(output)
        #expect(abs(probe.frames - 120) <= 1, "\(probe.frames) frames, want 120 ± 1")
        let events = stills(in: lines)
        #expect(events.count == 20, "\(events.count) stills of 20")
        let movieStamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: output))
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
    /// camera produced, which the emulated camera renders identically in another process.
    @Test func mjpegStillsAreTheCamerasOwnBytes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("mjpeg.mkv")
        let spec = "/dev/video0,formats=mjpeg"
        let run = try CamrecBinary.start(["--size", "640x480", "--max-duration", "2", "--json", output], environment: camera(spec))
        #expect(run.waitForLine(type: "started"))
        Thread.sleep(forTimeInterval: 1)
        run.signal(SIGUSR1)
        #expect(run.wait() == 0)
        let still = try #require(stills(in: run.jsonLines).first?["path"] as? String)
        let stamp = try #require(try FrameStampReader.sequence(inImage: URL(fileURLWithPath: still)))
        // Capture the same camera's first frames with gst-launch and take the one with that stamp.
        let frames = folder.path("frame-%05d.jpg")
        let capture = try ChildProcess.run("gst-launch-1.0", [
            "-q", "v4l2src", "device=/dev/video0", "num-buffers=\(stamp + 1)", "!",
            "image/jpeg,width=640,height=480,framerate=30/1", "!", "multifilesink", "location=\(frames)",
        ], environment: camera(spec), timeout: 30)
        #expect(capture.status == 0, "\(capture.stderr)")
        let cameraFrame = try Data(contentsOf: URL(fileURLWithPath: String(format: folder.path("frame-%05d.jpg"), Int(stamp))))
        #expect(try Data(contentsOf: URL(fileURLWithPath: still)) == cameraFrame)
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

        let bad = try CamrecBinary.run(["ctl", socket, "explode"])
        #expect(bad.status == 1 && bad.stdoutText.contains("unknown command"))
        let huge = try CamrecBinary.run(["ctl", socket, String(repeating: "x", count: 5000)])
        #expect(huge.status == 1 && huge.stdoutText.contains("too long"))

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
        let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--max-duration", "2",
                                          "--stills", folder.path("shots/img-%02d.png"), "--still-format", "png",
                                          "--json", folder.path("m.mkv")])
        #expect(run.waitForLine(type: "started"))
        Thread.sleep(forTimeInterval: 0.7)
        run.signal(SIGUSR1)
        Thread.sleep(forTimeInterval: 0.3)
        run.signal(SIGUSR1)
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
        let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--fps", "30", "--max-duration", "2",
                                          "--stills", shots, "--json", output])
        #expect(run.waitForLine(type: "started"))
        try FileManager.default.removeItem(atPath: shots)
        Thread.sleep(forTimeInterval: 0.5)
        run.signal(SIGUSR1)
        #expect(run.wait() == 0)
        let lines = run.jsonLines
        #expect(lines.contains { $0["type"] as? String == "warning" && ($0["message"] as? String ?? "").contains("still") })
        #expect(lines.last?["reason"] as? String == "max-duration")
        #expect(try MediaProbe.probe(output).frames == 60)
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
        let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--max-duration", "1.5",
                                          "--stills", folder.path("img-%02d.png"), "--json", folder.path("m.mkv")])
        let started = run.waitForLine(type: "started")
        if started {
            run.signal(SIGUSR1)
            _ = run.waitForLine(type: "still")
        }
        let status = run.wait()
        #expect(started && status == 0, "\(run.stderrText)")
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

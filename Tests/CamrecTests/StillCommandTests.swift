import Foundation
import Testing

/// `camrec still`, and the keys of an interactive recording.
@Suite struct StillCommandTests {
    func camera(_ spec: String) throws -> [String: String] {
        try VirtualCameraEnvironment.shared().environment(spec: spec)
    }

    /// The emulated camera starts black and brightens over 40 frames, as a webcam's
    /// auto-exposure does: the photo must wait for it, and --settle 0 must not.
    @Test func waitsForExposureToSettleUnlessToldNotTo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let spec = "/dev/video0,formats=yuyv,dark=40"
        let settled = try CamrecBinary.run(["still", "--size", "640x480", "--json", folder.path("settled.jpg")], environment: camera(spec))
        #expect(settled.status == 0, "\(settled.stderr)")
        let first = try CamrecBinary.run(["still", "--size", "640x480", "--settle", "0", folder.path("first.jpg")], environment: camera(spec))
        #expect(first.status == 0)
        let settledStamp = try #require(try FrameStampReader.sequence(inImage: URL(fileURLWithPath: folder.path("settled.jpg"))))
        let firstStamp = try #require(try FrameStampReader.sequence(inImage: URL(fileURLWithPath: folder.path("first.jpg"))))
        #expect(settledStamp >= 40, "took frame \(settledStamp) before the ramp ended")
        #expect(firstStamp <= 2, "--settle 0 took frame \(firstStamp)")
        let brightness = (settled: try meanBrightness(folder.path("settled.jpg")), first: try meanBrightness(folder.path("first.jpg")))
        #expect(brightness.settled > brightness.first + 30, "\(brightness)")
        let result = try #require(JSONLines.parse(settled).last)
        #expect(result["reason"] as? String == "completed")
        #expect((result["files"] as? [[String: Any]])?.first?["path"] as? String == folder.path("settled.jpg"))
    }

    /// Issue 29 item 10: a camera unplugged during a series ends it with the lost camera's
    /// exit status (79) and a result line listing the stills taken, not exit 1 with
    /// GStreamer's "src: Could not read from resource.".
    @Test func item10_aCameraLostDuringASeriesIsExit79WithTheStillsTaken() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["still", "--size", "640x480", "--settle", "0", "--count", "5", "--interval", "0.5",
                                           "--json", folder.path("s-%02d.jpg")],
                                          environment: camera("/dev/video0,formats=yuyv,fault=unplug@20"))
        #expect(result.status == 79, "\(result.status) \(result.stderr)")
        #expect(!result.stderr.contains("Could not read from resource") || result.stderr.contains("camera lost"), "\(result.stderr)")
        let last = try #require(JSONLines.parse(result).last)
        #expect(last["type"] as? String == "result", "\(last)")
        #expect(last["reason"] as? String == "camera-lost", "\(last)")
        let files = (last["files"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(!files.isEmpty && files.count < 5, "\(files)")
        #expect(files.sorted() == folder.contents.map(folder.path).sorted(), "\(files) vs \(folder.contents)")
        for file in files { #expect(try MediaProbe.decodeErrors(file).isEmpty) }
    }

    @Test func settleIsBoundedAndSaysSo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Still ramping after 0.5 s: camrec takes the picture anyway and warns.
        let result = try CamrecBinary.run(["still", "--size", "640x480", "--settle", "0.5", "--json", folder.path("x.jpg")],
                                          environment: camera("/dev/video0,formats=yuyv,dark=300"))
        #expect(result.status == 0)
        #expect(JSONLines.parse(result).contains { $0["type"] as? String == "warning" })
        #expect(FileManager.default.fileExists(atPath: folder.path("x.jpg")))
    }

    @Test func seriesNamesCountUpAndExistingPhotoIsKept() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let series = try CamrecBinary.run(["still", "--device", "test", "--size", "320x240", "--count", "3", "--interval", "0.2",
                                           "--settle", "0", "--json", folder.path("shot.png")])
        #expect(series.status == 0, "\(series.stderr)")
        #expect(folder.contents == ["shot-0001.png", "shot-0002.png", "shot-0003.png"])
        #expect(try MediaProbe.probe(folder.path("shot-0002.png")).codec == "png")

        let keep = folder.path("keep.jpg")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: keep))
        let refused = try CamrecBinary.run(["still", "--device", "test", "--settle", "0", keep])
        #expect(refused.status == 73)
        #expect(try Data(contentsOf: URL(fileURLWithPath: keep)) == Data("mine".utf8))
        let forced = try CamrecBinary.run(["still", "--device", "test", "--settle", "0", "--force", keep])
        #expect(forced.status == 0)
        #expect(try MediaProbe.probe(keep).codec == "mjpeg")
    }

    @Test func cameraErrorsAreTheRecordersExitCodes() throws {
        let busy = try CamrecBinary.run(["still", "/tmp/camrec-never.jpg"], environment: camera("/dev/video0,fault=ebusy"))
        #expect(busy.status == 75)
        let wrongExtension = try CamrecBinary.run(["still", "--device", "test", "/tmp/camrec-never.gif"])
        #expect(wrongExtension.status == 64)
    }

    /// `camrec still` has no movie: its lines name the photo without a "movie time".
    @Test func photosAreReportedWithoutAMovieTime() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["still", "--device", "test", "--size", "320x240", "--count", "2", "--interval", "0.1",
                                           "--settle", "0", folder.path("p.jpg")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("movie"), "\(result.stderr)")
        #expect(result.stderr.contains(folder.path("p-0001.jpg")) && result.stderr.contains(folder.path("p-0002.jpg")), "\(result.stderr)")
    }

    /// A folder that cannot hold the photos is found before the camera is opened: exit 73,
    /// one line saying what is wrong with which folder (a busy camera would give 75).
    @Test(arguments: [
        (["/etc/passwd/x.jpg"], "/etc/passwd is not a folder"),
        (["--count", "2", "/etc/passwd/x.jpg"], "/etc/passwd is not a folder"),
        (["/nonexistent-camrec/dir/x.jpg"], "/nonexistent-camrec/dir does not exist"),
        (["--count", "2", "/nonexistent-camrec/dir/x-%02d.png"], "/nonexistent-camrec/dir does not exist"),
    ])
    func unusableFolderIsFoundAtStart(_ arguments: [String], mentions: String) throws {
        let result = try CamrecBinary.run(["still"] + arguments, environment: camera("/dev/video0,fault=ebusy"))
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("camrec: cannot create"), "\(result.stderr)")
        #expect(result.stderr.contains(mentions), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    /// OUTPUT's extension picks the format; any other extension is a usage error that says
    /// which ones work.
    @Test(arguments: ["/tmp/camrec-never.txt", "/tmp/camrec-never", "/tmp/camrec-never-%04d.gif"])
    func unknownExtensionSaysWhichWork(_ output: String) throws {
        let result = try CamrecBinary.run(["still", "--device", "test", "--count", "2", output])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(".jpg, .jpeg or .png"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    /// On a terminal, `s` takes a still and `q` stops the recording (finalised).
    ///
    /// Each key is typed once camrec shows it is ready for it: `s` once the progress line
    /// (frames are flowing, keys are read) is on the terminal, `q` once the still exists.
    /// Without a duration limit, only `q` can end the recording with exit 0.
    @Test func keysOnATerminalTakeStillsAndStop() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let still = folder.path("keys-still-0001.jpg")
        let script = """
            import os, pty, sys, time, select
            still, argv = sys.argv[1], sys.argv[2:]
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(argv[0], argv)
            shown = b""
            def pump_until(condition, seconds, what):
                # Reads the terminal until condition() holds; False at EOF (camrec exited).
                global shown
                end = time.monotonic() + seconds
                while not condition():
                    if time.monotonic() > end:
                        sys.exit("timed out waiting for " + what)
                    ready, _, _ = select.select([fd], [], [], 0.05)
                    if ready:
                        try: data = os.read(fd, 65536)
                        except OSError: return False
                        if not data: return False
                        shown += data
                return True
            if not pump_until(lambda: "●".encode() in shown and b" fps" in shown, 60, "the progress line"):
                sys.exit("camrec ended before showing progress: " + shown.decode(errors="replace"))
            os.write(fd, b"s")
            if not pump_until(lambda: os.path.exists(still), 60, "the still"):
                sys.exit("camrec ended before the still: " + shown.decode(errors="replace"))
            os.write(fd, b"q")
            pump_until(lambda: False, 60, "camrec to exit after q")
            _, status = os.waitpid(pid, 0)
            sys.exit(os.waitstatus_to_exitcode(status))
            """
        let output = folder.path("keys.mp4")
        let result = try ChildProcess.run("python3", ["-c", script, still, CamrecBinary.url.path, "--device", "test", "--size", "320x240",
                                                      "--max-duration", "none", output], timeout: 200)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: still))
        let probe = try MediaProbe.probe(output)
        #expect(probe.frames > 0, "stopped by q: \(probe.frames) frames")
        #expect(!(try MediaProbe.topLevelBoxes(output)).contains("moof"), "stopped by q: finalised")
    }

    func meanBrightness(_ path: String) throws -> Double {
        let result = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-vf", "format=gray,scale=64:48", "-f", "rawvideo", "-"])
        guard !result.stdout.isEmpty else { return 0 }
        return Double(result.stdout.reduce(0) { $0 + Int($1) }) / Double(result.stdout.count)
    }
}

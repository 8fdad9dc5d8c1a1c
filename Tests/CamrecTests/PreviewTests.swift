import Foundation
import Testing

/// `--preview`: the live window under a virtual X display (Xvfb), checked from outside:
/// screenshots of the screen must show the emulated camera's frames (their frame stamps,
/// read back, rising), and the movie must keep every frame (ffprobe counts them).
/// Every wait is for a condition (a JSON line, a stamp on the screen, camrec's exit).
@Suite("Live view: --preview", .serialized)
struct PreviewTests {
    static let size = (width: 640, height: 480)

    /// The emulated camera at 640x480@30 in `format`; a frame due while camrec holds every
    /// buffer waits instead of being lost, so frame counts are exact on a loaded machine.
    static func camera(_ format: String, display: TestDisplay? = nil, base: [String: String] = ProcessInfo.processInfo.environment) throws -> [String: String] {
        var env = try VirtualCameraEnvironment.shared()
            .environment(spec: "/dev/video0,formats=\(format),sizes=640x480@30,overrun=wait", base: base)
        if let display { env = display.environment(env) }
        return env
    }

    /// This process's environment without any display.
    static var noDisplay: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = nil
        env["WAYLAND_DISPLAY"] = nil
        return env
    }

    /// Waits until the screen shows a camera frame whose stamp is above `after`; returns it.
    static func frameOnScreen(_ display: TestDisplay, cameraWidth: Int = size.width, after: UInt32? = nil,
                              while run: RunningCamrec) -> UInt32? {
        var seen: UInt32?
        _ = Wait.until(timeout: 60) {
            guard run.process.isRunning else { return true }
            if let stamp = display.cameraFrameShown(cameraWidth: cameraWidth), stamp > (after ?? 0) || (after == nil) {
                seen = stamp
                return true
            }
            return false
        }
        return seen
    }

    static func result(_ run: RunningCamrec) -> [String: Any]? { run.lines(type: "result").last }

    @Test("the window shows the camera's live picture and the movie keeps every frame",
          arguments: [("yuyv", [String]()), ("mjpeg", []), ("h264", ["--codec", "copy"])])
    func windowShowsTheCamera(_ format: String, _ options: [String]) throws {
        let display = try TestDisplay()
        defer { display.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("preview.mp4")
        // Stopped by a signal once two frames were seen on the screen, not at a set length:
        // on a loaded machine the screenshots can take longer than a short recording.
        let run = try CamrecBinary.start(["--size", "640x480", "--fps", "30", "--max-duration", "none", "--preview", "--json"]
                                         + options + [movie], environment: try Self.camera(format, display: display))
        defer { run.signal(SIGKILL) }
        try #require(run.waitForLine(type: "started"), "\(run.stderrText)")
        // The started line's pipeline shows the window's branch.
        let pipeline = run.lines(type: "started").first?["pipeline"] as? String ?? ""
        #expect(pipeline.contains("queue name=previewqueue leaky=downstream"), "\(pipeline)")
        let first = try #require(Self.frameOnScreen(display, while: run), "no camera frame on the screen: \(run.stderrText)")
        // A later screenshot shows a later frame: the window is live, not one still picture.
        let later = Self.frameOnScreen(display, after: first, while: run)
        #expect(later != nil, "the window kept showing frame \(first)")
        run.signal(SIGINT)
        #expect(run.wait() == 0, "\(run.stderrText)")
        #expect(run.stderrText.contains("camrec: preview: a window (ximagesink)"), "\(run.stderrText)")
        try Self.expectEveryFrameKept(movie, run: run)
    }

    /// The movie holds every frame the result counts, and none was dropped on the way.
    static func expectEveryFrameKept(_ movie: String, run: RunningCamrec) throws {
        let result = try #require(Self.result(run), "\(run.stderrText)")
        #expect(result["reason"] as? String == "signal", "\(result)")
        #expect(result["dropped_frames"] as? Int == 0, "\(result)")
        let frames = (result["files"] as? [[String: Any]] ?? []).first { $0["kind"] as? String == "movie" }?["frames"] as? Int
        let probed = try MediaProbe.probe(movie).frames
        #expect(frames != nil && probed == frames && probed > 0, "ffprobe: \(probed) frames; \(result)")
    }

    @Test("a stop signal while the window shows finalises the movie (the window's threads never take it)")
    func stopSignalFinalises() throws {
        let display = try TestDisplay()
        defer { display.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("signal.mp4")
        let run = try CamrecBinary.start(["--size", "640x480", "--fps", "30", "--max-duration", "none", "--preview", "--json", movie],
                                         environment: try Self.camera("yuyv", display: display))
        defer { run.signal(SIGKILL) }
        try #require(Self.frameOnScreen(display, while: run) != nil, "no window: \(run.stderrText)")
        run.signal(SIGUSR1)
        try #require(run.waitForLine(type: "still"), "\(run.stderrText)")
        run.signal(SIGINT)
        #expect(run.wait() == 0, "\(run.stderrText)")
        let result = try #require(Self.result(run), "\(run.stderrText)")
        #expect(result["reason"] as? String == "signal")
        let frames = (result["files"] as? [[String: Any]] ?? []).first { $0["kind"] as? String == "movie" }?["frames"] as? Int
        let probed = try MediaProbe.probe(movie).frames
        #expect(frames != nil && probed == frames, "\(result)")
    }

    @Test("in the window, s takes a still and q stops and finalises the recording")
    func keysInTheWindow() throws {
        let display = try TestDisplay()
        defer { display.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("keys.mp4")
        let run = try CamrecBinary.start(["--size", "640x480", "--fps", "30", "--max-duration", "none", "--preview", "--json", movie],
                                         environment: try Self.camera("yuyv", display: display))
        defer { run.signal(SIGKILL) }
        try #require(Self.frameOnScreen(display, while: run) != nil, "no window: \(run.stderrText)")
        #expect(try display.press("s") == 1)
        try #require(run.waitForLine(type: "still"), "\(run.stderrText)")
        #expect(try display.press("q") == 1)
        #expect(run.wait() == 0, "\(run.stderrText)")
        let result = try #require(Self.result(run))
        #expect(result["reason"] as? String == "control")
        let frames = (result["files"] as? [[String: Any]] ?? []).first { $0["kind"] as? String == "movie" }?["frames"] as? Int
        let probed = try MediaProbe.probe(movie).frames
        #expect(frames != nil && probed == frames, "\(result)")
    }

    @Test("a display too slow for the camera costs the movie no frame")
    func slowDisplayNeverCostsTheMovieAFrame() throws {
        let display = try TestDisplay()
        defer { display.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("slow.mp4")
        // Each frame takes the window 0.3 s: it can show about 3 of the camera's 30 a second.
        var env = try Self.camera("yuyv", display: display)
        env["CAMREC_PREVIEW_SINK"] = "identity sleep-time=300000 ! ximagesink"
        let socket = folder.path("control")
        let run = try CamrecBinary.start(["--size", "640x480", "--fps", "30", "--max-duration", "none", "--preview",
                                          "--control", socket, "--json", movie], environment: env)
        defer { run.signal(SIGKILL) }
        let shown = Self.frameOnScreen(display, while: run)
        #expect(shown != nil, "no camera frame on the screen: \(run.stderrText)")
        // 90 frames into the movie while the window shows about one in ten.
        try #require(RecordingWait.frames(90, socket: socket), "\(run.stderrText)")
        run.signal(SIGINT)
        #expect(run.wait() == 0, "\(run.stderrText)")
        try Self.expectEveryFrameKept(movie, run: run)
    }

    @Test("closing the window leaves the recording running, to its limit")
    func closingTheWindowDoesNotStopTheRecording() throws {
        let display = try TestDisplay()
        defer { display.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("closed.mp4")
        let run = try CamrecBinary.start(["--size", "640x480", "--fps", "30", "--max-duration", "4s", "--preview", "--json", movie],
                                         environment: try Self.camera("yuyv", display: display))
        defer { run.signal(SIGKILL) }
        try #require(Self.frameOnScreen(display, while: run) != nil, "no window: \(run.stderrText)")
        #expect(try display.closeWindows() == 1)
        #expect(run.waitUntil { lines in
            lines.contains { ($0["message"] as? String)?.hasPrefix("the preview window was closed: the recording goes on") == true }
        }, "no warning about the closed window: \(run.stderrText)")
        #expect(run.wait() == 0, "\(run.stderrText)")
        #expect(Self.result(run)?["reason"] as? String == "max-duration")
        #expect(try MediaProbe.probe(movie).frames == 120)
    }

    @Test("with --preview-stops, closing the window stops and finalises the recording")
    func closingTheWindowStopsWithPreviewStops() throws {
        let display = try TestDisplay()
        defer { display.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("stopped.mkv")
        let run = try CamrecBinary.start(["--size", "640x480", "--fps", "30", "--max-duration", "none", "--preview", "--preview-stops",
                                          "--json", movie], environment: try Self.camera("yuyv", display: display))
        defer { run.signal(SIGKILL) }
        try #require(Self.frameOnScreen(display, while: run) != nil, "no window: \(run.stderrText)")
        #expect(try display.closeWindows() == 1)
        #expect(run.wait() == 0, "\(run.stderrText)")
        let result = try #require(Self.result(run), "\(run.stderrText)")
        #expect(result["reason"] as? String == "control")
        let files = result["files"] as? [[String: Any]] ?? []
        let frames = files.first?["frames"] as? Int ?? 0
        #expect(frames > 0)
        #expect(try MediaProbe.probe(movie).frames == frames)
        #expect(try MediaProbe.decodeErrors(movie).isEmpty)
    }

    @Test("without a display, --preview stops with one line before the camera is opened (exit 64)")
    func noDisplayIsAUsageErrorBeforeTheCamera() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // /dev/video5 does not exist: had camrec looked for the camera first, it would say so (exit 66).
        let result = try CamrecBinary.run(["--device", "/dev/video5", "--preview", "--max-duration", "1s", folder.path("none.mp4")],
                                          environment: try Self.camera("yuyv", base: Self.noDisplay))
        #expect(result.status == 64, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.contains("--preview needs a display, and DISPLAY and WAYLAND_DISPLAY are unset") == true, "\(result.stderr)")
        #expect(lines.first?.contains("--preview=auto") == true)
        #expect(folder.contents.isEmpty, "\(folder.contents)")
    }

    @Test("without a display, --preview=auto warns and records without a window")
    func autoWithoutDisplayRecords() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("auto.mp4")
        let result = try CamrecBinary.run(["--size", "640x480", "--fps", "30", "--max-duration", "1s", "--preview=auto", "--json", movie],
                                          environment: try Self.camera("yuyv", base: Self.noDisplay))
        #expect(result.status == 0, "\(result.stderr)")
        let lines = JSONLines.parse(result)
        let warning = lines.first { $0["type"] as? String == "warning" }?["message"] as? String ?? ""
        #expect(warning.contains("--preview=auto: no preview window (DISPLAY and WAYLAND_DISPLAY are unset)"), "\(lines)")
        // The warning comes before the camera is opened, so before `started`.
        #expect(lines.first?["type"] as? String == "warning", "\(lines)")
        #expect(try MediaProbe.probe(movie).frames == 30)
    }

    @Test("a display that cannot be opened is a usage error naming the sinks tried")
    func unreachableDisplayIsAUsageError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var env = try Self.camera("yuyv", base: Self.noDisplay)
        env["DISPLAY"] = ":9876"
        let result = try CamrecBinary.run(["--preview", "--max-duration", "1s", folder.path("none.mp4")], environment: env)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--preview needs a window, and no window can be opened on DISPLAY=:9876 (xvimagesink:"), "\(result.stderr)")
        #expect(result.stderr.contains("ximagesink:"), "\(result.stderr)")
    }

    @Test("--print-pipeline shows the window's branch, which drops frames")
    func printPipelineShowsTheBranch() throws {
        let with = try CamrecBinary.run(["--device", "test", "--preview", "--print-pipeline", "out.mp4"], environment: Self.noDisplay)
        #expect(with.status == 0, "\(with.stderr)")
        #expect(with.stdoutText.contains(
            "t. ! queue name=previewqueue leaky=downstream max-size-buffers=1 max-size-bytes=0 max-size-time=0 ! videoconvert ! textoverlay"),
            "\(with.stdoutText)")
        #expect(with.stdoutText.contains("autovideosink sync=false"))
        let without = try CamrecBinary.run(["--device", "test", "--print-pipeline", "out.mp4"], environment: Self.noDisplay)
        #expect(!without.stdoutText.contains("preview"), "\(without.stdoutText)")
    }

    @Test("--preview-stops needs --preview; --preview takes only =auto", arguments: [
        (["--preview-stops"], "--preview-stops needs --preview"),
        (["--preview=yes"], "--preview=yes: unknown value"),
    ])
    func badOptions(_ options: [String], _ message: String) throws {
        let result = try CamrecBinary.run(["--device", "test"] + options + ["out.mp4"], environment: Self.noDisplay)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}

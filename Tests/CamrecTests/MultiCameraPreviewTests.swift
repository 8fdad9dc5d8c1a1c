import Foundation
import Testing

/// Issue 31 item 7: `--preview` with several cameras in movies of their own: a window per
/// camera (the natural reading of "show me what I record" with two movies), the keys s, c
/// and q working in each, closing one leaving the recording going (or, with
/// `--preview-stops`, stopping every camera), and `--preview=auto` without a display
/// recording every camera without a window, as for one camera. Under Xvfb, checked from
/// outside: the windows on the display (the X client that closes them counts them), a
/// camera's frame stamp read back from a screenshot, and the movies with ffprobe.
@Suite(.serialized) struct MultiCameraPreviewTests {
    static let devices = ["/dev/video0", "/dev/video1"]

    static func environment(display: TestDisplay?, base: [String: String] = ProcessInfo.processInfo.environment) throws -> [String: String] {
        var environment = try VirtualCameraEnvironment.shared().environment(
            spec: "/dev/video0,formats=yuyv,sizes=320x240@30,overrun=wait;/dev/video1,formats=yuyv,sizes=320x240@30,overrun=wait,late=300ms",
            base: base)
        environment["CAMREC_DEVICE_PATHS"] = nil
        environment["SWIFT_BACKTRACE"] = "enable=no"
        if let display { environment = display.environment(environment) }
        return environment
    }

    static var arguments: [String] { devices.flatMap { ["--device", $0] } }

    /// Each camera's movie holds every frame its result entry counts, none dropped.
    static func expectEveryFrameKept(_ folder: TemporaryFolder, _ ext: String, result: [String: Any]) throws {
        #expect(result["dropped_frames"] as? Int == 0, "\(result)")
        let movies = (result["files"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "movie" }
        #expect(movies.compactMap { $0["device"] as? String } == devices, "\(result)")
        for (index, entry) in movies.enumerated() {
            let movie = folder.path("m-\(index + 1).\(ext)")
            #expect(entry["path"] as? String == movie)
            let probed = try MediaProbe.probe(movie).frames
            #expect(probed > 0 && probed == entry["frames"] as? Int, "\(movie): ffprobe \(probed), \(entry)")
            #expect(try MediaProbe.decodeErrors(movie).isEmpty)
        }
    }

    @Test("a window per camera, live; the keys work in each; closing them leaves both movies recording")
    func aWindowPerCamera() throws {
        let display = try TestDisplay()
        defer { display.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.start(Self.arguments + ["--max-duration", "none", "--preview", "--json", folder.path("m.mp4")],
                                         environment: try Self.environment(display: display))
        defer { run.signal(SIGKILL) }
        try #require(run.waitForLine(type: "started"), "\(run.stderrText)")
        // Each camera's pipeline has its window's branch.
        let pipelines = (run.lines(type: "started").first?["cameras"] as? [[String: Any]])?.count
        #expect(pipelines == 2)
        // A camera's live picture on the screen: its frame stamp, and a later one later.
        let first = try #require(PreviewTests.frameOnScreen(display, cameraWidth: 320, while: run),
                                 "no camera frame on the screen: \(run.stderrText)")
        #expect(PreviewTests.frameOnScreen(display, cameraWidth: 320, after: first, while: run) != nil,
                "the window kept showing frame \(first)")
        // s in each of the two windows (both open: one camera's frame on the screen says
        // nothing of the other's window): each press takes a still from every camera.
        try #require(Wait.until(timeout: 60) { (try? display.windowCount()) == 2 }, "\(run.stderrText)")
        #expect(try display.press("s") == 2, "camrec's windows on the display")
        #expect(run.waitForLines(type: "still", count: 4), "\(run.jsonLines)")
        let stills = run.lines(type: "still")
        #expect(stills.filter { $0["device"] as? String == Self.devices[0] }.count == 2, "\(stills)")
        #expect(stills.filter { $0["device"] as? String == Self.devices[1] }.count == 2, "\(stills)")
        // Closing both windows: each camera's warning, and the movies go on.
        #expect(try display.closeWindows() == 2)
        for (index, device) in Self.devices.enumerated() {
            #expect(run.waitUntil { lines in
                lines.contains { ($0["message"] as? String)?.hasPrefix("camera \(index + 1) (\(device)): the preview window was closed: the recording goes on") == true }
            }, "no warning about camera \(index + 1)'s window: \(run.jsonLines)")
        }
        run.signal(SIGINT)
        #expect(run.wait() == 0, "\(run.stderrText)")
        #expect(run.stderrText.contains("camrec: preview: a window"), "\(run.stderrText)")
        let result = try #require(PreviewTests.result(run), "\(run.stderrText)")
        #expect(result["reason"] as? String == "signal", "\(result)")
        try Self.expectEveryFrameKept(folder, "mp4", result: result)
    }

    @Test("with --preview-stops, closing the windows stops and finalises every camera's movie")
    func previewStopsStopsEveryCamera() throws {
        let display = try TestDisplay()
        defer { display.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.start(Self.arguments + ["--max-duration", "none", "--preview", "--preview-stops", "--json",
                                                           folder.path("m.mkv")],
                                         environment: try Self.environment(display: display))
        defer { run.signal(SIGKILL) }
        try #require(PreviewTests.frameOnScreen(display, cameraWidth: 320, while: run) != nil, "no window: \(run.stderrText)")
        // Both windows open (one camera's frame on the screen says nothing of the other's).
        try #require(Wait.until(timeout: 60) { (try? display.windowCount()) == 2 }, "\(run.stderrText)")
        #expect(try display.closeWindows() == 2)
        #expect(run.wait() == 0, "\(run.stderrText)")
        let result = try #require(PreviewTests.result(run), "\(run.stderrText)")
        #expect(result["reason"] as? String == "control", "\(result)")
        try Self.expectEveryFrameKept(folder, "mkv", result: result)
    }

    @Test("without a display, --preview=auto warns once and records every camera without a window")
    func autoWithoutDisplayRecords() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.run(Self.arguments + ["--max-duration", "1s", "--preview=auto", "--json", folder.path("m.mp4")],
                                       environment: try Self.environment(display: nil, base: PreviewTests.noDisplay), timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = JSONLines.parse(run)
        let warnings = lines.filter { ($0["message"] as? String)?.contains("--preview=auto: no preview window (DISPLAY and WAYLAND_DISPLAY are unset)") == true }
        #expect(warnings.count == 1, "\(lines)")
        #expect(lines.first?["type"] as? String == "warning", "\(lines)")
        for index in 1...2 { #expect(try MediaProbe.probe(folder.path("m-\(index).mp4")).frames == 30) }
    }

    @Test("without a display, --preview is one usage error and nothing is recorded")
    func noDisplayIsAUsageError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.run(Self.arguments + ["--max-duration", "1s", "--preview", folder.path("m.mp4")],
                                       environment: try Self.environment(display: nil, base: PreviewTests.noDisplay))
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--preview needs a display, and DISPLAY and WAYLAND_DISPLAY are unset"), "\(run.stderr)")
        #expect(folder.contents.isEmpty, "\(folder.contents)")
    }
}

import Foundation
import Testing

/// `camrec preview`: the camera in a window under a virtual X display, nothing recorded.
/// Screenshots must show the emulated camera's frames (stamps read back, rising); stills
/// taken on SIGUSR1 and the key s must be camera frames; each wait is for a condition.
@Suite("camrec preview", .serialized)
struct PreviewCommandTests {
    static let arguments = ["preview", "--size", "640x480", "--fps", "30"]

    @Test("shows the camera's live picture; SIGUSR1 takes a still; SIGINT ends it with nothing recorded",
          arguments: ["yuyv", "mjpeg"])
    func showsTheCameraAndTakesStills(_ format: String) throws {
        let display = try TestDisplay()
        defer { display.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.start(Self.arguments + ["--stills", folder.path("shot-%02d.jpg"), "--json"],
                                         environment: try PreviewTests.camera(format, display: display))
        defer { run.signal(SIGKILL) }
        let first = try #require(PreviewTests.frameOnScreen(display, while: run), "no camera frame on the screen: \(run.stderrText)")
        #expect(PreviewTests.frameOnScreen(display, after: first, while: run) != nil, "the window kept showing frame \(first)")
        run.signal(SIGUSR1)
        try #require(run.waitForLine(type: "still"), "\(run.stderrText)")
        run.signal(SIGINT)
        #expect(run.wait() == 0, "\(run.stderrText)")
        #expect(run.stderrText.contains("camrec: preview of /dev/video0 at 640x480 30 fps in a window (ximagesink)"), "\(run.stderrText)")
        // Nothing but the still was written.
        #expect(folder.contents == ["shot-01.jpg"], "\(folder.contents)")
        #expect(try FrameStampReader.sequence(inImage: URL(fileURLWithPath: folder.path("shot-01.jpg"))) != nil,
                "the still is not a camera frame")
        let result = try #require(run.lines(type: "result").last)
        #expect(result["reason"] as? String == "signal")
        let files = result["files"] as? [[String: Any]] ?? []
        #expect(files.count == 1 && files.first?["kind"] as? String == "still", "\(files)")
    }

    @Test("closing the window ends it (exit 0)")
    func closingTheWindowEndsIt() throws {
        let display = try TestDisplay()
        defer { display.stop() }
        let run = try CamrecBinary.start(Self.arguments + ["--json"], environment: try PreviewTests.camera("yuyv", display: display))
        defer { run.signal(SIGKILL) }
        try #require(PreviewTests.frameOnScreen(display, while: run) != nil, "no window: \(run.stderrText)")
        #expect(try display.closeWindows() == 1)
        #expect(run.wait() == 0, "\(run.stderrText)")
        let result = try #require(run.lines(type: "result").last)
        #expect(result["reason"] as? String == "control")
        #expect(result["message"] as? String == "the preview window was closed")
    }

    @Test("in the window, s takes a still and q ends it")
    func keysInTheWindow() throws {
        let display = try TestDisplay()
        defer { display.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.start(Self.arguments + ["--stills", folder.path("key-%d.jpg"), "--json"],
                                         environment: try PreviewTests.camera("mjpeg", display: display))
        defer { run.signal(SIGKILL) }
        try #require(PreviewTests.frameOnScreen(display, while: run) != nil, "no window: \(run.stderrText)")
        #expect(try display.press("s") == 1)
        try #require(run.waitForLine(type: "still"), "\(run.stderrText)")
        #expect(run.lines(type: "still").first?["trigger"] as? String == "key")
        #expect(try display.press("q") == 1)
        #expect(run.wait() == 0, "\(run.stderrText)")
        #expect(run.lines(type: "result").last?["reason"] as? String == "control")
        #expect(folder.contents == ["key-1.jpg"], "\(folder.contents)")
    }

    @Test("on a terminal, s takes a still and q ends it")
    func keysOnATerminal() throws {
        let display = try TestDisplay()
        defer { display.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let typescript = folder.path("typescript")
        let keys = Pipe()
        try FileManager.default.createDirectory(atPath: folder.path("stills"), withIntermediateDirectories: true)
        let terminal = try PseudoTerminal.start(camrec: Self.arguments + ["--stills", folder.path("stills")], typescript: typescript,
                                                input: keys, environment: try PreviewTests.camera("yuyv", display: display))
        defer { if terminal.isRunning { kill(terminal.processIdentifier, SIGKILL) } }
        let shown = { (try? String(contentsOfFile: typescript, encoding: .utf8)) ?? "" }
        try #require(Wait.until(timeout: 60) { shown().contains("s takes a still") }, "\(shown())")
        // A still needs a frame: press s once the window shows the camera (a loaded machine
        // may print the hint long before the first frame).
        try #require(Wait.until(timeout: 60) {
            !terminal.isRunning || display.cameraFrameShown(cameraWidth: PreviewTests.size.width) != nil
        }, "no window: \(shown())")
        keys.fileHandleForWriting.write(Data("s".utf8))
        try #require(Wait.until(timeout: 30) {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path("stills"))) ?? []).contains("preview-still-0001.jpg")
        }, "\(shown())")
        keys.fileHandleForWriting.write(Data("q".utf8))
        try #require(Wait.until(timeout: 60) { !terminal.isRunning }, "q did not end the preview: \(shown())")
        #expect(terminal.terminationStatus == 0, "\(shown())")
    }

    @Test("without a display it stops with one line before the camera is opened (exit 64)")
    func noDisplay() throws {
        let result = try CamrecBinary.run(["preview", "--device", "/dev/video5"],
                                          environment: try PreviewTests.camera("yuyv", base: PreviewTests.noDisplay))
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr == "camrec: camrec preview needs a display, and DISPLAY and WAYLAND_DISPLAY are unset: run it in a desktop session (or ssh -X)\n",
                "\(result.stderr)")
    }

    @Test("has its own help, and is in camrec's")
    func help() throws {
        let own = try CamrecBinary.run(["preview", "--help"])
        #expect(own.status == 0)
        #expect(own.stdoutText.contains("camrec preview [options]") && own.stdoutText.contains("--stills PATTERN"), "\(own.stdoutText)")
        let camrec = try CamrecBinary.run(["--help"])
        #expect(camrec.stdoutText.contains("camrec preview [options]"))
    }
}

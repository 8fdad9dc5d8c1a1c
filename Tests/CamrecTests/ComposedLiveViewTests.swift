import Foundation
import Testing

/// Issue 31 item 7: `--preview` and `--serve` with `--layout`: the window and the live
/// stream show the canvas, checked from outside (a screenshot's frame stamp of the first
/// camera's cell; ffprobe and ffmpeg reading the RTSP stream).
@Suite("Live view of a canvas", .serialized)
struct ComposedLiveViewTests {
    static let devices = CanvasCameras.devices

    static func cameras() throws -> [String: String] { try CanvasCameras.environment(extra: ",overrun=wait") }

    static let layout = ["--layout", "side-by-side", "--canvas", "640x240"]

    @Test("--preview with --layout: the window shows the canvas live, and the movie keeps every frame")
    func previewShowsTheCanvas() throws {
        let display = try TestDisplay()
        defer { display.stop() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("both.mp4")
        let run = try CamrecBinary.start(Self.devices.flatMap { ["--device", $0] } + Self.layout
                                         + ["--max-duration", "none", "--preview", "--json", movie],
                                         environment: display.environment(try Self.cameras()))
        defer { run.signal(SIGKILL) }
        try #require(run.waitForLine(type: "started"), "\(run.stderrText)")
        let pipeline = run.lines(type: "started").first?["pipeline"] as? String ?? ""
        #expect(pipeline.contains("previewqueue"), "\(pipeline)")
        // The first camera's cell is the canvas's top-left 320x240, at its own scale: its
        // frame stamp reads back from the screen, and a later screenshot shows a later frame.
        let first = try #require(PreviewTests.frameOnScreen(display, cameraWidth: 320, while: run),
                                 "no camera frame on the screen: \(run.stderrText)")
        #expect(PreviewTests.frameOnScreen(display, cameraWidth: 320, after: first, while: run) != nil,
                "the window kept showing frame \(first)")
        run.signal(SIGINT)
        #expect(run.wait() == 0, "\(run.stderrText)")
        #expect(run.stderrText.contains("camrec: preview: a window"), "\(run.stderrText)")
        try PreviewTests.expectEveryFrameKept(movie, run: run)
        let probe = try MediaProbe.probe(movie)
        #expect(probe.width == 640 && probe.height == 240, "\(probe.width)x\(probe.height)")
    }

    @Test("--serve with --layout: the canvas is served over RTSP while it is recorded")
    func serveStreamsTheCanvas() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("control")
        let movie = folder.path("both.mkv")
        let run = try CamrecBinary.start(Self.devices.flatMap { ["--device", $0] } + Self.layout
                                         + ["--max-duration", "none", "--serve", "0", "--control", socket, "--json", movie],
                                         environment: try Self.cameras())
        defer { if run.process.isRunning { run.signal(SIGKILL) } }
        let url = try LiveStreamTests.url(run)
        let probed = try LiveStreamTests.probe(url)
        #expect(probed.status == 0 && probed.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,640,240",
                "\(probed.stdoutText) \(probed.stderr)")
        let read = try LiveStreamTests.read(url, frames: 30)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText.suffix(1000))")
        let probe = try MediaProbe.probe(movie)
        #expect(probe.width == 640 && probe.height == 240 && probe.frames > 30, "\(probe.width)x\(probe.height), \(probe.frames)")
        #expect(try MediaProbe.decodeErrors(movie).isEmpty)
    }
}

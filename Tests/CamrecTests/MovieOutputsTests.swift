import Foundation
import Testing

/// A movie as a source through every output a camera's recording has: the preview window
/// (on a private X display), the RTSP stream, segments and stills. The movie is a
/// recording of the emulated camera, so its frames carry the camera's frame numbers, read
/// back from the screen and the stills.
@Suite("A movie through every output", .serialized)
struct MovieOutputsTests {
    @Test("--device file: with --loop, --preview, --serve, --segment and --still-every: each output shows the movie")
    func everyOutput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let camera = try VirtualCameraEnvironment.shared().environment(spec: ReactTests.spec)
        let video = try ReactTests.numberedVideo(folder, environment: camera)
        let display = try TestDisplay()
        defer { display.stop() }
        let socket = folder.path("control")
        let run = try CamrecBinary.start(["--device", "file:" + video, "--loop", "--preview", "--serve", "0", "--segment", "1",
                                          "--still-every", "1", "--max-duration", "none", "--control", socket, "--json",
                                          folder.path("replay.mkv")], environment: display.environment(ProcessInfo.processInfo.environment))
        defer { run.signal(SIGKILL) }
        let url = try LiveStreamTests.url(run)
        // The window shows the movie's frames: a frame number the camera stamped into it.
        #expect(PreviewTests.frameOnScreen(display, cameraWidth: 640, while: run) != nil, "nothing on the screen: \(run.stderrText)")
        // The stream is the movie's, at its size.
        let probe = try LiveStreamTests.probe(url)
        #expect(probe.stdoutText.contains("h264,640,480"), "\(probe.stdoutText) \(probe.stderr)")
        #expect(run.waitForLines(type: "segment", count: 2) && run.waitForLines(type: "still", count: 2), "\(run.stderrText)")
        run.signal(SIGINT)
        #expect(run.wait() == 0, "\(run.stderrText)")
        // Each whole segment is 1 s of the movie; each still is one of its frames.
        for segment in run.lines(type: "segment").prefix(2) {
            let path = try #require(segment["path"] as? String)
            #expect(try MovieSourceTests.frameCount(path) == 30, "\(segment)")
        }
        for still in run.lines(type: "still").prefix(2) {
            let path = try #require(still["path"] as? String)
            #expect(try FrameStampReader.sequence(inImage: URL(fileURLWithPath: path)) != nil, "\(path) is not a frame of the movie")
        }
    }
}

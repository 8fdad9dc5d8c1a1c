import Foundation
import Testing

/// Issue 31 item 7: `--serve` with several cameras in movies of their own: one RTSP server,
/// one mount per camera (`/camera1`, `/camera2`), each serving that camera's own encoded
/// stream while its movie is recorded. The two emulated cameras deliver different sizes,
/// so ffprobe reading each URL tells which camera it serves.
@Suite(.serialized) struct MultiCameraServeTests {
    static let devices = ["/dev/video0", "/dev/video1"]

    static func environment() throws -> [String: String] {
        var environment = try VirtualCameraEnvironment.shared().environment(
            spec: "/dev/video0,formats=yuyv,sizes=320x240@30,overrun=wait;/dev/video1,formats=yuyv,sizes=640x480@30,overrun=wait,late=300ms")
        environment["CAMREC_DEVICE_PATHS"] = nil
        environment["SWIFT_BACKTRACE"] = "enable=no"
        return environment
    }

    @Test("--serve with two cameras: each camera's stream at its own path of one server, while both movies are recorded")
    func eachCameraIsServedAtItsOwnPath() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("control")
        let run = try CamrecBinary.start(Self.devices.flatMap { ["--device", $0] }
                                         + ["--max-duration", "none", "--serve", "0", "--control", socket, "--json", folder.path("m.mkv")],
                                         environment: try Self.environment())
        defer { if run.process.isRunning { run.signal(SIGKILL) } }
        try #require(run.waitForLine(type: "started"), "\(run.stderrText)")
        let started = try #require(run.lines(type: "started").first)
        let cameras = try #require(started["cameras"] as? [[String: Any]], "\(started)")
        let urls = cameras.compactMap { $0["serve_url"] as? String }
        try #require(urls.count == 2, "\(cameras)")
        #expect(urls[0].hasPrefix("rtsp://127.0.0.1:") && urls[0].hasSuffix("/camera1"), "\(urls)")
        #expect(urls[1].hasSuffix("/camera2"), "\(urls)")
        // One server: both on the same port; the line's own serve_url is the first camera's.
        #expect(urls[0].dropLast("/camera1".count) == urls[1].dropLast("/camera2".count), "\(urls)")
        #expect(started["serve_url"] as? String == urls[0])
        #expect((RecordingWait.status(socket: socket)?["cameras"] as? [[String: Any]])?.compactMap { $0["serve_url"] as? String } == urls)

        // Each path serves its own camera: ffprobe reads its size; ffmpeg decodes 30 frames.
        for (url, size) in zip(urls, ["320,240", "640,480"]) {
            let probed = try LiveStreamTests.probe(url)
            #expect(probed.status == 0 && probed.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "h264," + size,
                    "\(url): \(probed.stdoutText) \(probed.stderr)")
            let read = try LiveStreamTests.read(url, frames: 30)
            #expect(read.status == 0, "\(url): \(read.stderr)")
        }
        // /live is not served: a run of several cameras has a path per camera.
        let live = try LiveStreamTests.probe(String(urls[0].dropLast("/camera1".count)) + "/live")
        #expect(live.status != 0, "\(live.stdoutText)")

        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText.suffix(1000))")
        for (index, size) in [(1, (320, 240)), (2, (640, 480))] {
            let movie = folder.path("m-\(index).mkv")
            let probe = try MediaProbe.probe(movie)
            #expect(probe.width == size.0 && probe.height == size.1 && probe.frames > 30, "\(movie): \(probe)")
            #expect(try MediaProbe.decodeErrors(movie).isEmpty)
        }
    }
}

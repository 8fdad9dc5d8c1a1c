import Foundation
import Testing

/// `--reconnect` end to end against the emulated camera, which is unplugged after N frames
/// and comes back (`replug=`) at the same or another node, as the same camera.
@Suite(.serialized) struct ReconnectTests {
    func environment(_ spec: String) throws -> [String: String] {
        var environment = try VirtualCameraEnvironment.shared().environment(spec: spec)
        environment["CAMREC_DEVICE_PATHS"] = nil
        environment["SWIFT_BACKTRACE"] = "enable=no"
        return environment
    }

    static let camera = "/dev/video0,formats=yuyv,sizes=320x240@30,fault=unplug@45,byid=usb-Acme_Cam_0042-video-index0"

    @Test(arguments: ["replug=300", "replug=300@/dev/video4"])
    func aLostCameraThatComesBackGoesOnInTheNextMovie(_ replug: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["--device", "/dev/v4l/by-id/usb-Acme_Cam_0042-video-index0", "--size", "320x240",
                                           "--fps", "30", "-t", "3", "--reconnect", "--json", folder.path("r.mp4")],
                                          environment: environment(Self.camera + "," + replug))
        #expect(result.status == 0, "\(result.stderr)")
        let lines = JSONLines.parse(result)
        let types = lines.compactMap { $0["type"] as? String }.filter { $0 != "warning" }
        #expect(types == ["started", "segment", "camera-lost", "camera-back", "segment", "result"], "\(types)")
        let back = try #require(lines.first { $0["type"] as? String == "camera-back" })
        #expect((back["gap"] as? Double ?? -1) > 0)
        let expectedNode = replug.contains("@") ? "/dev/video4" : "/dev/video0"
        #expect(back["device"] as? String == expectedNode)
        #expect(folder.contents == ["r-0001.mp4", "r-0002.mp4"])
        // The limit is on video: the two movies hold 3 s between them (the gap is not
        // counted), in frames recorded plus any the camera dropped on a loaded machine
        // (frames lost just before the unplug show no gap to a later frame, and the
        // unplug itself takes one: a little slack).
        let frames = try folder.contents.map { try MediaProbe.probe(folder.path($0)).frames }
        let dropped = lines.last?["dropped_frames"] as? Int ?? -1
        #expect(frames[0] >= 30 && frames[0] <= 45, "\(frames)")
        #expect(abs(frames.reduce(0, +) + dropped - 90) <= 3, "\(frames) + \(dropped) dropped")
        for name in folder.contents { #expect(try MediaProbe.decodeErrors(folder.path(name)).isEmpty) }
        let summary = try #require(lines.last)
        #expect(summary["reason"] as? String == "max-duration")
        #expect((summary["files"] as? [[String: Any]])?.count == 2)
    }

    @Test func aCameraThatNeverComesBackEndsTheRunAfterTheTimeout() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["--device", "/dev/video0", "--size", "320x240", "-t", "none", "--reconnect",
                                           "--reconnect-timeout", "1", "--json", folder.path("n.mkv")],
                                          environment: environment(Self.camera))
        #expect(result.status == 79, "\(result.stderr)")
        let lines = JSONLines.parse(result)
        #expect(lines.contains { $0["type"] as? String == "camera-lost" })
        #expect(!lines.contains { $0["type"] as? String == "camera-back" })
        #expect(lines.last?["reason"] as? String == "camera-lost")
        #expect((lines.last?["message"] as? String)?.contains("did not come back") == true)
        #expect(folder.contents == ["n-0001.mkv"])
        #expect(try MediaProbe.probe(folder.path("n-0001.mkv")).frames >= 40)
    }

    @Test func aStopWhileWaitingEndsTheRunNormally() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("ctl")
        let run = try CamrecBinary.start(["--device", "/dev/video0", "--size", "320x240", "-t", "none", "--reconnect",
                                          "--control", socket, "--json", folder.path("w.mp4")],
                                         environment: environment(Self.camera))
        defer { if run.process.isRunning { run.signal(SIGKILL) } }
        #expect(run.waitForLine(type: "camera-lost"))
        #expect(Wait.until(timeout: 30) { RecordingWait.status(socket: socket)?["state"] as? String == "reconnecting" })
        run.signal(SIGTERM)
        #expect(run.wait() == 0, "\(run.stderrText)")
        #expect(run.jsonLines.last?["reason"] as? String == "signal")
        #expect(folder.contents.filter { $0.hasSuffix(".mp4") } == ["w-0001.mp4"])
    }

    @Test("--standby --reconnect: the run waits for the camera and goes on making clips; --max-duration counts the video before the loss")
    func standbyGoesOnAfterTheCameraComesBack() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("ctl")
        // 45 frames before the unplug, so 105 are left of the 5 s after the camera is back.
        let run = try CamrecBinary.start(["--device", "/dev/video0", "--size", "320x240", "--fps", "30", "-t", "5", "--standby",
                                          "--post-roll", "5s", "--reconnect", "--control", socket, "--json", folder.path("s.mp4")],
                                         environment: environment(Self.camera + ",replug=300"))
        defer { if run.process.isRunning { run.signal(SIGKILL) } }
        try #require(run.waitForLine(type: "camera-back"), "\(run.stderrText)")
        // The next pipeline makes clips once it has recorded a frame (its status counts its own).
        #expect(Wait.until(timeout: 30) {
            let status = RecordingWait.status(socket: socket)
            return status?["state"] as? String == "recording" && (status?["frames"] as? Int ?? 0) > 0
        })
        let reply = try CamrecBinary.run(["ctl", socket, "clip"], timeout: 30)
        #expect(reply.status == 0, "\(reply.stderr) \(String(decoding: reply.stdout, as: UTF8.self))")
        #expect(run.wait() == 0, "\(run.stderrText)")
        let lines = run.jsonLines
        let types = lines.compactMap { $0["type"] as? String }.filter { $0 != "warning" }
        #expect(types == ["started", "camera-lost", "camera-back", "clip-started", "clip", "result"], "\(types)")
        #expect(lines.last?["reason"] as? String == "max-duration")
        #expect(folder.contents.filter { !$0.hasPrefix("ctl") } == ["s-clip-0001.mp4"], "no movie, only the clip: \(folder.contents)")
        // The 5-s post-roll outlasts the run: the clip ends with the run's last frame, at
        // most the 105 frames left of the limit after the loss (the whole 5 s again would
        // have given it its 150).
        let clip = try MediaProbe.probe(folder.path("s-clip-0001.mp4"))
        #expect(clip.frames > 0 && clip.frames <= 106, "\(clip.frames) frames")
        #expect(try MediaProbe.decodeErrors(folder.path("s-clip-0001.mp4")).isEmpty)
    }

    @Test func withoutReconnectALostCameraEndsTheRunAsBefore() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["--device", "/dev/video0", "--size", "320x240", "-t", "none", "--json",
                                           folder.path("o.mp4")], environment: environment(Self.camera + ",replug=100"))
        #expect(result.status == 79, "\(result.stderr)")
        #expect(folder.contents == ["o.mp4"])
    }

    @Test func devicesShowsTheStableName() throws {
        let result = try CamrecBinary.run(["devices", "--json"], environment: environment(Self.camera))
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        let device = try #require((object?["devices"] as? [[String: Any]])?.first)
        #expect(device["stable_name"] as? String == "/dev/v4l/by-id/usb-Acme_Cam_0042-video-index0")
        let human = try CamrecBinary.run(["devices"], environment: environment(Self.camera))
        #expect(String(decoding: human.stdout, as: UTF8.self).contains("stable name /dev/v4l/by-id/usb-Acme_Cam_0042-video-index0"))
    }
}

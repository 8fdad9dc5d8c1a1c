import Foundation
import Testing

/// `--set`, `--flash` and `camrec ctl SOCKET set` against the emulated camera, checked in
/// the picture ffmpeg decodes from camrec's files.
@Suite struct CameraControlTests {
    /// A raw camera (cheap to emulate) that never loses a frame for want of a buffer.
    static let spec = "/dev/video0,formats=yuyv,sizes=640x480@30,overrun=wait"

    func camera(_ extra: String = "") throws -> [String: String] {
        try VirtualCameraEnvironment.shared().environment(spec: Self.spec + extra)
    }

    /// A photo taken with `options` (first frame, no settling); its picture means.
    func photo(_ options: [String], in folder: TemporaryFolder, name: String, extra: String = "") throws -> PictureMeans {
        let path = folder.path(name)
        let result = try CamrecBinary.run(["still", "--settle", "0", "--json"] + options + [path], environment: camera(extra))
        try #require(result.status == 0, "\(options): \(result.stderr)")
        return try PictureMeans.of(path)
    }

    @Test func controlsChangeThePicture() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let plain = try photo([], in: folder, name: "plain.jpg")
        // A manual exposure of 5 ms is a fifth of the emulated auto-exposure's 25 ms.
        let short = try photo(["--set", "exposure=5ms"], in: folder, name: "short.jpg")
        #expect(short.y < plain.y - 30, "5 ms \(short) against auto \(plain)")
        let long = try photo(["--set", "exposure=1/30"], in: folder, name: "long.jpg")
        #expect(long.y > plain.y + 5, "1/30 s \(long) against auto \(plain)")
        // A white balance set above the scene's 5000 K light shows it orange: Cr up, Cb down.
        let warm = try photo(["--set", "white-balance=6500K"], in: folder, name: "warm.jpg")
        #expect(warm.v > plain.v + 10 && warm.u < plain.u - 10, "6500K \(warm) against auto \(plain)")
        let cold = try photo(["--set", "white-balance=2800K"], in: folder, name: "cold.jpg")
        #expect(cold.u > plain.u + 10 && cold.v < plain.v - 10, "2800K \(cold) against auto \(plain)")
        // Saturation 0 and gain, comma-separated in one --set.
        let grey = try photo(["--set", "saturation=0,gain=50"], in: folder, name: "grey.jpg")
        #expect(abs(grey.u - 128) < 3 && abs(grey.v - 128) < 3, "saturation 0 \(grey)")
        #expect(grey.y > plain.y + 15, "gain 50 \(grey) against \(plain)")
        // The LED lights the scene.
        let lit = try photo(["--flash", "on"], in: folder, name: "lit.jpg")
        #expect(lit.y > plain.y + 5, "flash on \(lit) against \(plain)")
    }

    @Test func theStartedLineListsTheControlsSet() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["--max-duration", "0.5", "--json", "--set", "exposure=1/60", "--set", "zoom=200",
                                           "--flash", "on", folder.path("movie.mp4")], environment: camera())
        #expect(result.status == 0, "\(result.stderr)")
        let started = try #require(JSONLines.parse(result).first { $0["type"] as? String == "started" })
        let controls = try #require(started["controls"] as? [[String: Any]])
        // What was asked for, then exposure priority turned off to keep the frame rate.
        #expect(controls.compactMap { $0["name"] as? String } == ["exposure", "zoom", "flash", "exposure-priority"])
        #expect(controls.last?["driver_controls"] as? [String: Int] == ["exposure_dynamic_framerate": 0])
        let exposure = try #require(controls.first?["driver_controls"] as? [String: Int])
        #expect(exposure == ["auto_exposure": 1, "exposure_time_absolute": 167])
    }

    @Test(arguments: [
        (["--set", "focus-distance=3"], "no camera control named 'focus-distance'"),
        (["--set", "exposure=1/10000"], "a time from 1/3333 s to 204.7 ms"),
        (["--set", "zoom=1000"], "from 100 to 400"),
        (["--set", "power-line=55"], "off, 50, 60"),
        (["--set", "zoom"], "is not NAME=VALUE"),
        (["--flash", "blink"], "use on, off or auto"),
    ])
    func aBadNameOrValueRecordsNothing(_ options: [String], _ message: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("movie.mp4")
        let result = try CamrecBinary.run(options + ["--max-duration", "1", movie], environment: camera())
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
        let photo = try CamrecBinary.run(["still"] + options + [folder.path("photo.jpg")], environment: camera())
        #expect(photo.status == 64, "\(photo.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test func aCameraWithoutAFlashSaysSo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["--flash", "on", "--max-duration", "1", folder.path("movie.mp4")],
                                          environment: camera(",flash=none"))
        #expect(result.status == 64)
        #expect(result.stderr.contains("has no flash, torch or LED control"), "\(result.stderr)")
        let test = try CamrecBinary.run(["--device", "test", "--set", "brightness=3", "--max-duration", "1", folder.path("t.mp4")])
        #expect(test.status == 64)
        #expect(test.stderr.contains("need a camera"), "\(test.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    /// `camrec ctl SOCKET set` changes the running camera: the movie's last frames are darker
    /// than its first.
    @Test func ctlSetChangesTheRunningCamera() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("movie.mp4")
        let socket = folder.path("control")
        let run = try CamrecBinary.start(["--max-duration", "none", "--control", socket, "--json", movie],
                                         environment: camera(",trace=controls"))
        try #require(RecordingWait.frames(5, socket: socket), "\(run.stderrText)")
        let bad = try CamrecBinary.run(["ctl", socket, "set", "exposure=5s"])
        #expect(bad.status == 1 && bad.stdoutText.contains("is not a value for exposure"), "\(bad.stdoutText)")
        let reply = try CamrecBinary.run(["ctl", socket, "set", "exposure=3ms"])
        #expect(reply.status == 0, "\(reply.stdoutText)")
        #expect(reply.stdoutText.contains("\"exposure_time_absolute\":30"), "\(reply.stdoutText)")
        let setAt = RecordingWait.currentFrames(socket: socket) ?? 0
        #expect(RecordingWait.frames(setAt + 15, socket: socket), "\(run.stderrText)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")
        let frames = try MediaProbe.probe(movie).frames
        let first = try PictureMeans.of(movie, frame: 0)
        let last = try PictureMeans.of(movie, frame: frames - 1)
        #expect(last.y < first.y - 30, "first \(first), last \(last)")
        // What ctl set changed is put back at the end too, last changed first (exposure
        // priority was turned off when the recording started).
        #expect(Array(Self.writes(run.stderrText).suffix(3)) ==
                ["Exposure Time, Absolute = 250", "Auto Exposure = 3", "Exposure, Dynamic Framerate = 1"], "\(run.stderrText)")
    }

    /// The control writes the emulated camera saw (trace=controls), in order.
    static func writes(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").compactMap { line in
            line.range(of: ": set ").map { String(line[$0.upperBound...]) }
        }
    }

    /// At the end camrec puts back what it changed, last changed first; --keep-controls
    /// leaves the camera as set.
    @Test func controlsArePutBackAtTheEndUnlessKept() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["--max-duration", "0.3", "--set", "exposure=1/60,zoom=150", folder.path("a.mp4")],
                                          environment: camera(",trace=controls"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.writes(result.stderr) == [
            "Auto Exposure = 1", "Exposure Time, Absolute = 167", "Zoom, Absolute = 150", "Exposure, Dynamic Framerate = 0",
            "Exposure, Dynamic Framerate = 1", "Zoom, Absolute = 100", "Exposure Time, Absolute = 250", "Auto Exposure = 3",
        ], "\(result.stderr)")
        let kept = try CamrecBinary.run(["--max-duration", "0.3", "--set", "zoom=150", "--keep-controls", folder.path("b.mp4")],
                                        environment: camera(",trace=controls"))
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(Self.writes(kept.stderr) == ["Zoom, Absolute = 150", "Exposure, Dynamic Framerate = 0"], "\(kept.stderr)")
        // A photo leaves exposure priority alone and puts back its own settings.
        let photo = try CamrecBinary.run(["still", "--settle", "0", "--flash", "on", folder.path("p.jpg")],
                                         environment: camera(",trace=controls"))
        #expect(photo.status == 0, "\(photo.stderr)")
        #expect(Self.writes(photo.stderr) == ["LED1 Mode = 1", "LED1 Mode = 3"], "\(photo.stderr)")
    }

    /// A camera plugged in again comes back with its power-on controls: with --reconnect,
    /// camrec sets its controls again, and puts them back at the end.
    @Test func controlsAreSetAgainWhenTheCameraComesBack() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var environment = try VirtualCameraEnvironment.shared().environment(
            spec: "/dev/video0,formats=yuyv,sizes=640x480@30,overrun=wait,fault=unplug@20,replug=300,trace=controls")
        environment["CAMREC_DEVICE_PATHS"] = nil
        let result = try CamrecBinary.run(["--max-duration", "1.5", "--reconnect", "--set", "zoom=150", "--json",
                                           folder.path("movie.mp4")], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(JSONLines.parse(result).contains { $0["type"] as? String == "camera-back" }, "\(result.stdoutText)")
        #expect(Self.writes(result.stderr) == [
            "Zoom, Absolute = 150", "Exposure, Dynamic Framerate = 0",      // at the start
            "Zoom, Absolute = 150", "Exposure, Dynamic Framerate = 0",      // when it is back
            "Exposure, Dynamic Framerate = 1", "Zoom, Absolute = 100",      // at the end
        ], "\(result.stderr)")
    }

    @Test func devicesShowFriendlyNamesBesideTheDrivers() throws {
        let result = try CamrecBinary.run(["devices", "--json"], environment: camera())
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let device = try #require((document["devices"] as? [[String: Any]])?.first)
        let controls = try #require(device["controls"] as? [[String: Any]])
        let friendly = Dictionary(controls.map { ($0["key"] as? String ?? "", $0["friendly"] as? String ?? "-") },
                                  uniquingKeysWith: { a, _ in a })
        #expect(friendly["auto_exposure"] == "exposure")
        #expect(friendly["exposure_time_absolute"] == "exposure")
        #expect(friendly["exposure_dynamic_framerate"] == "exposure-priority")
        #expect(friendly["white_balance_temperature"] == "white-balance")
        #expect(friendly["led1_mode"] == "flash")
        let text = try CamrecBinary.run(["devices", "--controls"], environment: camera())
        #expect(text.stdoutText.contains("auto_exposure (exposure)"), "\(text.stdoutText)")
    }
}

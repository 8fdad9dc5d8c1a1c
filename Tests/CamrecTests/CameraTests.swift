import Foundation
import Testing

/// camrec against the emulated camera: the real v4l2src path, every camera format, and
/// every fault. ffprobe and the frame stamps the camera draws say what was recorded.
@Suite(.serialized) struct CameraTests {
    func environment(_ spec: String) throws -> [String: String] {
        var environment = try VirtualCameraEnvironment.shared().environment(spec: spec)
        environment["CAMREC_DEVICE_PATHS"] = nil
        return environment
    }

    struct FormatCase: Sendable, CustomStringConvertible {
        let formats: String
        let size: String
        let fourcc: String
        var description: String { "\(fourcc) \(size)" }
    }

    @Test(arguments: [
        FormatCase(formats: "yuyv", size: "640x480", fourcc: "YUYV"),
        FormatCase(formats: "mjpeg", size: "1280x720", fourcc: "MJPG"),
        FormatCase(formats: "h264", size: "640x480", fourcc: "H264"),
    ])
    func recordsEveryCameraFormat(_ format: FormatCase) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("camera.mp4")
        let result = try CamrecBinary.run(["--device", "/dev/video0", "--size", format.size, "--fps", "30",
                                           "--max-duration", "2", "--json", output],
                                          environment: environment("/dev/video0,formats=\(format.formats)"))
        #expect(result.status == 0, "\(result.stderr)")
        let started = try #require(JSONLines.parse(result).first)
        #expect(started["format"] as? String == format.fourcc)
        #expect(started["size"] as? String == format.size)
        let probe = try MediaProbe.probe(output)
        #expect(probe.codec == "h264")
        #expect(probe.pixelFormat == "yuv420p")
        #expect("\(probe.width)x\(probe.height)" == format.size)
        // Exactly 2 s of camera time: recorded frames plus any the camera dropped (a loaded
        // machine may make it drop some; they must then be reported).
        let summary = try #require(JSONLines.parse(result).last)
        let dropped = summary["dropped_frames"] as? Int ?? -1
        #expect(abs(probe.frames + dropped - 60) <= 1, "\(probe.frames) frames + \(dropped) dropped, want 60 ± 1: \(summary)")
        // The movie holds camera frames in order, each once: the stamps only count up.
        let stamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: output))
        let readable = stamps.compactMap { $0 }
        #expect(readable.count * 10 >= stamps.count * 9, "unreadable stamps: \(stamps)")
        #expect(zip(readable, readable.dropFirst()).allSatisfy { $1 > $0 }, "stamps out of order: \(stamps)")
        if dropped == 0, let first = readable.first, let last = readable.last {
            #expect(Int(last - first) == readable.count - 1 + (stamps.count - readable.count), "gaps without reported drops: \(stamps)")
        }
    }

    /// Encoding H.264 (with `--codec auto` the camera's own H.264 would be stored instead).
    @Test func choosesMJPEGFor1080p30AndSaysWhy() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["--size", "1920x1080", "--fps", "30", "--codec", "h264", "--print-pipeline", "--json", folder.path("x.mp4")],
                                          environment: environment("/dev/video0"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText.contains("image/jpeg,width=1920,height=1080,framerate=30/1 ! tee name=t"))
        #expect(result.stdoutText.contains("! jpegdec ! videoconvert"))
    }

    @Test func selectsCamerasByPathIndexAndName() throws {
        let spec = "/dev/video0,card=Front Camera;/dev/video1,card=Rear Camera,formats=yuyv"
        for (selector, path) in [("1", "/dev/video1"), ("rear", "/dev/video1"), ("/dev/video0", "/dev/video0"), ("Front", "/dev/video0")] {
            let result = try CamrecBinary.run(["--device", selector, "--print-pipeline", "/tmp/x.mp4"], environment: environment(spec))
            #expect(result.status == 0, "\(selector): \(result.stderr)")
            #expect(result.stdoutText.contains("v4l2src device=\(path) "), "\(selector) → \(result.stdoutText)")
        }
        let ambiguous = try CamrecBinary.run(["--device", "camera", "/tmp/x.mp4"], environment: environment(spec))
        #expect(ambiguous.status == 66)
        #expect(ambiguous.stderr.contains("several cameras"))
    }

    @Test func cameraUnpluggedMidRecordingKeepsAFinalisedMovie() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("lost.mp4")
        let result = try CamrecBinary.run(["--size", "640x480", "--max-duration", "10", "--json", output],
                                          environment: environment("/dev/video0,formats=yuyv,fault=unplug@45"))
        #expect(result.status == 79, "\(result.stderr)")
        let last = try #require(JSONLines.parse(result).last)
        #expect(last["reason"] as? String == "camera-lost")
        let probe = try MediaProbe.probe(output)
        #expect(probe.frames >= 40 && probe.frames <= 45, "\(probe.frames) frames")
        #expect(try MediaProbe.decodeErrors(output).isEmpty)
        #expect(!(try MediaProbe.topLevelBoxes(output)).contains("moof"), "finalised, not left fragmented")
        #expect(folder.contents == ["lost.mp4"])
    }

    struct FaultCase: Sendable, CustomStringConvertible {
        let fault: String
        let status: Int32
        let mentions: String
        var description: String { fault }
    }

    @Test(arguments: [
        FaultCase(fault: "ebusy", status: 75, mentions: "another program"),
        FaultCase(fault: "eacces", status: 77, mentions: "video group"),
        FaultCase(fault: "enoent", status: 66, mentions: "no camera"),
    ])
    func openFaultsGiveTheirExitCodes(_ fault: FaultCase) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for device in [[], ["--device", "/dev/video0"]] {
            let result = try CamrecBinary.run(device + ["--max-duration", "1", folder.path("x.mp4")],
                                              environment: environment("/dev/video0,fault=\(fault.fault)"))
            #expect(result.status == fault.status, "\(device): \(result.stderr)")
            #expect(result.stderr.contains(fault.mentions), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
        #expect(folder.contents.isEmpty)
        let check = try CamrecBinary.run(["devices", "--check"], environment: environment("/dev/video0,fault=\(fault.fault)"))
        #expect(check.status == fault.status)
        #expect(check.stdout.isEmpty && check.stderr.isEmpty)
    }

    @Test func missingCameraListsTheCamerasThatExist() throws {
        let result = try CamrecBinary.run(["--device", "/dev/video7", "/tmp/x.mp4"],
                                          environment: environment("/dev/video0,card=Desk Camera"))
        #expect(result.status == 66)
        #expect(result.stderr.contains("/dev/video0 (Desk Camera)"), "\(result.stderr)")
    }

    @Test(arguments: ["drop=every:10", "slow=every:10:200ms"])
    func droppedAndLateFramesAreCountedAndRecordingGoesOn(fault: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("drops.mkv")
        let result = try CamrecBinary.run(["--size", "640x480", "--max-duration", "3", "--json", output],
                                          environment: environment("/dev/video0,formats=yuyv,\(fault)"))
        #expect(result.status == 0, "\(result.stderr)")
        let last = try #require(JSONLines.parse(result).last)
        #expect(last["reason"] as? String == "max-duration")
        let dropped = last["dropped_frames"] as? Int ?? 0
        let frames = try MediaProbe.probe(output).frames
        #expect(dropped >= 5, "\(dropped) dropped reported")
        // Recorded plus dropped frames cover the 3 s.
        #expect(abs(frames + dropped - 90) <= 2, "\(frames) recorded + \(dropped) dropped")
    }

    @Test func devicesListsFormatsAndControls() throws {
        let result = try CamrecBinary.run(["devices", "--json"], environment: environment("/dev/video0,card=Desk Camera"))
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let device = try #require((object["devices"] as? [[String: Any]])?.first)
        #expect(device["path"] as? String == "/dev/video0")
        #expect(device["card"] as? String == "Desk Camera")
        let fourccs = (device["formats"] as? [[String: Any]])?.compactMap { $0["fourcc"] as? String }
        #expect(fourccs == ["YUYV", "MJPG", "H264"])
        let controls = (device["controls"] as? [[String: Any]])?.compactMap { $0["key"] as? String } ?? []
        #expect(controls.contains("brightness") && controls.contains("auto_exposure"))
        let human = try CamrecBinary.run(["devices"], environment: environment("/dev/video0,card=Desk Camera"))
        #expect(human.stdoutText.contains("1920x1080"))
        let none = try CamrecBinary.run(["devices", "--check"], environment: environment("/dev/video9,fault=enoent"))
        #expect(none.status == 66)
    }
}

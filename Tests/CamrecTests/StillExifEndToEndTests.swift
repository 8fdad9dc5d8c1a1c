import Foundation
import Testing

/// Every still's EXIF, read back with exiftool: its frame's capture time to the
/// millisecond in the local zone, the camera's name, camrec's version and, with
/// `--location`, the GPS tags; and `exiftool -validate` finds nothing to warn about.
///
/// The emulated camera stamps each frame 400 ms before it delivers it (`latency=`, as a
/// real camera's frame is exposed before it reaches the driver) and prints each frame's
/// timestamp (`trace=frames`): a still's EXIF time must be that frame's timestamp on the
/// wall clock (within a frame), and at least the 400 ms before the file was written, so
/// that the time a still was handled or written can never pass for its capture time.
/// camrec runs in a zone 5:45 east of UTC, so that the offset and the local date and hour
/// are really written, not UTC's.
@Suite(.serialized, .enabled(if: ExifTool.unusable == nil, "\(ExifTool.unusable ?? "")"))
struct StillExifEndToEndTests {
    static let latency = 0.4
    static let zone = "+05:45"

    func environment(_ spec: String = "/dev/video0,card=EXIF Test Cam,formats=yuyv,sizes=640x480@30") throws -> [String: String] {
        // late= at least latency=: v4l2src would turn timestamps before its start into 0.
        let devices = spec.split(separator: ";").map { $0 + ",trace=frames,late=800ms,latency=400ms" }
        var environment = try VirtualCameraEnvironment.shared().environment(spec: devices.joined(separator: ";"))
        environment["TZ"] = "NPT-5:45"
        return environment
    }

    /// Checks one still's tags against its JSON line (`capture_time`), the camera that made
    /// it and the place; returns its capture time (seconds since the epoch).
    @discardableResult
    func check(_ line: [String: Any], camera: String = "EXIF Test Cam", size: (Int, Int) = (640, 480),
               location: (Double, Double, Double?)? = nil, frameTimes: [UInt32: Double]? = nil,
               stampRegion: FrameStampReader.Region = FrameStampReader.Region()) throws -> Double {
        let path = try #require(line["path"] as? String, "\(line)")
        let tags = try ExifTool.tags(path)
        #expect(tags["Validate"] as? String == "0 0 0" && tags["Warning"] == nil, "\(path): \(tags)")
        #expect(tags["Make"] as? String == camera && tags["Model"] as? String == camera, "\(tags)")
        #expect((tags["Software"] as? String)?.hasPrefix("camrec ") == true, "\(tags)")
        #expect(ExifTool.text(tags, "ExifVersion") == "0232", "\(tags)")
        #expect(tags["ExifImageWidth"] as? Int == size.0 && tags["ExifImageHeight"] as? Int == size.1, "\(tags)")

        // The time: to the millisecond and in the zone, the same in every field and in the line.
        let reported = try #require(line["capture_time"] as? String, "\(line)")
        let combined = try #require(tags["SubSecDateTimeOriginal"] as? String, "\(tags)")
        let captured = try #require(ExifTool.seconds(combined), "\(combined)")
        #expect(ExifTool.seconds(reported) == captured, "EXIF \(combined), JSON line \(reported)")
        #expect(reported.hasSuffix(Self.zone) && tags["OffsetTimeOriginal"] as? String == Self.zone, "\(tags)")
        let subSeconds = try #require(ExifTool.text(tags, "SubSecTimeOriginal"), "\(tags)")
        #expect(Int(subSeconds) == Int((captured * 1000).rounded()) % 1000, "SubSecTimeOriginal \(subSeconds), \(combined)")
        #expect(tags["DateTimeOriginal"] as? String == String(combined.prefix(19)) && tags["ModifyDate"] as? String == String(combined.prefix(19)),
                "\(tags)")

        // The frame's own time, not when the still was handled: the camera's timestamp for
        // the frame the still shows, on the wall clock, and well before the file was written.
        if let frameTimes {
            let stamp = try #require(try FrameStampReader.sequence(inImage: URL(fileURLWithPath: path), region: stampRegion),
                                     "\(path) has no camera stamp")
            let frame = try #require(frameTimes[stamp], "no trace of frame \(stamp)")
            let expected = frame + ExifTool.wallMinusMonotonic()
            #expect(abs(captured - expected) < 1.0 / 30, "\(path): EXIF \(combined), the camera took frame \(stamp) \(captured - expected) s away")
        }
        let written = try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
        #expect(written.timeIntervalSince1970 - captured >= Self.latency - 0.02,
                "\(path) written \(written.timeIntervalSince1970 - captured) s after its EXIF time: that is not the frame's")

        if let location {
            let (latitude, longitude, altitude) = location
            #expect(abs((tags["GPSLatitude"] as? Double ?? 999) - latitude) < 1e-6, "\(tags)")
            #expect(abs((tags["GPSLongitude"] as? Double ?? 999) - longitude) < 1e-6, "\(tags)")
            if let altitude {
                #expect(abs((tags["GPSAltitude"] as? Double ?? 999) - altitude) < 0.01, "\(tags)")
            } else {
                #expect(tags["GPSAltitude"] == nil, "\(tags)")
            }
            #expect(tags["GPSMapDatum"] as? String == "WGS-84" && tags["GPSVersionID"] as? String == "2 3 0 0", "\(tags)")
            let utc = try #require(tags["GPSDateTime"] as? String, "\(tags)")
            #expect(ExifTool.seconds(utc).map { abs($0 - captured) < 0.0015 } == true, "GPSDateTime \(utc), \(combined)")
        } else {
            #expect(tags["GPSLatitude"] == nil && tags["GPSDateTime"] == nil, "\(tags)")
        }
        return captured
    }

    /// Records with `arguments` (OUTPUT last) and a control socket; at the 30th frame one
    /// SIGUSR1; once `stills` still lines have come, stops; returns the finished run.
    func stillBySignal(_ arguments: [String], environment: [String: String], stills: Int = 1,
                       in folder: TemporaryFolder) throws -> RunningCamrec {
        let socket = folder.path("control")
        let run = try CamrecBinary.start(["--max-duration", "none", "--control", socket, "--json"] + arguments, environment: environment)
        defer { if run.process.isRunning { run.signal(SIGKILL) } }
        try #require(RecordingWait.frames(30, socket: socket), "\(run.stderrText.suffix(2000))")
        run.signal(SIGUSR1)
        try #require(run.waitForLines(type: "still", count: stills), "\(run.jsonLines) \(run.stderrText.suffix(2000))")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText.suffix(2000))")
        return run
    }

    func frameTimes(_ run: RunningCamrec, device: String = "/dev/video0") -> [UInt32: Double] {
        MultiCameraTests.captureTimes(run.stderrText)[device] ?? [:]
    }

    /// JPEG stills (periodic and by signal) from a raw camera: each one's frame time, the
    /// place with its altitude; two stills are as far apart in EXIF as in the movie.
    @Test func jpegStillsWhileRecording() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("control")
        let run = try CamrecBinary.start(["--size", "640x480", "--max-duration", "none", "--still-every", "1s",
                                          "--location", "48.8584,2.2945,35", "--control", socket, "--json", folder.path("movie.mp4")],
                                         environment: environment())
        defer { if run.process.isRunning { run.signal(SIGKILL) } }
        try #require(run.waitForLines(type: "still", count: 2), "\(run.stderrText.suffix(2000))")
        run.signal(SIGUSR1)
        try #require(run.waitUntil { lines in lines.contains { $0["trigger"] as? String == "signal" } }, "\(run.stderrText.suffix(2000))")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText.suffix(2000))")
        let stills = run.lines(type: "still")
        let frames = frameTimes(run)
        var times: [(exif: Double, pts: Double)] = []
        for line in stills {
            let captured = try check(line, location: (48.8584, 2.2945, 35), frameTimes: frames)
            times.append((captured, try #require(line["pts"] as? Double, "\(line)")))
        }
        for (a, b) in zip(times, times.dropFirst()) {
            #expect(abs((b.exif - a.exif) - (b.pts - a.pts)) < 1.0 / 30, "EXIF times \(a.exif) → \(b.exif), movie times \(a.pts) → \(b.pts)")
        }
        // The result's files say the same.
        let files = try #require(run.jsonLines.last?["files"] as? [[String: Any]]).filter { $0["kind"] as? String == "still" }
        #expect(files.map { $0["capture_time"] as? String } == stills.map { $0["capture_time"] as? String })
    }

    /// PNG stills: by the control socket, and a Live Photo's still; no --location, no GPS.
    @Test func pngStillsAndALivePhoto() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("control")
        let run = try CamrecBinary.start(["--size", "640x480", "--max-duration", "none", "--still-format", "png", "--post-roll", "0.5s",
                                          "--control", socket, "--json", folder.path("movie.mkv")], environment: environment())
        defer { if run.process.isRunning { run.signal(SIGKILL) } }
        try #require(RecordingWait.frames(30, socket: socket), "\(run.stderrText.suffix(2000))")
        let still = try CamrecBinary.run(["ctl", socket, "still"], timeout: 30)
        #expect(still.status == 0, "\(still.stdoutText) \(still.stderr)")
        let clip = try CamrecBinary.run(["ctl", socket, "clip", "--still"], timeout: 30)
        #expect(clip.status == 0, "\(clip.stdoutText) \(clip.stderr)")
        try #require(run.waitForLine(type: "clip"), "\(run.stderrText.suffix(2000))")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText.suffix(2000))")
        let stills = run.lines(type: "still")
        #expect(stills.compactMap { $0["trigger"] as? String } == ["control", "clip"], "\(stills)")
        for line in stills {
            let path = try #require(line["path"] as? String)
            let probe = try MediaProbe.probe(path)
            #expect(path.hasSuffix(".png") && probe.codec == "png", "\(path)")
            #expect(try MediaProbe.decodeErrors(path).isEmpty, "\(path)")
            try check(line, frameTimes: frameTimes(run))
        }
    }

    /// An MJPEG camera's own JPEG, passed through: the EXIF segment added (that the rest is
    /// the camera's bytes is StillTests' `mjpegStillsAreTheCamerasOwnBytes`), a place below
    /// sea level in the south-east.
    @Test func mjpegCamerasOwnJPEG() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try stillBySignal(["--size", "640x480", "--location", "-33.8568,151.2153,-4.5", folder.path("movie.mkv")],
                                    environment: environment("/dev/video0,card=EXIF Test Cam,formats=mjpeg,sizes=640x480@30"),
                                    in: folder)
        let line = try #require(run.lines(type: "still").first)
        try check(line, location: (-33.8568, 151.2153, -4.5), frameTimes: frameTimes(run))
        // Passed through: the file is the camera's JPEG and one segment more.
        let path = try #require(line["path"] as? String)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(ExifTool.withoutExif(bytes).count < bytes.count)
    }

    /// `camrec still`: a JPEG with a place without altitude, and a PNG.
    @Test func stillCommand() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for name in ["photo.jpg", "photo.png"] {
            let result = try CamrecBinary.run(["still", "--size", "640x480", "--settle", "0", "--location", "-33.8568,151.2153",
                                               "--json", folder.path(name)], environment: environment())
            #expect(result.status == 0, "\(result.stderr)")
            let line = try #require(JSONLines.parse(result).first { $0["type"] as? String == "still" }, "\(result.stdoutText)")
            try check(line, location: (-33.8568, 151.2153, nil),
                      frameTimes: MultiCameraTests.captureTimes(result.stderr)["/dev/video0"] ?? [:])
        }
    }

    /// Several cameras on a canvas: each camera's own still names its camera, the
    /// composed one all of them. The composed still's time is the capture time of the
    /// first camera's frame on it (read in its rectangle), not the canvas frame's slot: a
    /// canvas frame is made of the frames that had arrived when its slot was up.
    @Test func composedStillsNameTheirCameras() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var cameras = try environment("/dev/video0,card=Left Cam,formats=yuyv,sizes=320x240@30,overrun=wait;"
            + "/dev/video1,card=Right Cam,formats=yuyv,sizes=320x240@30,overrun=wait")
        cameras["CAMREC_DEVICE_PATHS"] = nil
        // The composed still and one per camera.
        let run = try stillBySignal(["-d", "/dev/video0", "-d", "/dev/video1", "--layout", "side-by-side", "--canvas", "640x240",
                                     folder.path("c.mkv")], environment: cameras, stills: 3, in: folder)
        let stills = run.lines(type: "still")
        let composed = try #require(stills.first { $0["device"] == nil })
        let first = try #require((composed["layout"] as? [String: Any])?["cameras"] as? [[String: Any]], "\(composed)")[0]
        let region = try FrameStampReader.Region(x: #require(first["x"] as? Int), y: #require(first["y"] as? Int),
                                                 width: #require(first["width"] as? Int), sourceWidth: 320)
        try check(composed, camera: "Left Cam + Right Cam", size: (640, 240), frameTimes: frameTimes(run), stampRegion: region)
        for (device, card) in [("/dev/video0", "Left Cam"), ("/dev/video1", "Right Cam")] {
            let own = try #require(stills.first { $0["device"] as? String == device }, "\(stills)")
            try check(own, camera: card, size: (320, 240), frameTimes: frameTimes(run, device: device))
        }
    }

    @Test(arguments: [
        (["--location", "91,0"], "latitude"),
        (["--location", "0,200"], "longitude"),
        (["--location", "48.85"], "LAT,LON"),
        (["--location", "north,east"], "decimal"),
    ])
    func badLocationsAreUsageErrors(_ options: [String], mentions: String) throws {
        for (command, output) in [([String](), "/tmp/camrec-never.mp4"), (["still"], "/tmp/camrec-never.jpg")] {
            let result = try CamrecBinary.run(command + ["--device", "test"] + options + [output])
            #expect(result.status == 64, "\(command) \(options): \(result.stderr)")
            #expect(result.stderr.contains("--location") && result.stderr.contains(mentions), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
    }
}

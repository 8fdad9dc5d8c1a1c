import Foundation
import Testing

/// Privacy masks end to end (`--mask`, `--mask-image`): what leaves camrec — the movie, its
/// stills (an MJPEG camera's too), clips, a Live Photo, the RTSP stream, `camrec still`
/// — is black where the masks are (mean luma of the region, decoded by ffmpeg, at most 20,
/// where the emulated camera's own picture is clearly lighter), the rest as without masks;
/// motion detection still sees what the masks hide. Every recording stops at
/// `--max-duration` or on the control socket's `stop`; nothing waits on wall-clock time.
@Suite(.serialized) struct MaskTests {
    /// The mean of a picture's luma over a rectangle.
    static func mean(_ picture: Luma.Picture, x: Range<Int>, y: Range<Int>) -> Double {
        var sum = 0
        for row in y { for column in x { sum += Int(picture.bytes[row * picture.width + column]) } }
        return Double(sum) / Double(x.count * y.count)
    }

    /// The two regions `--mask 100,80,200,160 --mask 75%,50%,25%,50%` cover in 640x480,
    /// each shrunk by 2 px (the encoder may smear an edge), and a region they do not touch.
    static let regions = [(x: 102..<298, y: 82..<238), (x: 482..<638, y: 242..<478)]
    static let masks = ["--mask", "100,80,200,160", "--mask", "75%,50%,25%,50%"]

    /// The movie and a still (PNG) of a masked recording against the plain recording of the
    /// same camera frames (`PictureTests`): black in the masks, unchanged elsewhere.
    @Test func theMovieAndItsStillsAreBlackInTheMasksAndUnchangedElsewhere() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pictures = PictureTests()
        let (plain, masked) = (try pictures.plainRecording(), folder.path("masked.mp4"))
        let lines = try pictures.record(masked, Self.masks + ["--still-every", "0.5s", "--still-format", "png"])
        for k in [5, 20] {
            let a = try Luma.frame(plain, index: k), b = try Luma.frame(masked, index: k)
            for region in Self.regions {
                let (before, after) = (Self.mean(a, x: region.x, y: region.y), Self.mean(b, x: region.x, y: region.y))
                #expect(before > 40, "frame \(k): the camera's picture is dark there already (\(before)): the test could not tell")
                #expect(after <= 20, "frame \(k): the mask \(region) has mean luma \(after)")
            }
            // Left of and below the first mask, above the second: as without masks.
            let rest = [Luma.meanDifference(a, b, x: 0..<96, y: 0..<480), Luma.meanDifference(a, b, x: 96..<476, y: 244..<480),
                        Luma.meanDifference(a, b, x: 304..<640, y: 0..<236)]
            #expect(rest.allSatisfy { $0 < 2.5 }, "frame \(k): the unmasked picture differs by \(rest)")
        }
        let still = try #require(lines.first { $0["type"] as? String == "still" }?["path"] as? String, "no still: \(lines)")
        let photo = try Luma.image(still)
        for region in Self.regions {
            #expect(Self.mean(photo, x: region.x, y: region.y) <= 20, "the still's mask \(region)")
        }
        #expect(Self.mean(photo, x: 304..<640, y: 0..<236) > 40, "the still is dark where nothing is masked")
    }

    /// An MJPEG camera (whose stills are otherwise its own JPEG bytes) served live: a Live
    /// Photo asked for on the control socket (`ctl clip --still`: a still and a clip around
    /// it) and a frame read from the RTSP stream are masked.
    @Test func anMJPEGCamerasLivePhotoAndTheLiveStreamAreMasked() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("control")
        let environment = try VirtualCameraEnvironment.shared().environment(spec: "/dev/video0,formats=mjpeg,sizes=640x480@30,overrun=wait")
        let run = try CamrecBinary.start(["--size", "640x480", "--fps", "30", "--max-duration", "none", "--serve", "0",
                                          "--post-roll", "0.5s"] + Self.masks
                                         + ["--control", socket, "--json", folder.path("served.mkv")], environment: environment)
        defer { run.signal(SIGKILL) }
        try #require(run.waitForLine(type: "started"), "\(run.stderrText)")
        let url = try #require(run.lines(type: "started").first?["serve_url"] as? String, "no serve_url")
        try #require(RecordingWait.frames(30, socket: socket), "\(run.stderrText)")
        let asked = try CamrecBinary.run(["ctl", socket, "clip", "--still"], timeout: 30)
        #expect(asked.status == 0, "\(asked.stderr)")
        // Read by GStreamer's RTSP client (ffmpeg's shows this stream's first slice of each
        // frame smeared, with or without masks); the decoder gives no frame it could not
        // decode whole (the first ones a client gets may need frames it never had).
        let served = folder.path("served.png")
        let read = try ChildProcess.run("gst-launch-1.0", ["-q", "rtspsrc", "location=\(url)", "protocols=tcp", "!", "rtph264depay",
                                                           "!", "h264parse", "!", "avdec_h264", "output-corrupt=false", "!", "videoconvert", "!",
                                                           "pngenc", "snapshot=true", "!", "filesink", "location=\(served)"],
                                        timeout: 120)
        #expect(read.status == 0, "\(read.stderr)")
        try #require(run.waitForLine(type: "clip"), "\(run.stderrText)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")
        let clip = try #require(run.lines(type: "clip").first)
        let clipPath = try #require(clip["path"] as? String)
        let still = try #require(clip["still"] as? String, "no Live Photo still: \(clip)")
        let pictures = [("still", try Luma.image(still)), ("clip", try Luma.frame(clipPath, index: 5)), ("live stream", try Luma.image(served))]
        for (name, picture) in pictures {
            try #require((picture.width, picture.height) == (640, 480), "\(name): \(picture.width)x\(picture.height)")
            for region in Self.regions {
                #expect(Self.mean(picture, x: region.x, y: region.y) <= 20, "\(name): the mask \(region)")
            }
            #expect(Self.mean(picture, x: 304..<640, y: 0..<236) > 40, "\(name): dark where nothing is masked")
        }
    }

    /// `--mask-image` over the middle half of the picture, where an object moves: motion
    /// detection sees it (one motion line, one clip), and the clip shows black there.
    @Test func motionSeesWhatTheMaskImageHidesButTheClipDoesNot() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let mask = folder.path("mask.png")
        let made = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "color=white:s=160x120", "-vf",
                                                   "drawbox=x=0:y=ih/4:w=iw:h=ih/2:color=black:t=fill", "-frames:v", "1", "-y", mask])
        try #require(made.status == 0, "\(made.stderr)")
        let environment = try VirtualCameraEnvironment.shared().environment(spec: "/dev/video0,formats=yuyv,sizes=320x240@30,objects=90:30,noise=6")
        let run = try CamrecBinary.run(["--size", "320x240", "--fps", "30", "-t", "5", "--on-motion", "--mask-image", mask,
                                        "--pre-roll", "1s", "--post-roll", "1s", "--json", folder.path("door.mp4")],
                                       environment: environment, timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = JSONLines.parse(run)
        #expect(lines.filter { $0["type"] as? String == "motion" }.count == 1, "motion detection did not see the object: \(run.stdoutText)")
        let clip = try #require(lines.first { $0["type"] as? String == "clip" }, "no clip: \(run.stdoutText)")
        let clipPath = try #require(clip["path"] as? String)
        // The mask: rows 60..<180 of 240 (shrunk by 2 px); above it, the camera's picture.
        for picture in [try Luma.frame(clipPath, index: 10), try Luma.frame(clipPath, index: 40)] {
            #expect(Self.mean(picture, x: 0..<320, y: 62..<178) <= 20, "the mask image's region")
            #expect(Self.mean(picture, x: 0..<320, y: 16..<58) > 40, "dark above the mask")
        }
    }

    @Test func camrecStillIsMaskedAndThePrintedPipelineShowsTheElement() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let environment = try VirtualCameraEnvironment.shared().environment(spec: "/dev/video0,formats=yuyv,overrun=wait")
        let photo = folder.path("photo.png")
        let result = try CamrecBinary.run(["still", "--size", "640x480", "--settle", "0"] + Self.masks + [photo],
                                          environment: environment, timeout: 120)
        try #require(result.status == 0, "\(result.stderr)")
        let picture = try Luma.image(photo)
        for region in Self.regions { #expect(Self.mean(picture, x: region.x, y: region.y) <= 20, "the mask \(region)") }
        #expect(Self.mean(picture, x: 304..<640, y: 0..<236) > 40)
        let printed = try CamrecBinary.run(["--device", "test", "--size", "640x480", "--on-motion", "--print-pipeline"] + Self.masks + ["/tmp/x.mp4"])
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stdoutText.contains("! camrecmask name=mask rectangles='100,80,200,160 480,240,160,240' ! tee name=t"),
                "\(printed.stdoutText)")
    }

    /// `--layout`: each camera is masked in its own pixels before it is placed, so the
    /// canvas and each camera's own stills are black there (`--mask 50%,50%,50%,50%`: the
    /// bottom right quarter of each camera's picture).
    @Test func withALayoutEachCameraIsMaskedInItsOwnPixels() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var environment = try VirtualCameraEnvironment.shared().environment(
            spec: "/dev/video0,formats=yuyv,sizes=320x240@30,overrun=wait;/dev/video2,formats=mjpeg,sizes=320x240@30,overrun=wait")
        environment["CAMREC_DEVICE_PATHS"] = nil
        let movie = folder.path("both.mp4")
        let run = try CamrecBinary.run(["-d", "/dev/video0", "-d", "/dev/video2", "--layout", "side-by-side", "--canvas", "640x480",
                                        "--mask", "50%,50%,50%,50%", "--still-every", "1s", "--max-duration", "2", "--json", movie],
                                       environment: environment, timeout: 120)
        try #require(run.status == 0, "\(run.stderr.suffix(2000))")
        let lines = JSONLines.parse(run)
        let listed = try #require((lines.last?["layout"] as? [String: Any])?["cameras"] as? [[String: Any]], "\(run.stdoutText)")
        let frame = try Luma.frame(movie, index: 45)
        for camera in listed {
            let (x, y) = (try #require(camera["x"] as? Int), try #require(camera["y"] as? Int))
            let (w, h) = (try #require(camera["width"] as? Int), try #require(camera["height"] as? Int))
            #expect(Self.mean(frame, x: (x + w / 2 + 2)..<(x + w - 2), y: (y + h / 2 + 2)..<(y + h - 2)) <= 20, "\(camera)")
            #expect(Self.mean(frame, x: (x + 2)..<(x + w / 2 - 2), y: (y + 20)..<(y + h / 2 - 2)) > 40, "\(camera)")
        }
        // Each camera's own stills (320x240) and the canvas's (640x480).
        let stills = lines.filter { $0["type"] as? String == "still" }.compactMap { $0["path"] as? String }
        let own = try stills.map { try Luma.image($0) }.filter { $0.width == 320 }
        #expect(own.count >= 2, "\(stills)")
        for picture in own {
            #expect(Self.mean(picture, x: 162..<318, y: 122..<238) <= 20)
            #expect(Self.mean(picture, x: 2..<158, y: 20..<118) > 40)
        }
    }

    /// Every refusal is one line and leaves nothing behind: --codec copy (64), a rectangle
    /// outside the picture or empty (64), a missing mask image (66), one that is not a PNG (65).
    @Test func refusals() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let text = folder.path("mask.png")
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: text))
        let before = Set(folder.contents)
        let environment = try VirtualCameraEnvironment.shared().environment(spec: "/dev/video0,formats=mjpeg")
        let cases: [([String], Int32, String)] = [
            (["--codec", "copy", "--mask", "0,0,10,10"], 64, "--codec copy"),
            (["--mask", "600,0,100,100"], 64, "640x480"),
            (["--mask", "0,0,0,10"], 64, "--mask"),
            (["--mask", "0,0,10"], 64, "--mask"),
            (["--mask-image", folder.path("none.png")], 66, "--mask-image"),
            (["--mask-image", text], 65, "not a PNG"),
        ]
        for (options, status, mentions) in cases {
            let result = try CamrecBinary.run(["--size", "640x480", "--max-duration", "1"] + options + [folder.path("movie.mkv")],
                                              environment: environment)
            #expect(result.status == status, "\(options): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(mentions) && result.stderr.split(separator: "\n").count == 1, "\(options): \(result.stderr)")
        }
        #expect(Set(folder.contents) == before, "\(folder.contents)")
    }
}

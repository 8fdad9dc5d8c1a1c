import Foundation
import Testing

/// Several cameras composed onto one canvas (`--layout`), end to end against emulated
/// cameras of different sizes (4:3 and 16:9). Each camera's picture is found in the
/// rectangle camrec reports by reading, from that rectangle alone and at that scale, the
/// frame stamp the camera draws on every frame (docs/virtual-camera.md): a rectangle off
/// by a few pixels, scaled wrongly or showing another camera does not decode. The
/// stamps' capture times (`trace=frames`) show that each canvas frame holds frames the
/// cameras captured at the same instant.
///
/// Serialized: each case runs two or three cameras and an encoder at once on 2 cores.
@Suite(.serialized) struct ComposedRecordingTests {
    /// The cameras: 320x240 (4:3), 640x360 (16:9, 300 ms slow to start), 320x240 (150 ms slow).
    static let cameras = [
        "/dev/video0,formats=yuyv,sizes=320x240@30,trace=frames,overrun=wait",
        "/dev/video1,formats=yuyv,sizes=640x360@30,trace=frames,overrun=wait,late=300ms",
        "/dev/video2,formats=yuyv,sizes=320x240@30,trace=frames,overrun=wait,late=150ms",
    ]
    static let sizes = [(320, 240), (640, 360), (320, 240)]

    func environment(_ count: Int) throws -> [String: String] {
        var environment = try VirtualCameraEnvironment.shared().environment(spec: Self.cameras.prefix(count).joined(separator: ";"))
        environment["CAMREC_DEVICE_PATHS"] = nil
        environment["SWIFT_BACKTRACE"] = "enable=no"
        return environment
    }

    struct Rect: Equatable, CustomStringConvertible {
        var x, y, width, height: Int
        var description: String { "\(width)x\(height)+\(x)+\(y)" }
    }

    /// Records `count` cameras with `arguments` for 2 s and checks the movie: the canvas
    /// size, exactly 60 frames, the layout in `started` and the result alike, and every
    /// camera found in its rectangle on every frame. Returns the rectangles.
    @discardableResult
    func recordAndCheck(count: Int, _ arguments: [String], canvas: (Int, Int), layout: String,
                        keep: (String) throws -> Void = { _ in }) throws -> [Rect] {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("canvas.mp4")
        let devices = (0..<count).flatMap { ["--device", "/dev/video\($0)"] }
        let run = try CamrecBinary.run(devices + arguments + ["--max-duration", "2", "--json", movie],
                                       environment: environment(count), timeout: 120)
        try #require(run.status == 0, "\(run.stderr.suffix(2000))")
        #expect(folder.contents == ["canvas.mp4"])

        // The movie: the canvas, exactly 2 s of frames at 30 fps.
        let probe = try MediaProbe.probe(movie)
        #expect(probe.width == canvas.0 && probe.height == canvas.1, "\(probe.width)x\(probe.height)")
        #expect(probe.frames == 60, "ffprobe counted \(probe.frames) frames, want 60")

        let lines = JSONLines.parse(run)
        let started = try #require(lines.first { $0["type"] as? String == "started" })
        let result = try #require(lines.last { $0["type"] as? String == "result" })
        #expect(started["size"] as? String == "\(canvas.0)x\(canvas.1)")
        let files = try #require(result["files"] as? [[String: Any]])
        #expect(files.count == 1 && files.first?["frames"] as? Int == 60 && files.first?["path"] as? String == movie)
        let reported = try #require(started["layout"] as? [String: Any])
        #expect(NSDictionary(dictionary: reported) == NSDictionary(dictionary: try #require(result["layout"] as? [String: Any])))
        #expect(reported["name"] as? String == layout && reported["canvas"] as? String == "\(canvas.0)x\(canvas.1)")
        let listed = try #require(reported["cameras"] as? [[String: Any]])
        try #require(listed.count == count)

        let times = MultiCameraTests.captureTimes(run.stderr)
        var rects: [Rect] = []
        var shown: [[Double]] = []
        for (index, camera) in listed.enumerated() {
            #expect(camera["index"] as? Int == index + 1 && camera["device"] as? String == "/dev/video\(index)")
            let rect = try Rect(x: #require(camera["x"] as? Int), y: #require(camera["y"] as? Int),
                                width: #require(camera["width"] as? Int), height: #require(camera["height"] as? Int))
            rects.append(rect)
            let (width, height) = Self.sizes[index]
            #expect(camera["size"] as? String == "\(width)x\(height)")
            // Inside the canvas, unstretched (within the pixel that even sizes may cost).
            #expect(rect.x >= 0 && rect.y >= 0 && rect.x + rect.width <= canvas.0 && rect.y + rect.height <= canvas.1, "\(rect)")
            #expect(abs(rect.width * height - rect.height * width) <= 2 * max(width, height), "camera \(index + 1): \(rect) for \(width)x\(height)")

            // The camera's stamp, read from its rectangle alone at its scale, on every frame.
            let stamps = try FrameStampReader.sequences(
                inVideo: URL(fileURLWithPath: movie),
                region: .init(x: rect.x, y: rect.y, width: rect.width, sourceWidth: width))
            let sequences = stamps.compactMap { $0 }
            #expect(stamps.count == 60 && sequences.count == 60,
                    "camera \(index + 1) in \(rect): \(stamps.count - sequences.count) of \(stamps.count) frames unreadable")
            // Camera 2 starts 300 ms late; the movie waits for it, so even frame 0 holds every camera.
            #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $1 >= $0 }, "camera \(index + 1): \(sequences)")
            let deviceTimes = try #require(times["/dev/video\(index)"], "no trace=frames lines for /dev/video\(index)")
            shown.append(try sequences.map { try #require(deviceTimes[$0], "/dev/video\(index) frame \($0) has no capture time") })
        }
        // Every canvas frame shows the cameras' frames of one instant: within two frame
        // intervals of the first camera's (each camera's newest frame, captured at its own
        // phase). A loaded machine may hold one camera's branch (its decoding and scaling)
        // back for a moment, and the canvas then shows that camera's previous frame: nine
        // frames in ten hold to the bound, and none is a second behind (issue 29 item 15).
        for camera in 1..<count {
            let apart = zip(shown[0], shown[camera]).map { abs($0 - $1) }
            let within = apart.filter { $0 <= 2.0 / 30 }.count
            #expect(within * 10 >= apart.count * 9, "camera \(camera + 1) apart from camera 1 on the canvas: \(apart)")
            #expect((apart.max() ?? 0) < 1, "camera \(camera + 1) apart from camera 1 on the canvas: \(apart)")
        }
        try keep(movie)
        return rects
    }

    /// The mean luma of `rect` in frame `frame` of `movie` (ffmpeg's crop, as 8-bit grey).
    static func meanLuma(_ movie: String, _ rect: Rect, frame: Int = 30) throws -> Double {
        let result = try ChildProcess.run("ffmpeg", [
            "-v", "error", "-i", movie, "-vf", "select=eq(n\\,\(frame)),format=gray,crop=\(rect.width):\(rect.height):\(rect.x):\(rect.y)",
            "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        let bytes = [UInt8](result.stdout)
        guard result.status == 0, bytes.count == rect.width * rect.height else {
            throw FrameStampReader.ReadError(description: "ffmpeg: \(bytes.count) bytes for \(rect): \(result.stderr)")
        }
        return Double(bytes.reduce(0) { $0 + Int($1) }) / Double(bytes.count)
    }

    @Test("default: stacked on 1080x1920, each camera a full-width band, black around it")
    func stackedOnTheDefaultCanvas() throws {
        let rects = try recordAndCheck(count: 2, ["--layout", "stacked"], canvas: (1080, 1920), layout: "stacked", keep: { movie in
            // Black above, between and below the pictures (Y 16), the pictures themselves brighter.
            for band in [Rect(x: 0, y: 0, width: 1080, height: 72), Rect(x: 0, y: 886, width: 1080, height: 248),
                         Rect(x: 0, y: 1746, width: 1080, height: 174)] {
                let luma = try Self.meanLuma(movie, band)
                #expect(luma < 24, "\(band): mean luma \(luma), not black")
            }
            for picture in [Rect(x: 0, y: 120, width: 1080, height: 700), Rect(x: 0, y: 1180, width: 1080, height: 520)] {
                let luma = try Self.meanLuma(movie, picture)
                #expect(luma > 60, "\(picture): mean luma \(luma), no picture")
            }
        })
        #expect(rects == [Rect(x: 0, y: 74, width: 1080, height: 810), Rect(x: 0, y: 1136, width: 1080, height: 608)])
    }

    /// Issue 31 item 7: `--rotate`, `--mirror` and overlays with `--layout`. Each camera is
    /// turned in its own branch and its rectangle fits the turned picture: the rectangle,
    /// turned back by ffmpeg (transpose), is the camera's own picture (its stamps read, in
    /// order, on every frame). The overlay text is drawn once, on the canvas, in the black
    /// band above the pictures.
    @Test("--rotate 90 and --overlay with --layout: each camera turned in its rectangle, the text on the canvas")
    func turnedCamerasAndTextOnTheCanvas() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("turned.mp4")
        let run = try CamrecBinary.run(["-d", "/dev/video0", "-d", "/dev/video2", "--layout", "side-by-side", "--canvas", "640x480",
                                        "--rotate", "90", "--overlay", "CAMREC OVERLAY TEST", "--max-duration", "2", "--json", movie],
                                       environment: environment(3), timeout: 120)
        try #require(run.status == 0, "\(run.stderr.suffix(2000))")
        #expect(try MediaProbe.probe(movie).frames == 60)
        let result = try #require(JSONLines.parse(run).last)
        let listed = try #require((result["layout"] as? [String: Any])?["cameras"] as? [[String: Any]])
        // 320x240 turned is 240x320: each half of the canvas (320x480) holds it at 320x426.
        #expect(listed.map { $0["size"] as? String } == ["240x320", "240x320"])
        for (index, camera) in listed.enumerated() {
            let rect = try Rect(x: #require(camera["x"] as? Int), y: #require(camera["y"] as? Int),
                                width: #require(camera["width"] as? Int), height: #require(camera["height"] as? Int))
            #expect(rect == Rect(x: 320 * index, y: 26, width: 320, height: 426), "\(rect)")
            // Turned back a quarter anticlockwise and scaled to the camera's size, losslessly.
            let back = folder.path("back-\(index + 1).mkv")
            let undo = try ChildProcess.run("ffmpeg", ["-v", "error", "-y", "-i", movie, "-vf",
                                                       "crop=\(rect.width):\(rect.height):\(rect.x):\(rect.y),transpose=2,scale=320:240",
                                                       "-c:v", "ffv1", back])
            try #require(undo.status == 0, "\(undo.stderr)")
            let sequences = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: back)).compactMap { $0 }
            #expect(sequences.count == 60, "camera \(index + 1): \(sequences.count) of 60 stamps read once turned back")
            #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $1 >= $0 }, "camera \(index + 1): \(sequences)")
        }
        // The text, white with a black outline, top left in the black band above the pictures
        // (black is Y 16); the band on the right, where the text does not reach, stays black.
        #expect(try Self.meanLuma(movie, Rect(x: 8, y: 4, width: 200, height: 20)) > 40)
        #expect(try Self.meanLuma(movie, Rect(x: 440, y: 2, width: 180, height: 20)) < 24)
    }

    @Test("side-by-side, picture in picture and a grid of three, each camera found in its rectangle",
          arguments: [("side-by-side", 1280, 480, 2), ("pip", 1280, 720, 2), ("grid", 960, 720, 3)])
    func layouts(layout: String, width: Int, height: Int, cameras: Int) throws {
        try recordAndCheck(count: cameras, ["--layout", layout, "--canvas", "\(width)x\(height)"], canvas: (width, height), layout: layout)
    }

    /// Issue 36 item 2: `pip:CORNER:SIZE`. On 1440x480, camera 1 (4:3) fills 640x480 in
    /// the middle, black bars 400 wide on both sides; camera 2 (16:9) is the inset, SIZE of
    /// 1440 wide, 12 pixels (480 / 40) from the corner's edges, where the result says (its
    /// stamps read there on every frame, by `recordAndCheck`; the top insets stay clear of
    /// camera 1's stamps). ffmpeg then sees a picture where the inset is in its bar, and
    /// the other bar black.
    @Test("pip:CORNER:SIZE: the second camera an inset in that corner, SIZE of the canvas wide, where the result says",
          arguments: [("pip:top-left", "pip:top-left:25%", Rect(x: 12, y: 12, width: 360, height: 202)),
                      ("pip:top-right:25%", "pip:top-right:25%", Rect(x: 1068, y: 12, width: 360, height: 202)),
                      ("PIP:bottom-left:40%", "pip:bottom-left:40%", Rect(x: 12, y: 144, width: 576, height: 324))])
    func pipInACorner(_ layout: String, _ name: String, _ inset: Rect) throws {
        let rects = try recordAndCheck(count: 2, ["--layout", layout, "--canvas", "1440x480"], canvas: (1440, 480), layout: name, keep: { movie in
            let left = inset.x < 720
            // The inset where it lies in its bar (2 pixels clear of camera 1's edge) shows a
            // picture; the opposite bar is black (Y 16).
            let (barStart, barEnd) = left ? (0, 398) : (1042, 1440)
            let from = max(inset.x, barStart), to = min(inset.x + inset.width, barEnd)
            let inBar = Rect(x: from, y: inset.y, width: to - from, height: inset.height)
            let opposite = Rect(x: left ? 1042 : 0, y: 0, width: 398, height: 480)
            for frame in [0, 59] {
                let picture = try Self.meanLuma(movie, inBar, frame: frame), black = try Self.meanLuma(movie, opposite, frame: frame)
                #expect(picture > 60, "frame \(frame): \(inBar) mean luma \(picture), no inset there")
                #expect(black < 24, "frame \(frame): \(opposite) mean luma \(black), not black")
            }
        })
        #expect(rects == [Rect(x: 400, y: 0, width: 640, height: 480), inset])
    }

    @Test(arguments: [
        (["--layout", "pip:middle:30%"], "unknown corner 'middle' in 'pip:middle:30%': use top-left"),
        (["--layout", "pip:top-left:90%"], "from 5% to 60%, e.g. pip:bottom-right:30%"),
        (["--layout", "pip:30%:top-left"], "the size comes after the corner: write pip:CORNER:SIZE"),
        (["--layout", "grid:top-left"], "grid has no corner or size"),
        (["--layout", "stacked", "--canvas", "1081x1920"], "must be even"),
        (["--layout", "stacked", "--canvas", "0x1920"], "must be positive"),
        (["--layout", "stacked", "--canvas", "big"], "invalid frame size 'big'"),
        (["--layout", "stacked", "--canvas", "20000x100"], "at most 16384"),
        (["--layout", "pip", "--canvas", "62x1920"], "too small for a layout"),
        (["--canvas", "1080x1920"], "give --layout too"),
        (["--layout", "diagonal"], "unknown layout 'diagonal'"),
        (["--layout", "stacked", "--output-per-device"], "give one of them"),
        (["--layout", "stacked", "--codec", "copy"], "onto one canvas"),
    ])
    func badLayoutOptionsAreUsageErrors(_ arguments: [String], _ mentions: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.run(["-d", "/dev/video0", "-d", "/dev/video1"] + arguments + ["--max-duration", "1", folder.path("c-{index}.mp4")],
                                       environment: environment(2))
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains(mentions), "\(run.stderr)")
        #expect(!run.stderr.contains("\n") || run.stderr.split(separator: "\n").count == 1, "one line: \(run.stderr)")
        #expect(folder.contents.isEmpty)
    }

    /// Two cameras stacked on 640x960, the second unplugged at its 60th frame.
    func recordLosingCameraTwo(_ extra: [String], folder: TemporaryFolder) throws -> (ChildProcessResult, String) {
        let movie = folder.path("lost.mp4")
        let spec = Self.cameras[0] + ";" + Self.cameras[1].replacing(",late=300ms", with: ",fault=unplug@60")
        var environment = try VirtualCameraEnvironment.shared().environment(spec: spec)
        environment["CAMREC_DEVICE_PATHS"] = nil
        let run = try CamrecBinary.run(["-d", "/dev/video0", "-d", "/dev/video1", "--layout", "stacked", "--canvas", "640x960",
                                        "--audio", "test", "--json", movie] + extra,
                                       environment: environment, timeout: 120)
        return (run, movie)
    }

    @Test("a camera lost mid-run: its cell turns black, the movie goes on with the others to its exact limit, exit 79 (camera-lost)")
    func aLostCameraLeavesItsCellBlack() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (run, movie) = try recordLosingCameraTwo(["--max-duration", "4"], folder: folder)
        #expect(run.status == 79, "\(run.stderr.suffix(2000))")
        let lines = JSONLines.parse(run)
        let result = try #require(lines.last)
        #expect(result["reason"] as? String == "camera-lost")
        #expect((result["message"] as? String)?.contains("camera 2 (/dev/video1)") == true, "\(String(describing: result["message"]))")
        let warnings = lines.filter { $0["type"] as? String == "warning" }.compactMap { $0["message"] as? String }
        #expect(warnings.contains { $0.contains("camera 2 (/dev/video1)") && $0.contains("cell is black") }, "\(warnings)")
        let file = try #require((result["files"] as? [[String: Any]])?.first)
        // The whole limit: 4 s at 30 fps, by ffprobe as by the result, with the sound.
        let probe = try MediaProbe.probe(movie)
        #expect(probe.frames == 120 && file["frames"] as? Int == 120, "ffprobe \(probe.frames), result \(String(describing: file["frames"]))")
        let streams = try ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", movie])
        #expect(streams.stdoutText.split(separator: "\n") == ["video", "audio"], "\(streams.stdoutText)")
        #expect(try MediaProbe.decodeErrors(movie).isEmpty)

        let cameras = try #require((result["layout"] as? [String: Any])?["cameras"] as? [[String: Any]])
        var rects: [Rect] = []
        for camera in cameras {
            rects.append(try Rect(x: #require(camera["x"] as? Int), y: #require(camera["y"] as? Int),
                                  width: #require(camera["width"] as? Int), height: #require(camera["height"] as? Int)))
        }
        // Camera 1 goes on in every frame, never back. (A loaded machine may hold its branch
        // back for a moment, and a canvas frame then shows its previous frame again, as
        // `recordAndCheck` allows: nine frames in ten are new.)
        let first = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: movie),
                                                   region: .init(x: rects[0].x, y: rects[0].y, width: rects[0].width, sourceWidth: Self.sizes[0].0))
        let firstRead = first.compactMap { $0 }
        let steps = zip(firstRead, firstRead.dropFirst())
        #expect(firstRead.count == 120 && steps.allSatisfy { $1 >= $0 }, "camera 1: \(first)")
        #expect(steps.filter { $1 > $0 }.count * 10 >= 119 * 9, "camera 1: \(first)")
        // Camera 2 shows up to its loss (its frames up to 59), then its cell is black.
        let second = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: movie),
                                                    region: .init(x: rects[1].x, y: rects[1].y, width: rects[1].width, sourceWidth: Self.sizes[1].0))
        let shown = second.prefix { $0 != nil }.compactMap { $0 }
        #expect(shown.count >= 20 && (shown.last ?? 0) <= 59, "camera 2: \(second)")
        // Black from the loss to the end (the canvas may show the last frame a moment longer
        // on a loaded machine, until the branch's end reaches the compositor).
        #expect(second.dropFirst(shown.count).allSatisfy { $0 == nil }, "camera 2 after its loss: \(second)")
        for frame in [min(shown.count + 15, 100), 115] {
            let luma = try Self.meanLuma(movie, rects[1], frame: frame)
            #expect(luma < 24, "camera 2's cell in frame \(frame): mean luma \(luma), not black")
            #expect(try Self.meanLuma(movie, rects[0], frame: frame) > 60, "camera 1's cell in frame \(frame) has no picture")
        }
    }

    @Test("--reconnect: a lost camera comes back into its cell (at another node), in the same movie, which ends as usual")
    func aLostCameraComesBackIntoItsCell() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("back.mkv")
        let spec = Self.cameras[0] + ";" + Self.cameras[1].replacing(",late=300ms", with: ",fault=unplug@45,replug=300@/dev/video3")
        var environment = try VirtualCameraEnvironment.shared().environment(spec: spec)
        environment["CAMREC_DEVICE_PATHS"] = nil
        let run = try CamrecBinary.run(["-d", "/dev/video0", "-d", "/dev/video1", "--layout", "stacked", "--canvas", "640x960",
                                        "--reconnect", "--max-duration", "5", "--json", movie],
                                       environment: environment, timeout: 120)
        #expect(run.status == 0, "\(run.stderr.suffix(2000))")
        let lines = JSONLines.parse(run)
        let result = try #require(lines.last)
        #expect(result["reason"] as? String == "max-duration", "\(result)")
        let back = lines.filter { $0["type"] as? String == "camera-back" }
        #expect(back.count == 1 && back.first?["device"] as? String == "/dev/video3", "\(back)")
        let warnings = lines.filter { $0["type"] as? String == "warning" }.compactMap { $0["message"] as? String }
        #expect(warnings.contains { $0.contains("camera 2 (/dev/video1) lost") }, "\(warnings)")
        // One movie, the whole limit.
        let files = try #require(result["files"] as? [[String: Any]])
        #expect(files.filter { $0["kind"] as? String == "movie" }.count == 1)
        let probe = try MediaProbe.probe(movie)
        #expect(probe.frames == 150, "ffprobe counted \(probe.frames)")
        #expect(try MediaProbe.decodeErrors(movie).isEmpty)

        let cameras = try #require((result["layout"] as? [String: Any])?["cameras"] as? [[String: Any]])
        let rect = try Rect(x: #require(cameras[1]["x"] as? Int), y: #require(cameras[1]["y"] as? Int),
                            width: #require(cameras[1]["width"] as? Int), height: #require(cameras[1]["height"] as? Int))
        let first = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: movie),
                                                   region: .init(x: 0, y: 0, width: 640, sourceWidth: Self.sizes[0].0))
        #expect(first.compactMap { $0 }.count == 150, "camera 1 on every frame: \(first)")
        // Camera 2: its first stream up to its loss, black while it is away, then its
        // second stream (sequence numbers from 0 again) to the end, in the same cell.
        let second = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: movie),
                                                    region: .init(x: rect.x, y: rect.y, width: rect.width, sourceWidth: Self.sizes[1].0))
        let before = second.prefix { $0 != nil }.compactMap { $0 }
        let away = second.dropFirst(before.count).prefix { $0 == nil }.count
        let after = second.dropFirst(before.count + away)
        #expect(before.count >= 20 && (before.last ?? 0) <= 44, "camera 2 before: \(second)")
        #expect(away >= 5, "camera 2 away for \(away) frames: \(second)")
        let again = after.compactMap { $0 }
        #expect(after.count >= 20 && again.count == after.count, "camera 2 after: \(second)")
        #expect((again.first ?? 99) < 10 && zip(again, again.dropFirst()).allSatisfy { $1 >= $0 }, "camera 2's second stream: \(again)")
        let luma = try Self.meanLuma(movie, rect, frame: before.count + away / 2)
        #expect(luma < 24, "camera 2's cell while it was away: mean luma \(luma)")
    }

    @Test("--all-or-nothing: a camera lost mid-run ends the composed movie, finalised with the sound, exit 79 (camera-lost)")
    func allOrNothingEndsTheComposedMovie() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (run, movie) = try recordLosingCameraTwo(["--max-duration", "10", "--all-or-nothing"], folder: folder)
        #expect(run.status == 79, "\(run.stderr.suffix(2000))")
        let result = try #require(JSONLines.parse(run).last)
        #expect(result["reason"] as? String == "camera-lost")
        #expect((result["message"] as? String)?.contains("camera 2 (/dev/video1)") == true, "\(String(describing: result["message"]))")
        #expect((result["layout"] as? [String: Any])?["name"] as? String == "stacked")
        let file = try #require((result["files"] as? [[String: Any]])?.first)
        let frames = try #require(file["frames"] as? Int)
        // Finalised: ffprobe reads every frame the result reports, and the sound is there.
        let probe = try MediaProbe.probe(movie)
        #expect(frames > 0 && frames < 300 && probe.frames == frames, "result \(frames), ffprobe \(probe.frames)")
        let streams = try ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", movie])
        #expect(streams.stdoutText.split(separator: "\n") == ["video", "audio"], "\(streams.stdoutText)")
    }

    @Test("SIGUSR1 takes a still of the composed frame, with the layout, and one of each camera's whole frame, with its rectangle: each the frame the movie shows at its index")
    func theStillIsTheComposedFrame() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("c.mkv")
        let devices = ["/dev/video0", "/dev/video1"]
        let run = try CamrecBinary.start(["-d", devices[0], "-d", devices[1], "--layout", "side-by-side", "--canvas", "1280x480",
                                          "--max-duration", "none", "--json", movie], environment: environment(2))
        defer { if run.process.isRunning { run.signal(SIGKILL) } }
        func cameras(past frame: UInt32) -> Bool {
            let last = MultiCameraTests.delivered(run.stderrText)
            return devices.allSatisfy { (last[$0] ?? 0) >= frame }
        }
        try #require(Wait.until(timeout: 60) { cameras(past: 30) }, "\(run.stderrText.suffix(1000))")
        run.signal(SIGUSR1)
        // The composed still and one per camera.
        try #require(Wait.until(timeout: 60) { run.lines(type: "still").count >= 3 }, "\(run.jsonLines) \(run.stderrText.suffix(1000))")
        // A few frames more, so that the still's frame lies inside the movie.
        let now = MultiCameraTests.delivered(run.stderrText).values.max() ?? 0
        try #require(Wait.until(timeout: 60) { cameras(past: now + 15) })
        run.signal(SIGINT)
        #expect(run.wait() == 0, "\(run.stderrText.suffix(1000))")

        let stills = run.lines(type: "still")
        #expect(stills.count == 3, "\(stills)")
        let still = try #require(stills.first { $0["device"] == nil })
        let path = try #require(still["path"] as? String)
        #expect(path == folder.path("c-still-0001.jpg") && still["device"] == nil)
        let layout = try #require(still["layout"] as? [String: Any])
        let started = try #require(run.lines(type: "started").first?["layout"] as? [String: Any])
        #expect(NSDictionary(dictionary: layout) == NSDictionary(dictionary: started))
        let resultStill = try #require((run.jsonLines.last?["files"] as? [[String: Any]])?.first { $0["kind"] as? String == "still" })
        #expect(resultStill["layout"] is [String: Any])
        let (width, height) = try FrameStampReader.dimensions(of: URL(fileURLWithPath: path))
        #expect(width == 1280 && height == 480, "the still is \(width)x\(height), not the canvas")
        let frame = try #require(still["frame"] as? Int)
        for (index, camera) in try #require(layout["cameras"] as? [[String: Any]]).enumerated() {
            let region = try FrameStampReader.Region(x: #require(camera["x"] as? Int), y: #require(camera["y"] as? Int),
                                                     width: #require(camera["width"] as? Int), sourceWidth: Self.sizes[index].0)
            let stamp = try FrameStampReader.sequence(inImage: URL(fileURLWithPath: path), region: region)
            let movieStamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: movie), region: region)
            #expect(stamp != nil && frame < movieStamps.count && movieStamps[frame] == stamp,
                    "camera \(index + 1): still stamp \(String(describing: stamp)), movie frame \(frame) of \(movieStamps.count)")

            // The camera's own still: its whole frame at its own size, its device and
            // rectangle, and the index of the movie frame that shows it.
            let own = try #require(stills.first { $0["device"] as? String == devices[index] }, "\(stills)")
            let ownPath = try #require(own["path"] as? String)
            #expect(ownPath == folder.path("c-\(index + 1)-still-0001.jpg"))
            #expect(own["layout"] == nil)
            let rect = try #require(own["rect"] as? [String: Any])
            #expect(["x", "y", "width", "height"].allSatisfy { rect[$0] as? Int == camera[$0] as? Int }, "\(rect) against \(camera)")
            let size = try FrameStampReader.dimensions(of: URL(fileURLWithPath: ownPath))
            #expect(size.0 == Self.sizes[index].0 && size.1 == Self.sizes[index].1, "camera \(index + 1)'s still is \(size)")
            let ownStamp = try FrameStampReader.sequence(inImage: URL(fileURLWithPath: ownPath))
            let ownFrame = try #require(own["frame"] as? Int, "\(own)")
            #expect(ownStamp != nil && ownFrame < movieStamps.count && movieStamps[ownFrame] == ownStamp,
                    "camera \(index + 1): own still stamp \(String(describing: ownStamp)), movie frame \(ownFrame): \(movieStamps[min(ownFrame, movieStamps.count - 1)] as Any)")
            #expect(abs(ownFrame - frame) <= 3, "camera \(index + 1)'s still is movie frame \(ownFrame), the composed one \(frame)")
        }
        let resultStills = try #require(run.jsonLines.last?["files"] as? [[String: Any]]).filter { $0["kind"] as? String == "still" }
        #expect(resultStills.count == 3 && resultStills.filter { $0["rect"] != nil }.count == 2, "\(resultStills)")
    }

    @Test("--print-pipeline prints the composing pipeline, and gst-launch-1.0 records the same canvas with it")
    func thePrintedPipelineRunsInGstLaunch() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("gst.mp4")
        // Both cameras start at once here: gst-launch has no start barrier.
        let spec = Self.cameras[0] + ";" + Self.cameras[1].replacing(",late=300ms", with: "")
        var environment = try VirtualCameraEnvironment.shared().environment(spec: spec)
        environment["CAMREC_DEVICE_PATHS"] = nil
        let printed = try CamrecBinary.run(["-d", "/dev/video0", "-d", "/dev/video1", "--layout", "side-by-side", "--canvas", "1280x480",
                                            "--print-pipeline", movie], environment: environment)
        #expect(printed.status == 0, "\(printed.stderr)")
        let lines = printed.stdoutText.split(separator: "\n")
        let line = try #require(lines.count == 1 ? lines.first : nil, "one line: \(printed.stdoutText)")
        #expect(line.hasPrefix("gst-launch-1.0 -e v4l2src device=/dev/video0 name=camera1 "))
        // 60 frames from each camera, then each sends EOS, and the canvas ends with the last.
        // The line is for a shell (OUTPUT is shell-quoted).
        let command = String(line).replacing("v4l2src ", with: "v4l2src num-buffers=60 ")
        let run = try ChildProcess.run("/bin/sh", ["-c", command], environment: environment, timeout: 120)
        try #require(run.status == 0, "\(run.stderr.suffix(2000))")
        let probe = try MediaProbe.probe(movie)
        #expect(probe.width == 1280 && probe.height == 480 && probe.frames >= 55, "\(probe.width)x\(probe.height), \(probe.frames) frames")
        // The rectangles camrec reports for this layout: 640x480 at 0,0 and 640x360 at 640,60.
        for (index, rect) in [Rect(x: 0, y: 0, width: 640, height: 480), Rect(x: 640, y: 60, width: 640, height: 360)].enumerated() {
            let stamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: movie),
                                                        region: .init(x: rect.x, y: rect.y, width: rect.width, sourceWidth: Self.sizes[index].0))
            #expect(stamps.compactMap { $0 }.count >= 50, "camera \(index + 1): \(stamps.compactMap { $0 }.count) of \(stamps.count) stamps read")
        }
    }

    @Test func aLayoutNeedsSeveralCameras() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.run(["-d", "/dev/video0", "--layout", "grid", "--max-duration", "1", folder.path("c.mp4")],
                                       environment: environment(2))
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--layout composes several cameras"), "\(run.stderr)")
        #expect(folder.contents.isEmpty)
    }
}

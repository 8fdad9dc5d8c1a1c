import Foundation
import Synchronization
import Testing

/// The picture options end to end: rotation and mirroring in the movie and its stills,
/// text and image overlays, and the errors that leave nothing behind.
///
/// The emulated camera draws the same picture for the same sequence number in every run,
/// and `overrun=wait` keeps every frame, so frame k of two recordings of the same camera
/// shows the same camera frame: a recording with a picture option is compared with a plain
/// one frame by frame, against what ffmpeg's own filters make of the plain frame. Every
/// recording stops at `--max-duration`; nothing waits on wall-clock time.
@Suite(.serialized) struct PictureTests {
    static let width = 640, height = 480

    func camera(_ format: String = "yuyv") throws -> [String: String] {
        try VirtualCameraEnvironment.shared().environment(spec: "/dev/video0,formats=\(format),overrun=wait")
    }

    /// Records `seconds` of 640x480 at 30 fps with `options`; fails the test on a bad exit.
    func record(_ path: String, _ options: [String], seconds: Int = 1, format: String = "yuyv") throws -> [[String: Any]] {
        let result = try CamrecBinary.run(["--size", "\(Self.width)x\(Self.height)", "--fps", "30", "--max-duration", "\(seconds)s",
                                           "--json", "--force"] + options + [path], environment: camera(format), timeout: 120)
        try #require(result.status == 0, "camrec \(options) failed: \(result.stderr)")
        return JSONLines.parse(result)
    }

    /// The plain 1-s YUYV recording (no picture option) that the orientation and overlay
    /// tests compare with, made once per test process: the camera draws the same picture
    /// for the same sequence number in every run, so one plain recording is the same as one
    /// per test. Each test still checks what it needs of it (the stamps, the regions).
    /// Kept in a folder of its own for the whole run, removed when the test process exits.
    static let plainMovie = Mutex<Result<String, any Error>?>(nil)

    func plainRecording() throws -> String {
        try Self.plainMovie.withLock { made in
            if let made { return try made.get() }
            let result = Result<String, any Error> {
                let folder = try TemporaryFolder.forTheRun()
                let plain = folder.path("plain.mp4")
                _ = try record(plain, [])
                return plain
            }
            made = result
            return try result.get()
        }
    }

    // MARK: orientation

    @Test(arguments: [
        (["--rotate", "90"], "transpose=clock", true),
        (["--mirror"], "hflip", false),
        (["--rotate", "270", "--flip", "vertical"], "transpose=cclock,vflip", true),
        (["--rotate", "180"], "hflip,vflip", false),
    ])
    func orientedFramesMatchFFmpegsFilterOfThePlainRecording(options: [String], filter: String, swaps: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (plain, turned) = (try plainRecording(), folder.path("turned.mp4"))
        let lines = try record(turned, options)
        let size = swaps ? (Self.height, Self.width) : (Self.width, Self.height)
        let probe = try MediaProbe.probe(turned)
        #expect((probe.width, probe.height) == size, "ffprobe: \(probe.width)x\(probe.height)")
        let started = try #require(lines.first { $0["type"] as? String == "started" })
        #expect(started["size"] as? String == "\(size.0)x\(size.1)")
        // Frame k of both movies is camera frame k (the plain movie's stamps say so).
        let stamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: plain))
        try #require(stamps.prefix(20) == ArraySlice((0..<20).map { UInt32?($0) }), "plain stamps \(stamps.prefix(20))")
        for k in [3, 17] {
            let expected = try Luma.frame(plain, index: k, filter: filter)
            let actual = try Luma.frame(turned, index: k)
            #expect((actual.width, actual.height) == size)
            let psnr = Luma.psnr(expected, actual)
            #expect(psnr > 35, "frame \(k): PSNR \(psnr) dB against ffmpeg's \(filter) of the plain frame")
            // The same frame not turned is clearly different: the comparison can tell.
            if !swaps {
                #expect(Luma.psnr(try Luma.frame(plain, index: k), actual) < 22)
            }
        }
    }

    /// A still taken during a turned recording is turned too, from an MJPEG camera as well
    /// (whose stills are otherwise its own JPEGs): un-turned by ffmpeg, its stamp reads,
    /// and it matches the plain movie's frame with that stamp.
    @Test(arguments: ["yuyv", "mjpeg"])
    func stillsOfATurnedRecordingAreTurned(format: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (plain, turned) = (folder.path("plain.mkv"), folder.path("turned.mkv"))
        _ = try record(plain, [], seconds: 2, format: format)
        let lines = try record(turned, ["--rotate", "90", "--still-every", "1s", "--still-format", "png"], seconds: 2, format: format)
        let still = try #require(lines.first { $0["type"] as? String == "still" }?["path"] as? String, "no still: \(lines)")
        let probe = try MediaProbe.probe(still)
        #expect((probe.width, probe.height) == (Self.height, Self.width))
        let upright = folder.path("upright.png")
        let undo = try ChildProcess.run("ffmpeg", ["-v", "error", "-y", "-i", still, "-vf", "transpose=cclock", upright])
        try #require(undo.status == 0, "\(undo.stderr)")
        let sequence = try #require(try FrameStampReader.sequence(inImage: URL(fileURLWithPath: upright)), "the un-turned still has no stamp")
        let stamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: plain))
        let index = try #require(stamps.firstIndex(of: sequence), "camera frame \(sequence) is not in the plain movie")
        let psnr = Luma.psnr(try Luma.frame(plain, index: index, filter: "transpose=clock"), try Luma.image(still))
        #expect(psnr > 30, "still of camera frame \(sequence): PSNR \(psnr) dB")
    }

    @Test func cameraStillIsTurnedAndMirrored() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let photo = folder.path("photo.png")
        let result = try CamrecBinary.run(["still", "--size", "640x480", "--settle", "0", "--rotate", "270", "--mirror", "--json", photo],
                                          environment: camera(), timeout: 120)
        try #require(result.status == 0, "\(result.stderr)")
        let probe = try MediaProbe.probe(photo)
        #expect((probe.width, probe.height) == (Self.height, Self.width))
        // 270° then a horizontal mirror is the anti-diagonal transpose, its own inverse: ffmpeg's
        // transpose=clock_flip (90° clockwise, then upside down) makes the photo upright again.
        let upright = folder.path("upright.png")
        let undo = try ChildProcess.run("ffmpeg", ["-v", "error", "-y", "-i", photo, "-vf", "transpose=clock_flip", upright])
        try #require(undo.status == 0, "\(undo.stderr)")
        #expect(try FrameStampReader.sequence(inImage: URL(fileURLWithPath: upright)) != nil, "the un-turned photo has no stamp")
    }

    // MARK: overlays

    /// Text at the bottom left and an opaque image at the top right change only their own
    /// regions: the rest of each frame matches the plain recording's.
    @Test func overlaysChangeOnlyTheirRegions() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let logo = folder.path("logo.png")
        try #require(try ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=white:s=80x40", "-frames:v", "1", logo]).status == 0)
        let (plain, marked) = (try plainRecording(), folder.path("marked.mp4"))
        _ = try record(marked, ["--overlay", "%Y-%m-%d %H:%M:%S #{frame}", "--overlay-position", "bottom-left",
                                "--overlay-image", logo])
        for k in [5, 20] {
            let a = try Luma.frame(plain, index: k), b = try Luma.frame(marked, index: k)
            // The text: 20 px high (480 / 24), 10 px from the left and bottom edges.
            let text = Luma.meanDifference(a, b, x: 0..<320, y: 440..<480)
            // The image: 80x40, 10 px from the top and right edges.
            let image = Luma.meanDifference(a, b, x: 550..<630, y: 10..<50)
            let rest = Luma.meanDifference(a, b, x: 0..<540, y: 60..<420)
            #expect(text > 8, "frame \(k): text region differs by \(text)")
            #expect(image > 30, "frame \(k): image region differs by \(image)")
            #expect(rest < 2.5, "frame \(k): the rest differs by \(rest)")
        }
    }

    /// `%S` of the capture time: the text's glyphs change only when the second changes,
    /// every 30 frames at 30 fps (the camera's frames keep their due timestamps, even when
    /// delivered late on a loaded machine), never from one frame to the next within a
    /// second, as a per-frame field would. Which frame starts a second is exact in the
    /// unit tests (CaptureTimeTests), from the frame's timestamp.
    @Test func secondsTextChangesOncePerSecondOfFrames() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (plain, marked) = (folder.path("plain.mp4"), folder.path("marked.mp4"))
        _ = try record(plain, [], seconds: 3)
        _ = try record(marked, ["--overlay", "%S", "--overlay-position", "top-left"], seconds: 3)
        let a = try Luma.all(plain), b = try Luma.all(marked)
        try #require(a.count == 90 && b.count == 90, "\(a.count) and \(b.count) frames")
        // The text is white (255 in ffmpeg's full-range gray), in a black outline, 20 px high,
        // 10 px from the top left: below the camera's stamp band, its glyphs are the
        // region's pixels brighter than 215, where the camera's own picture is below 200
        // (it is brighter only under its moving white bar). A frame the bar covers for more
        // than a fifth of the region is skipped: the next one is compared with the last
        // frame compared, so a change under the bar shows a few frames late, never not at all.
        let region = (16..<40).flatMap { y in (0..<60).map { x in y * PictureTests.width + x } }
        var changes: [Int] = []
        var last: (glyphs: [Bool], usable: [Bool])?
        for k in 0..<b.count {
            let usable = region.map { a[k].bytes[$0] < 200 }
            guard usable.count(where: { $0 }) * 5 >= region.count * 4 else { continue }
            let glyphs = region.map { b[k].bytes[$0] > 215 }
            if let last {
                let differing = region.indices.count { usable[$0] && last.usable[$0] && glyphs[$0] != last.glyphs[$0] }
                if differing > 20 { changes.append(k) }
            }
            last = (glyphs, usable)
        }
        #expect((2...4).contains(changes.count), "text changed at frames \(changes)")
        for (earlier, later) in zip(changes, changes.dropFirst()) {
            #expect((20...40).contains(later - earlier), "text changed at frames \(changes): not once a second")
        }
    }

    // MARK: errors

    @Test(arguments: ["missing", "text", "folder"])
    func badOverlayImageIsRefusedWithNothingRecorded(kind: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var image = folder.path("missing.png")
        if kind == "text" {
            image = folder.path("logo.png")
            try Data("not a picture".utf8).write(to: URL(fileURLWithPath: image))
        } else if kind == "folder" {
            image = folder.path("pics")
            try FileManager.default.createDirectory(atPath: image, withIntermediateDirectories: false)
        }
        let before = Set(folder.contents)
        let output = folder.path("movie.mp4")
        let result = try CamrecBinary.run(["--size", "640x480", "--max-duration", "1", "--overlay-image", image, output],
                                          environment: camera())
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("--overlay-image") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(Set(folder.contents) == before, "\(folder.contents)")
        let photo = try CamrecBinary.run(["still", "--size", "640x480", "--settle", "0", "--overlay-image", image, folder.path("p.jpg")],
                                         environment: camera())
        #expect(photo.status == 65, "\(photo.stderr)")
        #expect(Set(folder.contents) == before, "\(folder.contents)")
    }

    @Test func badPictureValuesAreUsageErrors() throws {
        for options in [["--rotate", "45"], ["--flip", "sideways"], ["--overlay", "{frames}"], ["--mirror", "--flip", "vertical"],
                        ["--overlay-position", "top"], ["--overlay", "x", "--overlay-position", "middle"]] {
            let result = try CamrecBinary.run(["--device", "test", "--max-duration", "1"] + options + ["/tmp/camrec-never.mp4"])
            #expect(result.status == 64, "\(options): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(options): \(result.stderr)")
        }
    }

    /// Without gstreamer1.0-x (Pango), --overlay exits 69 naming the package; a recording
    /// without it still works.
    @Test func missingTextPluginNamesThePackage() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let environment = try PluginRegistry.environment(withoutPlugin: "libgstpango.so", in: folder)
        let output = folder.path("movie.mp4")
        let result = try CamrecBinary.run(["--device", "test", "--max-duration", "1", "--overlay", "%H:%M", output], environment: environment)
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("textoverlay") && result.stderr.contains("gstreamer1.0-x"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(!(folder.contents.contains { $0.contains("partial") }))
    }

    @Test func printedPipelineShowsThePictureElements() throws {
        let result = try CamrecBinary.run(["--device", "test", "--rotate", "90", "--overlay", "%H:%M:%S {frame}", "--print-pipeline", "/tmp/x.mp4"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText.contains("! camrecflip name=orient method=90r ! textoverlay name=overlay text='%H:%M:%S {frame}'"),
                "\(result.stdoutText)")
    }
}

/// 8-bit luma of decoded frames, by ffmpeg.
enum Luma {
    struct Picture {
        var width: Int
        var height: Int
        var bytes: [UInt8]
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Frame `index` of a movie, through an ffmpeg `filter` when given.
    static func frame(_ path: String, index: Int, filter: String? = nil) throws -> Picture {
        try decode(path, filter: "select=eq(n\\,\(index))" + (filter.map { "," + $0 } ?? ""), single: true)[0]
    }

    /// A still image.
    static func image(_ path: String) throws -> Picture { try decode(path, filter: nil, single: true)[0] }

    /// Every frame of a movie.
    static func all(_ path: String) throws -> [Picture] { try decode(path, filter: nil, single: false) }

    private static func decode(_ path: String, filter: String?, single: Bool) throws -> [Picture] {
        var args = ["-v", "error", "-i", path]
        if let filter { args += ["-vf", filter] }
        args += single ? ["-frames:v", "1"] : ["-fps_mode", "passthrough"]
        let size = try filteredSize(path, filter: filter)
        let result = try ChildProcess.run("ffmpeg", args + ["-f", "rawvideo", "-pix_fmt", "gray", "-"], timeout: 120)
        guard result.status == 0 else { throw Failure(description: "ffmpeg on \(path): \(result.stderr)") }
        let frameBytes = size.width * size.height
        let bytes = [UInt8](result.stdout)
        guard frameBytes > 0, bytes.count >= frameBytes, bytes.count % frameBytes == 0 else {
            throw Failure(description: "ffmpeg gave \(bytes.count) bytes for \(size.width)x\(size.height) frames of \(path)")
        }
        return stride(from: 0, to: bytes.count, by: frameBytes).map {
            Picture(width: size.width, height: size.height, bytes: Array(bytes[$0..<$0 + frameBytes]))
        }
    }

    /// The frame size after `filter` (transpose swaps it).
    private static func filteredSize(_ path: String, filter: String?) throws -> (width: Int, height: Int) {
        let (w, h) = try FrameStampReader.dimensions(of: URL(fileURLWithPath: path))
        return filter?.contains("transpose") == true ? (h, w) : (w, h)
    }

    /// Peak signal-to-noise ratio of two pictures of the same size, in dB (0 when sizes differ).
    static func psnr(_ a: Picture, _ b: Picture) -> Double {
        guard a.width == b.width, a.height == b.height, !a.bytes.isEmpty else { return 0 }
        var sum = 0.0
        for i in 0..<a.bytes.count {
            let d = Double(a.bytes[i]) - Double(b.bytes[i])
            sum += d * d
        }
        let mse = sum / Double(a.bytes.count)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    /// Mean absolute difference over a rectangle.
    static func meanDifference(_ a: Picture, _ b: Picture, x: Range<Int>, y: Range<Int>) -> Double {
        var sum = 0
        for row in y {
            for column in x {
                let i = row * a.width + column
                sum += abs(Int(a.bytes[i]) - Int(b.bytes[i]))
            }
        }
        return Double(sum) / Double(x.count * y.count)
    }
}

import Foundation
import Testing

/// Issue 31 item 7: `--settle` with several cameras in movies of their own. Each camera
/// settles as one camera does (its dark first frames are not recorded, a `settled` line
/// names it), and only then does it offer its frames to the start barrier: every movie
/// starts at the same instant, after the slowest camera settled. Checked on what the
/// emulated cameras captured (`trace=frames` capture times, each frame's stamp read back
/// from the movie), with ffprobe and ffmpeg.
@Suite(.serialized) struct MultiCameraSettleTests {
    static let devices = ["/dev/video0", "/dev/video1"]

    static func environment(_ specs: [String]) throws -> [String: String] {
        var environment = try VirtualCameraEnvironment.shared().environment(spec: specs.joined(separator: ";"))
        environment["CAMREC_DEVICE_PATHS"] = nil
        environment["SWIFT_BACKTRACE"] = "enable=no"
        return environment
    }

    /// Records 2 s with `--settle 10s` and `arguments` (OUTPUT last) from two cameras, the
    /// first dark for 45 frames (1.5 s), the second, which also starts 300 ms late, for 90
    /// (3 s); the run must succeed. Its JSON lines are parsed.
    static func recordDarkCameras(_ arguments: [String]) throws -> (ChildProcessResult, [[String: Any]]) {
        let run = try CamrecBinary.run(devices.flatMap { ["--device", $0] } + ["--settle", "10s", "--max-duration", "2", "--json"]
                                       + arguments,
                                       environment: environment([MultiCameraTests.camera(0, ",dark=45"),
                                                                 MultiCameraTests.camera(1, ",dark=90,late=300ms")]),
                                       timeout: 120)
        try #require(run.status == 0, "\(run.stderr.suffix(2000))")
        return (run, JSONLines.parse(run))
    }

    /// Camera 1 is dark for 45 frames (1.5 s), camera 2, which also starts 300 ms late,
    /// for 90 (3 s): each settles in its own time, and both movies start together, bright,
    /// with exactly --max-duration of frames each.
    @Test func eachCameraSettlesAndTheMoviesStartTogether() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (run, lines) = try Self.recordDarkCameras([folder.path("m.mp4")])
        // One settled line per camera, naming it, each after its own dark frames.
        let settled = lines.filter { $0["type"] as? String == "settled" }
        #expect(Set(settled.compactMap { $0["device"] as? String }) == Set(Self.devices), "\(settled)")
        for line in settled {
            #expect(line["stable"] as? Bool == true, "\(line)")
            let dark = line["device"] as? String == Self.devices[0] ? 45 : 90
            #expect((line["frames"] as? Int ?? 0) >= dark, "\(line)")
            #expect((line["camera"] as? Int) == (line["device"] as? String == Self.devices[0] ? 1 : 2), "\(line)")
        }
        let result = try #require(lines.last)
        #expect(result["type"] as? String == "result" && result["reason"] as? String == "max-duration", "\(result)")

        let movies = [folder.path("m-1.mp4"), folder.path("m-2.mp4")]
        let times = MultiCameraTests.captureTimes(run.stderr)
        var firsts: [Double] = []
        for (index, movie) in movies.enumerated() {
            #expect(try MediaProbe.probe(movie).frames == 60, "\(movie)")
            let sequences = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: movie)).compactMap { $0 }
            let first = try #require(sequences.first, "\(movie): no readable stamp")
            // The dark frames are not in the movie (90 frames of camera 2's, at least).
            #expect(first >= (index == 0 ? 45 : 90), "\(movie) starts with camera frame \(first)")
            firsts.append(try #require(times[Self.devices[index]]?[first], "no capture time for \(movie)'s frame \(first)"))
            // Bright from its first frame to its last.
            let start = try PictureMeans.of(movie, frame: 0)
            let end = try PictureMeans.of(movie, frame: 59)
            #expect(abs(start.y - end.y) < 4, "\(movie): first \(start), last \(end)")
        }
        // Both movies' first frames were captured within one frame interval, although the
        // first camera settled about 1.8 s before the second.
        #expect((firsts.max() ?? 0) - (firsts.min() ?? 0) < 1.0 / 30, "first frames captured at \(firsts)")
    }

    /// Issue 31: `--settle` with `--layout`. Camera 1 is dark for 45 frames, camera 2
    /// (which also starts 300 ms late) for 90: the canvas settles once both cameras'
    /// pictures are stable, measured each in its own rectangle, so one `settled` line (the
    /// canvas's, naming no camera) comes after camera 2's dark frames, and the movie starts
    /// bright in both rectangles, at 0, with exactly --max-duration of frames. The canvas
    /// is 322 wide: its rows are 324 bytes apart, which the measure must read through. With
    /// pip, camera 2 is an inset a sixteenth of the canvas: its change would hardly show in
    /// the canvas's mean.
    @Test(arguments: [("stacked", "322x484"), ("pip", "322x242")])
    func aCanvasSettlesWhenEveryCameraHas(layout: String, canvas: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("both.mp4")
        let (_, lines) = try Self.recordDarkCameras(["--layout", layout, "--canvas", canvas, movie])
        let settled = lines.filter { $0["type"] as? String == "settled" }
        try #require(settled.count == 1, "\(settled)")
        let line = settled[0]
        #expect(line["stable"] as? Bool == true, "\(line)")
        #expect(line["device"] == nil && line["camera"] == nil, "\(line)")
        // Camera 2's first frame is on about the first canvas frame measured: its 90 dark
        // frames, and the 6 that must agree, are all held back.
        #expect((line["frames"] as? Int ?? 0) >= 90, "\(line)")
        let started = try #require(lines.first { $0["type"] as? String == "started" })
        #expect(lines.firstIndex { $0["type"] as? String == "started" } ?? 99 < lines.firstIndex { $0["type"] as? String == "settled" } ?? 0)
        let result = try #require(lines.last)
        #expect(result["type"] as? String == "result" && result["reason"] as? String == "max-duration", "\(result)")

        #expect(try MediaProbe.probe(movie).frames == 60)
        let times = try PictureMeans.frameTimes(movie)
        #expect(times.first == 0, "\(times.prefix(3))")
        let cameras = try #require((started["layout"] as? [String: Any])?["cameras"] as? [[String: Any]])
        try #require(cameras.count == 2, "\(started)")
        for camera in cameras {
            let rect = ["x", "y", "width", "height"].compactMap { camera[$0] as? Int }
            try #require(rect.count == 4, "\(camera)")
            // Bright from the first frame to the last, in each camera's own rectangle.
            let first = try Self.lumaMean(movie, frame: 0, rect: rect)
            let last = try Self.lumaMean(movie, frame: 59, rect: rect)
            #expect(abs(first - last) < 4, "\(camera): first \(first), last \(last)")
        }
    }

    /// The mean luma of `rect` (x, y, width, height, inset by an eighth on each side to
    /// keep clear of the edges' blending) of frame `frame` of `movie`, decoded by ffmpeg.
    static func lumaMean(_ movie: String, frame: Int, rect: [Int]) throws -> Double {
        let (x, y, width, height) = (rect[0] + rect[2] / 8, rect[1] + rect[3] / 8, rect[2] * 3 / 4, rect[3] * 3 / 4)
        let result = try ChildProcess.run("ffmpeg", [
            "-nostdin", "-v", "error", "-i", movie,
            "-vf", "select=eq(n\\,\(frame)),crop=\(width):\(height):\(x):\(y),scale=16:16",
            "-fps_mode", "passthrough", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", "-",
        ])
        let bytes = [UInt8](result.stdout)
        guard result.status == 0, bytes.count == 256 else {
            throw PictureMeans.Failure(description: "ffmpeg decoded \(bytes.count) bytes of \(movie) frame \(frame): \(result.stderr)")
        }
        return Double(bytes.reduce(0) { $0 + Int($1) }) / 256
    }
}

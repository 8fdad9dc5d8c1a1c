import Foundation
import Testing

/// VirtualCamera's motion scene (`objects=`, `ramp=`, `noise=`; docs/virtual-camera.md, Motion
/// scene), the camera that `--on-motion` is tested against: an object is in the picture in
/// exactly the frames scheduled for it, while the ramp and the noise change the picture too
/// slowly or too finely for a detector that looks at a 64x48 picture. ffmpeg reads the camera
/// (`overrun=wait`: no frame is lost on a loaded machine) and hands over each frame's luma
/// plane as it was decoded; every frame's stamp says which sequence number it is.
@Suite("VirtualCamera: motion scene")
struct VirtualCameraSceneTests: VirtualCameraHarness {
    static let width = 320, height = 240
    /// The stamp band's height at this width (FrameStampReader.blockSize).
    static let band = FrameStampReader.blockSize(forWidth: width)

    /// One decoded frame: its luma plane, `width` x `height`.
    struct Frame {
        var luma: [UInt8]

        /// The sequence number its stamp carries, nil if unreadable.
        var sequence: UInt32? {
            FrameStampReader.decode(luma: Array(luma[0..<band * width]), stride: width, rows: band,
                                    block: Double(band))
        }

        /// Mean luma over columns x0..<x1 and rows y0..<y1.
        func mean(x0: Int, x1: Int, y0: Int, y1: Int) -> Double {
            var sum = 0
            for y in y0..<y1 {
                for x in x0..<x1 { sum += Int(luma[y * width + x]) }
            }
            return Double(sum) / Double((x1 - x0) * (y1 - y0))
        }

        /// Mean luma below the stamp band.
        var pictureMean: Double { mean(x0: 0, x1: width, y0: band, y1: height) }

        /// The picture below the band as a detector sees it: 5x5 box averages, 64 x 46.
        var coarse: [Double] {
            var out: [Double] = []
            for by in (band + 4) / 5..<height / 5 {
                for bx in 0..<width / 5 { out.append(mean(x0: bx * 5, x1: bx * 5 + 5, y0: by * 5, y1: by * 5 + 5)) }
            }
            return out
        }

        /// Mean absolute difference from `other` over columns x0..<x1 and rows y0..<y1.
        func difference(from other: Frame, x0: Int, x1: Int, y0: Int, y1: Int) -> Double {
            var sum = 0
            for y in y0..<y1 {
                for x in x0..<x1 { sum += abs(Int(luma[y * width + x]) - Int(other.luma[y * width + x])) }
            }
            return Double(sum) / Double((x1 - x0) * (y1 - y0))
        }
    }

    /// The object's rectangle in its k-th frame of n, as docs/virtual-camera.md gives it.
    static func objectRect(step k: Int, of n: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let ow = width / 4 & ~1, oh = height / 4 & ~1
        let y = max((height - oh) / 2 & ~1, band)
        let x = (width / 8 + (n > 1 ? (width / 2) * k / (n - 1) : 0)) & ~1
        return (x, y, ow, oh)
    }

    /// `count` frames of `format` (an ffmpeg `-input_format`) from a camera with `keys`, and
    /// the camera's `trace=frames` lines.
    func capture(_ format: String, keys: String, count: Int) throws -> (frames: [Frame], trace: [String]) {
        let spec = "/dev/video0,formats=\(format == "yuyv422" ? "yuyv" : format),sizes=\(Self.width)x\(Self.height)@30,"
            + "\(keys),overrun=wait,trace=frames"
        // the luma plane as decoded: no range conversion (yuyv422 is only repacked first)
        let filter = format == "yuyv422" ? "format=yuv422p,extractplanes=y" : "extractplanes=y"
        let run = try ChildProcess.run("ffmpeg", [
            "-nostdin", "-v", "error", "-f", "v4l2", "-input_format", format,
            "-video_size", "\(Self.width)x\(Self.height)", "-framerate", "30", "-i", "/dev/video0",
            "-frames:v", "\(count)", "-vf", filter, "-fps_mode", "passthrough", "-f", "rawvideo", "-",
        ], environment: try env(spec: spec), timeout: 60)
        try #require(run.status == 0 && !run.timedOut, "ffmpeg: \(run.stderr.suffix(600))")
        let size = Self.width * Self.height
        let bytes = [UInt8](run.stdout)
        try #require(bytes.count == count * size, "decoded \(bytes.count) bytes, not \(count) frames")
        let frames = stride(from: 0, to: bytes.count, by: size).map { Frame(luma: Array(bytes[$0..<$0 + size])) }
        let trace = run.stderr.split(separator: "\n").map(String.init).filter { $0.contains(": frame ") }
        // every frame's stamp reads, and no frame was lost: frame i is sequence number i
        #expect(frames.map(\.sequence) == (0..<count).map { Optional(UInt32($0)) },
                "stamps: \(frames.map { $0.sequence.map(String.init) ?? "?" })")
        return (frames, trace)
    }

    @Test("objects=12:8+30:1+40:6: the object is in exactly the scheduled frames, where the docs place it; the rest of the picture stands still",
          arguments: ["yuyv422", "mjpeg", "h264"])
    func objectsInScheduledFrames(_ format: String) throws {
        let schedule = [(start: 12, frames: 8), (start: 30, frames: 1), (start: 40, frames: 6)]
        let (frames, trace) = try capture(format, keys: "objects=12:8+30:1+40:6", count: 50)
        func step(_ seq: Int) -> (k: Int, n: Int)? {
            schedule.first { seq >= $0.start && seq < $0.start + $0.frames }.map { (seq - $0.start, $0.frames) }
        }
        let reference = frames[0] // no object, and the background does not scroll
        let path = (y0: Self.objectRect(step: 0, of: 1).y, y1: Self.objectRect(step: 0, of: 1).y + Self.height / 4)
        for (seq, frame) in frames.enumerated() {
            if let (k, n) = step(seq) {
                let r = Self.objectRect(step: k, of: n)
                // the middle half of the object: dark (Y 40) where the picture is ~130
                let inside = frame.mean(x0: r.x + r.width / 4, x1: r.x + r.width * 3 / 4,
                                        y0: r.y + r.height / 4, y1: r.y + r.height * 3 / 4)
                let before = reference.mean(x0: r.x + r.width / 4, x1: r.x + r.width * 3 / 4,
                                            y0: r.y + r.height / 4, y1: r.y + r.height * 3 / 4)
                #expect(inside < 50 && before > 90, "frame \(seq): object region \(inside), without it \(before)")
                // beside it, the picture is unchanged
                let left = frame.difference(from: reference, x0: 0, x1: max(r.x - 8, 1), y0: path.y0, y1: path.y1)
                #expect(left < 4, "frame \(seq): the picture left of the object changed by \(left)")
            } else {
                // the rows the object crosses (an object there would change them by ~20) and the whole picture
                let across = frame.difference(from: reference, x0: 0, x1: Self.width, y0: path.y0, y1: path.y1)
                let change = frame.difference(from: reference, x0: 0, x1: Self.width, y0: Self.band, y1: Self.height)
                #expect(across < 4 && change < 4,
                        "frame \(seq): no object scheduled, yet the picture changed by \(across) (its rows), \(change) (all)")
            }
        }
        // it moves: its first and last frames put it in different places
        let first = Self.objectRect(step: 0, of: 8), last = Self.objectRect(step: 7, of: 8)
        #expect(last.x - first.x == Self.width / 2)
        // trace=frames marks the same frames
        let marked = trace.filter { $0.hasSuffix(" object") }.count
        #expect(marked == 15, "\(trace)")
    }

    @Test("ramp=20:40: the picture's mean rises by about 40 over 20 frames and falls back, at most ~2 a frame; a detector's 64x48 view hardly changes",
          arguments: ["yuyv422", "mjpeg", "h264"])
    func rampIsSlow(_ format: String) throws {
        let (frames, _) = try capture(format, keys: "ramp=20:40", count: 42)
        let means = frames.map(\.pictureMean)
        let lift = means.map { $0 - means[0] }
        // lift(n) = 40 * (triangle of period 40) / 20; the white bar clips at 235, so a little less
        for (seq, value) in lift.enumerated() {
            let t = seq % 40, expected = Double(40 * (t <= 20 ? t : 40 - t) / 20)
            #expect(value > expected * 0.85 - 3 && value < expected + 3, "frame \(seq): lift \(value), expected ~\(expected)")
        }
        #expect(lift[20] > 32, "\(lift)")
        for (a, b) in zip(means, means.dropFirst()) {
            #expect(abs(b - a) < 4, "mean \(a) then \(b)")
        }
        let coarse = frames.map(\.coarse)
        for i in 1..<coarse.count {
            let most = zip(coarse[i - 1], coarse[i]).map { abs($0 - $1) }.max() ?? 0
            #expect(most < 10, "frame \(i): a 5x5 block changed by \(most)")
        }
    }

    @Test("noise=12: most pixels change from frame to frame, by at most 24 (YUYV), while the mean and a detector's 64x48 view stay",
          arguments: ["yuyv422", "mjpeg", "h264"])
    func noiseIsFine(_ format: String) throws {
        let (frames, _) = try capture(format, keys: "noise=12", count: 20)
        let means = frames.map(\.pictureMean)
        #expect((means.max() ?? 0) - (means.min() ?? 0) < 1, "\(means)")
        let pixels = Self.band * Self.width..<Self.width * Self.height
        for i in 1..<frames.count {
            let a = frames[i - 1].luma, b = frames[i].luma
            let changes = pixels.map { abs(Int(a[$0]) - Int(b[$0])) }
            let changed = Double(changes.filter { $0 > 0 }.count) / Double(changes.count)
            #expect(changed > 0.8, "frame \(i): only \(changed) of the pixels changed")
            if format == "yuyv422" { #expect(changes.max() == 24, "frame \(i): largest change \(changes.max() ?? 0)") }
            let most = zip(frames[i - 1].coarse, frames[i].coarse).map { abs($0 - $1) }.max() ?? 0
            #expect(most < 15, "frame \(i): a 5x5 block changed by \(most)")
        }
    }

    @Test("all three at once, as --on-motion sees them: only the object's frames change a 5x5 block by more than 25")
    func detectorView() throws {
        let (frames, _) = try capture("mjpeg", keys: "objects=15:10,ramp=30:40,noise=10", count: 40)
        let coarse = frames.map(\.coarse)
        let moving = (1..<coarse.count).filter { i in
            zip(coarse[i - 1], coarse[i]).contains { abs($0 - $1) > 25 }
        }
        // the object appears in 15, moves every frame until 24, and is gone in 25
        #expect(moving == Array(15...25), "\(moving)")
    }

    @Test("objects=none: the picture stands still, YUYV frames identical below the band; without the scene keys it scrolls")
    func stillPicture() throws {
        let (still, _) = try capture("yuyv422", keys: "objects=none", count: 4)
        let (normal, _) = try capture("yuyv422", keys: "dark=0", count: 4)
        let below = Self.band * Self.width..<Self.width * Self.height
        for i in 1..<4 {
            #expect(still[i].luma[below] == still[0].luma[below], "frame \(i) differs from frame 0")
            #expect(normal[i].luma[below] != normal[i - 1].luma[below], "frame \(i) of the normal picture did not scroll")
        }
    }

    @Test("a bad objects=, ramp= or noise= value is reported and ignored: the device still streams, without an object",
          arguments: ["objects=bogus", "objects=0:0", "objects=0:20+15:5", "objects=2:1+1:1", "objects=", "ramp=0", "ramp=30:500",
                      "noise=-3", "noise=65"])
    func badValues(_ keyValue: String) throws {
        let run = try gst("v4l2src device=/dev/video0 num-buffers=3 ! video/x-raw,width=320,height=240 ! fakesink",
                          spec: "/dev/video0,sizes=320x240@30,\(keyValue),trace=frames")
        try expectSuccess(run)
        #expect(run.stderr.contains("camrec VirtualCamera: ignoring bad value '\(keyValue)'"), "\(run.stderr)")
        #expect(!run.stderr.contains(" object"), "\(run.stderr)")
    }
}

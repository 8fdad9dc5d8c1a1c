import Foundation
import Testing

/// VirtualCamera `flash=PERIOD`: the first frame at or after each multiple of PERIOD on
/// CLOCK_MONOTONIC is white, in every format. ffmpeg reads the emulated camera and decodes the
/// picture (which frames are bright is ffmpeg's finding); `trace=frames` prints the timestamp
/// each buffer carries (the same value ffmpeg receives: its PTS differences match to the
/// microsecond), so the test checks the rule on the buffer timestamps themselves.
/// `overrun=wait` keeps every frame on a loaded machine, so the Nth decoded frame is the Nth
/// traced one.
@Suite("VirtualCamera: flash=PERIOD")
struct VirtualCameraFlashTests {
    struct TracedFrame {
        var sequence: Int
        var timestamp: Double
        var flash: Bool
    }

    static func traced(_ stderr: String) -> [TracedFrame] {
        stderr.split(separator: "\n").compactMap { line in
            // camrec VirtualCamera: /dev/video0: frame 18 at 41198.017437 flash
            guard let range = line.range(of: ": frame ") else { return nil }
            let words = line[range.upperBound...].split(separator: " ")
            guard words.count >= 3, words[1] == "at", let seq = Int(words[0]), let t = Double(words[2]) else { return nil }
            return TracedFrame(sequence: seq, timestamp: t, flash: words.count > 3 && words[3] == "flash")
        }
    }

    @Test("flash=500ms: flash frames are exactly the first at or after each multiple of 500 ms, white in the decoded picture",
          arguments: ["yuyv", "mjpeg", "h264"])
    func flashesOnMultiples(_ format: String) throws {
        let period = 0.5, frames = 75
        let env = try VirtualCameraEnvironment.shared().environment(
            spec: "/dev/video0,formats=\(format),sizes=640x480@30,flash=500ms,trace=frames,overrun=wait")
        let width = 64, height = 48
        let run = try ChildProcess.run("ffmpeg", [
            "-nostdin", "-v", "error", "-f", "v4l2", "-timestamps", "abs", "-i", "/dev/video0", "-frames:v", "\(frames)",
            "-vf", "scale=\(width):\(height),format=gray", "-fps_mode", "passthrough", "-f", "rawvideo", "-",
        ], environment: env, timeout: 60)
        try #require(run.status == 0, "ffmpeg: \(run.stderr.suffix(600))")
        let size = width * height
        let means: [Double] = run.stdout.withUnsafeBytes { raw in
            stride(from: 0, through: raw.count - size, by: size).map { start in
                Double(raw[start..<start + size].reduce(0) { $0 + Int($1) }) / Double(size)
            }
        }
        let trace = Self.traced(run.stderr)
        try #require(means.count == frames && trace.count >= frames, "decoded \(means.count), traced \(trace.count)")
        // no frame lost: the decoded frames are the traced ones, in order
        #expect(zip(trace, trace.dropFirst()).allSatisfy { $1.sequence == $0.sequence + 1 })

        for (i, frame) in trace.prefix(frames).enumerated() {
            let bright = means[i] > 200
            #expect(bright == frame.flash, "frame \(frame.sequence) at \(frame.timestamp): mean luma \(means[i]), traced flash \(frame.flash)")
            if i > 0 {
                // the rule, on the timestamps the buffers carry
                let previous = trace[i - 1].timestamp
                let crossed = (frame.timestamp / period).rounded(.down) > (previous / period).rounded(.down)
                #expect(frame.flash == crossed, "frame \(frame.sequence) at \(frame.timestamp), previous at \(previous)")
            }
            if !frame.flash { #expect(means[i] < 160, "frame \(frame.sequence): mean luma \(means[i])") }
        }
        let flashes = trace.prefix(frames).filter(\.flash).map(\.timestamp)
        #expect(flashes.count >= 4, "\(flashes)")
        for t in flashes {
            // at or after its multiple, by less than one frame interval
            let after = t - (t / period).rounded(.down) * period
            #expect(after >= 0 && after < 1.0 / 30 + 1e-6, "flash at \(t): \(after) s after its multiple")
        }
        for (a, b) in zip(flashes, flashes.dropFirst()) {
            #expect(abs((b - a) - period) < 1.0 / 30, "flashes at \(a) and \(b)")
        }
    }
}

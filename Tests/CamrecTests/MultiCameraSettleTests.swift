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

    /// Camera 1 is dark for 45 frames (1.5 s), camera 2, which also starts 300 ms late,
    /// for 90 (3 s): each settles in its own time, and both movies start together, bright,
    /// with exactly --max-duration of frames each.
    @Test func eachCameraSettlesAndTheMoviesStartTogether() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.run(Self.devices.flatMap { ["--device", $0] }
                                       + ["--settle", "10s", "--max-duration", "2", "--json", folder.path("m.mp4")],
                                       environment: Self.environment([MultiCameraTests.camera(0, ",dark=45"),
                                                                      MultiCameraTests.camera(1, ",dark=90,late=300ms")]),
                                       timeout: 120)
        try #require(run.status == 0, "\(run.stderr.suffix(2000))")
        let lines = JSONLines.parse(run)
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
}

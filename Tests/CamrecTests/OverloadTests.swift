import Foundation
import Testing

/// Issue 37 item 3: a recording whose encoder cannot keep up degrades predictably. The
/// tests' fake hardware encoder holds each frame 100 ms, so it encodes at most 10 of the
/// emulated camera's 30 frames a second: camrec leaves frames out evenly before the encoder
/// (never a run of them), the frames kept keep their capture times, the movie holds exactly
/// its limit of camera time, and the frames left out are said (a warning, `ctl status` and
/// the result's `shed_frames`). Checked against the camera's frame stamps and ffprobe.
@Suite("Overload", .serialized)
struct OverloadTests {
    @Test func anEncoderTooSlowForTheFramesHasFramesLeftOutEvenly() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let camera = try VirtualCameraEnvironment.shared().environment(spec: "/dev/video0,formats=yuyv,sizes=320x240@30")
        var environment = try FakeHardwareEncoder.environment(base: camera)
        environment["CAMREC_FAKEHWENC_DELAY_MS"] = "100"
        let movie = folder.path("slow.mp4")
        let socket = folder.path("control")
        let run = try CamrecBinary.start(["--size", "320x240", "--fps", "30", "--encoder", FakeHardwareEncoder.working,
                                          "--max-duration", "8", "--control", socket, "--json", movie], environment: environment)
        defer { run.signal(SIGKILL) }
        // While it records: ctl status counts the frames left out.
        var shedMidway = 0
        #expect(Wait.until(timeout: 60, interval: 0.2) {
            shedMidway = RecordingWait.status(socket: socket)?["shed_frames"] as? Int ?? 0
            return shedMidway > 0
        }, "ctl status never reported shed_frames: \(run.stderrText)")
        #expect(run.wait() == 0, "\(run.stderrText)")

        let lines = run.jsonLines
        let warnings = lines.filter { $0["type"] as? String == "warning" }.compactMap { $0["message"] as? String }
        #expect(warnings.filter { $0.contains("camrec now leaves frames out evenly") }.count == 1, "\(warnings)")
        let result = try #require(lines.last)
        let shed = try #require(result["shed_frames"] as? Int, "no shed_frames in \(result)")
        let dropped = try #require(result["dropped_frames"] as? Int)
        #expect(shed >= shedMidway && shed <= dropped, "shed \(shed), dropped \(dropped), \(shedMidway) midway")

        // The movie: its frames and the slots missing make the limit's 240 (give or take the
        // last slots, whose frames may be left out too), and it reaches the end of its 8 s
        // of camera time, each frame at its own capture time. (Not ffprobe's duration: the
        // fake encoder's B-frames shift it by an edit list.)
        // (The packets: ffprobe decodes all but the last two, B-frames the fake encoder leaves
        // unfinished at the end of its stream.)
        let probe = try MediaProbe.probe(movie)
        let times = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time",
                                                     "-of", "csv=p=0", movie]).stdoutText.split(separator: "\n").compactMap { Double($0) }.sorted()
        #expect(abs(times.count + dropped - 240) <= 2, "\(times.count) frames stored, \(dropped) dropped")
        #expect(times.count < 200, "nothing was left out: \(times.count) frames")
        #expect(probe.frames + 2 >= times.count)
        #expect((times.last ?? 0) - (times.first ?? 0) > 7.5, "the movie's frames span \((times.last ?? 0) - (times.first ?? 0)) s")
        let file = (result["files"] as? [[String: Any]])?.first
        #expect(abs((file?["duration"] as? Double ?? 0) - 8) < 0.15, "\(result)")
        // Evenly: never more than a few camera frames missing in a row, as the camera numbered them.
        let stamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: movie)).compactMap { $0 }
        #expect(stamps.count == probe.frames, "\(probe.frames - stamps.count) frames without a readable stamp")
        let gaps = zip(stamps, stamps.dropFirst()).map { Int($1) - Int($0) - 1 }
        #expect(gaps.allSatisfy { $0 >= 0 }, "frames out of order")
        print("OverloadTests: \(probe.frames) frames, \(dropped) dropped, \(shed) shed, gaps \(gaps), first \(stamps.first ?? 0) last \(stamps.last ?? 0)")
        #expect((gaps.max() ?? 0) <= 4, "a run of \(gaps.max() ?? 0) frames missing: \(gaps)")
        #expect(Set(stamps).count == stamps.count)
    }
}

import Foundation
import Testing

/// `--timelapse T` against the emulated camera (30 fps, overrun=wait: no frame is lost, and
/// its timestamps are its sequence numbers' times). The kept frames are told apart by the
/// stamp the camera draws on each (`FrameStampReader`), and ffprobe says how the movie
/// plays: one movie frame apart, at the movie's rate, whatever T.
@Suite struct TimeLapseTests: VirtualCameraHarness {
    static let camera = "/dev/video0,formats=yuyv,sizes=320x240@30,overrun=wait"

    /// The frames' presentation times in `path`, in seconds, by ffprobe.
    func frameTimes(_ path: String) throws -> [Double] {
        let run = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time",
                                                    "-of", "csv=p=0", path])
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdoutText.split(separator: "\n").compactMap { Double($0.split(separator: ",")[0]) }
    }

    /// Whether `times` start at 0 and step by one frame at `fps` (to the millisecond).
    func playsEvenly(_ times: [Double], fps: Double) -> Bool {
        times.enumerated().allSatisfy { abs($0.element - Double($0.offset) / fps) < 0.001 }
    }

    /// 200 ms at 30 fps: every 6th camera frame. 3 s of capture time holds the slots at
    /// 0, 0.2, … 2.8 s (a slot at 3.0 s would start at the limit): 15 frames, played in 0.5 s.
    /// With --fps 15 (the camera has only 30) the same frames play at 15 fps, in 1 s.
    @Test(arguments: [30, 15])
    func keepsEverySixthFrameAndPlaysThemAtTheMovieRate(fps: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("lapse.mp4")
        let run = try CamrecBinary.run(["--device", "/dev/video0", "--size", "320x240", "--fps", "\(fps)", "--timelapse", "200ms",
                                        "--max-duration", "3", "--json", movie], environment: env(spec: Self.camera))
        #expect(run.status == 0, "\(run.stderr)")
        let lines = JSONLines.parse(run)
        let started = try #require(lines.first { $0["type"] as? String == "started" })
        let startedLapse = try #require(started["timelapse"] as? [String: Any])
        #expect(startedLapse["interval"] as? Double == 0.2 && startedLapse["speedup"] as? Double == 0.2 * Double(fps))
        #expect(started["max_duration"] as? Double == 3, "capture time")
        let result = try #require(lines.last)
        #expect(result["reason"] as? String == "max-duration")
        let lapse = try #require(result["timelapse"] as? [String: Any])
        #expect(lapse["frames_kept"] as? Int == 15 && lapse["interval"] as? Double == 0.2, "\(result)")
        let file = try #require((result["files"] as? [[String: Any]])?.first)
        #expect(file["frames"] as? Int == 15)
        #expect(abs((file["duration"] as? Double ?? 0) - 15 / Double(fps)) < 0.0015, "\(file)")

        let probe = try MediaProbe.probe(movie)
        #expect(probe.frames == 15)
        #expect(abs(probe.duration - 15 / Double(fps)) < 0.002, "duration \(probe.duration)")
        let times = try frameTimes(movie)
        #expect(times.count == 15 && playsEvenly(times, fps: Double(fps)), "\(times)")
        try expectStamps(URL(fileURLWithPath: movie), (0..<15).map { UInt32($0 * 6) })
        #expect(try MediaProbe.decodeErrors(movie).isEmpty)
    }

    /// --segment is capture time too: 1 s segments of a 100 ms time-lapse hold 10 frames
    /// each (a third of a second of movie), and the stamps run on across the cuts, every
    /// third camera frame. --still-every 1s (capture time) takes the frame that starts the
    /// 2nd and the 3rd segment, and says so. --keep 2 keeps the last two segments.
    @Test func segmentsStillsAndRetentionAreInCaptureTime() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.run(["--device", "/dev/video0", "--size", "320x240", "--fps", "30", "--timelapse", "100ms",
                                        "--max-duration", "3", "--segment", "1s", "--still-every", "1s", "--keep", "2",
                                        "--json", folder.path("run.mp4")], environment: env(spec: Self.camera))
        #expect(run.status == 0, "\(run.stderr)")
        let lines = JSONLines.parse(run)
        let segments = lines.filter { $0["type"] as? String == "segment" }
        #expect(segments.map { $0["frames"] as? Int } == [10, 10, 10], "\(segments)")
        #expect(lines.contains { $0["type"] as? String == "deleted" }, "--keep 2 deleted the first segment: \(run.stdoutText)")
        #expect(folder.contents == ["run-0002.mp4", "run-0003.mp4", "run-still-0001.jpg", "run-still-0002.jpg"])
        for (index, name) in ["run-0002.mp4", "run-0003.mp4"].enumerated() {
            let path = folder.path(name)
            #expect(try MediaProbe.probe(path).frames == 10, "\(name)")
            let times = try frameTimes(path)
            #expect(times.count == 10 && playsEvenly(times, fps: 30), "\(name): \(times)")
            let first = 30 * (index + 1)
            try expectStamps(URL(fileURLWithPath: path), (0..<10).map { UInt32(first + $0 * 3) })
        }
        let stills = lines.filter { $0["type"] as? String == "still" }
        #expect(stills.count == 2, "\(run.stdoutText)")
        for (index, still) in stills.enumerated() {
            #expect(still["frame"] as? Int == 0 && still["pts"] as? Double == 0, "\(still)")
            #expect(still["movie"] as? String == folder.path("run-000\(index + 2).mp4"), "\(still)")
            let stamp = try FrameStampReader.sequence(inImage: URL(fileURLWithPath: try #require(still["path"] as? String)))
            #expect(stamp == UInt32(30 * (index + 1)), "\(still)")
        }
        let result = try #require(lines.last)
        #expect((result["timelapse"] as? [String: Any])?["frames_kept"] as? Int == 30, "also the deleted segment's: \(result)")
    }

    /// `ctl status` and the result count capture time, as --max-duration does: a kept frame
    /// stands for one interval. A stop through the socket finalises a movie of the frames kept.
    @Test func statusCountsCaptureTime() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("ctl.sock")
        let movie = folder.path("lapse.mkv")
        let recording = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--timelapse", "100ms", "-t", "none",
                                                "--control", socket, "--json", movie])
        #expect(RecordingWait.frames(5, socket: socket))
        let status = try #require(RecordingWait.status(socket: socket))
        let frames = try #require(status["frames"] as? Int)
        let elapsed = try #require(status["elapsed"] as? Double)
        #expect(abs(elapsed - Double(frames) * 0.1) < 0.0015, "\(status)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(recording.wait() == 0)
        let result = try #require(JSONLines.parse(recording.stdoutData).last)
        let kept = try #require((result["timelapse"] as? [String: Any])?["frames_kept"] as? Int)
        #expect(kept >= frames && result["reason"] as? String == "control", "\(result)")
        #expect(try MediaProbe.probe(movie).frames == kept)
    }

    /// Rules that need the camera: an interval no longer than its frame is a usage error
    /// (exit 64), before anything is recorded; so is sound.
    @Test func tooShortAnIntervalAndSoundAreRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let short = try CamrecBinary.run(["--device", "/dev/video0", "--size", "320x240", "--timelapse", "20ms", "-t", "1",
                                          folder.path("a.mp4")], environment: env(spec: Self.camera))
        #expect(short.status == 64 && short.stderr.contains("--timelapse 20ms is not longer than one camera frame at 30 fps"),
                "\(short.stderr)")
        let sound = try CamrecBinary.run(["--device", "test", "--timelapse", "1s", "--audio", "test", folder.path("b.mp4")])
        #expect(sound.status == 64 && sound.stderr.contains("makes a silent movie"), "\(sound.stderr)")
        #expect(folder.contents.isEmpty)
    }
}

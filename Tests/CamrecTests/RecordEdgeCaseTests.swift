import Foundation
import Testing

/// What a new user trips over when recording: limits shorter than a frame, a stop before
/// the first frame, odd OUTPUT names, and the small words of the messages.
@Suite struct RecordEdgeCaseTests {
    @Test(arguments: ["0.01", "1ms", "0.02"])
    func limitShorterThanOneFrameIsAUsageError(limit: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["--device", "test", "--fps", "30", "-t", limit, folder.path("a.mp4")])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("shorter than one frame"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(folder.contents.isEmpty)
    }

    /// The limit keeps the frames that start within it, to the nearest whole frame, as
    /// docs/recording.md says: 0.034 s at 30 fps is 1 frame (0.033 s), 0.05 s is 2.
    @Test(arguments: [("0.034", 1), ("0.05", 2), ("0.5", 15)])
    func shortLimitsFollowTheDocumentedRule(limit: String, frames: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("a.mkv")
        let result = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--fps", "30", "-t", limit, output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try MediaProbe.probe(output).frames == frames)
    }

    /// A stop before the camera delivered its first frame is not a failure: exit 0, an
    /// empty result that says so, nothing left behind.
    @Test func stopBeforeTheFirstFrameIsACleanEmptyResult() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // The emulated camera stalls 30 s before its first frame.
        var environment = try VirtualCameraEnvironment.shared().environment(spec: "/dev/video0,formats=yuyv,slow=every:1:30s")
        environment["CAMREC_DEVICE_PATHS"] = nil
        let run = try CamrecBinary.start(["--device", "/dev/video0", "--size", "640x480", "--json", folder.path("a.mp4")],
                                         environment: environment)
        try #require(run.waitForLine(type: "started"), "\(run.stderrText)")
        run.signal(SIGINT)
        #expect(run.wait(timeout: 60) == 0, "\(run.stderrText)")
        let result = try #require(run.jsonLines.last)
        #expect(result["type"] as? String == "result")
        #expect(result["reason"] as? String == "signal")
        #expect((result["files"] as? [Any])?.isEmpty == true)
        #expect(run.stderrText.contains("stopped before the first frame"), "\(run.stderrText)")
        #expect(!run.stderrText.contains("the source delivered nothing"))
        #expect(folder.contents.isEmpty, "left \(folder.contents)")
    }

    /// Issue 29 item 14: `--fps 15` from a camera that has only 30 keeps every other frame,
    /// and the movie is a 15-fps movie: ffprobe's duration is the result's (4 s), not 3.967 s
    /// (the last frame lasting a camera frame), in MP4 and Matroska.
    @Test(arguments: ["mp4", "mkv"])
    func item14_aSlowerRateThanTheCamerasEndsWhereTheResultSays(container: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("slow.\(container)")
        var environment = try VirtualCameraEnvironment.shared().environment(spec: "/dev/video0,formats=yuyv,sizes=640x480@30")
        environment["CAMREC_DEVICE_PATHS"] = nil
        let result = try CamrecBinary.run(["--device", "/dev/video0", "--fps", "15", "-t", "4", "--json", output],
                                          environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let file = try #require((JSONLines.parse(result).last?["files"] as? [[String: Any]])?.first)
        let probe = try MediaProbe.probe(output)
        #expect(probe.frames == 60)
        #expect(file["duration"] as? Double == 4)
        #expect(abs(probe.duration - 4) < 0.002, "ffprobe: \(probe.duration) s")
    }

    /// Issue 29 item 10: the output folder removed during a segmented run: exit 73 with the
    /// reason (the folder is gone), not exit 1 with an internal placeholder path.
    @Test func item10_aRemovedFolderMidSegmentsIsExit73WithTheReason() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let target = folder.path("out")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--segment", "1", "--max-duration", "30",
                                          "--json", target + "/seg.mp4"])
        defer { run.signal(SIGKILL) }
        try #require(run.waitForLine(type: "segment"), "\(run.stderrText)")
        try FileManager.default.removeItem(atPath: target)
        #expect(run.wait(timeout: 60) == 73, "\(run.stderrText)")
        #expect(!run.stderrText.contains("/nonexistent"), "\(run.stderrText)")
        #expect(run.stderrText.contains("does not exist"), "\(run.stderrText)")
        let error = try #require(run.jsonLines.last { $0["type"] as? String == "error" })
        #expect(error["exit_code"] as? Int == 73)
    }

    @Test func danglingSymlinkIsRefusedAtStart() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("link.mp4")
        try FileManager.default.createSymbolicLink(atPath: output, withDestinationPath: folder.path("missing/target.mp4"))
        let result = try CamrecBinary.run(["--device", "test", "-t", "30", "--json", output])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.contains("symbolic link"), "\(result.stderr)")
        // Refused before recording: no started line.
        #expect(!JSONLines.parse(result).contains { $0["type"] as? String == "started" })
        #expect(folder.contents == ["link.mp4"])
    }

    /// A valid name of 254 bytes: its temporary name is shortened, not refused.
    @Test func longestValidOutputNameRecords() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let name = String(repeating: "é", count: 125) + ".mkv"   // 250 + 4 bytes
        #expect(name.utf8.count == 254)
        let output = folder.path(name)
        let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "-t", "1", "--json", output])
        try #require(run.waitForLine(type: "started"), "\(run.stderrText)")
        let partial = try #require(run.lines(type: "started").first?["partial_path"] as? String)
        #expect(URL(fileURLWithPath: partial).lastPathComponent.utf8.count <= 255)
        #expect(partial.contains(".partial"))
        #expect(run.wait() == 0, "\(run.stderrText)")
        #expect(try MediaProbe.probe(output).frames == 30)
        #expect(folder.contents == [name])
    }

    @Test func printPipelineWorksWhenOutputExists() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("there.mp4")
        try Data("old".utf8).write(to: URL(fileURLWithPath: output))
        let result = try CamrecBinary.run(["--device", "test", "--print-pipeline", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText.hasPrefix("gst-launch-1.0 -e "))
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data("old".utf8))
    }

    @Test func controlSocketAtOutputIsAUsageError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("a.mp4")
        let result = try CamrecBinary.run(["--device", "test", "--control", output, output])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--control"), "\(result.stderr)")
        #expect(!result.stderr.contains("exists"), "\(result.stderr)")
        #expect(folder.contents.isEmpty)
    }

    /// Every container starts its first frame at 0 (Matroska used to start at the
    /// pipeline's latency, 0.04 s).
    @Test(arguments: ["mp4", "mov", "mkv"])
    func firstFrameStartsAtZero(container: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("a.\(container)")
        let result = try CamrecBinary.run(["--device", "test", "--size", "320x240", "-t", "0.5", output])
        #expect(result.status == 0, "\(result.stderr)")
        let frames = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time",
                                                      "-of", "csv=p=0", output])
        let first = frames.stdoutText.split(whereSeparator: \.isNewline).first.map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
        #expect(first.flatMap(Double.init) == 0, "first frame at \(first ?? "nil")")
    }

    @Test func messagesCountInTheSingularAndShowSubSecondLimits() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--fps", "30", "-t", "0.034", folder.path("a.mp4")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("(1 frame,"), "\(result.stderr)")
        #expect(result.stderr.contains("for up to 00:00:00.034"), "\(result.stderr)")
    }

    /// With two cameras of which the first is busy, camrec records from the second and
    /// says which it skipped and why.
    @Test func busyFirstCameraIsNamedWhenSkipped() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var environment = try VirtualCameraEnvironment.shared().environment(
            spec: "/dev/video0,fault=ebusy;/dev/video1,formats=yuyv")
        environment["CAMREC_DEVICE_PATHS"] = nil
        let result = try CamrecBinary.run(["-t", "0.5", "--size", "640x480", "--json", folder.path("a.mp4")], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = JSONLines.parse(result)
        let warning = lines.first { $0["type"] as? String == "warning" }?["message"] as? String ?? ""
        #expect(warning.contains("skipped /dev/video0") && warning.contains("busy"), "\(lines)")
        #expect(lines.first { $0["type"] as? String == "started" }?["device"] as? String == "/dev/video1")
    }

    /// `--still-every` follows the movie's own timeline: a still at every period of
    /// recorded video, taken from the frame that reaches it (or the next few, while the
    /// stills thread wakes), whatever the wall clock does.
    @Test func periodicStillsFollowTheMovieTimeline() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--fps", "30", "-t", "3.1",
                                           "--still-every", "0.5", "--json", folder.path("m.mkv")])
        #expect(result.status == 0, "\(result.stderr)")
        let frames = JSONLines.parse(result).filter { $0["type"] as? String == "still" }.compactMap { $0["frame"] as? Int }
        #expect(frames.count == 6, "stills at frames \(frames)")
        for (index, frame) in frames.sorted().enumerated() {
            let due = (index + 1) * 15
            #expect(frame >= due && frame <= due + 6, "still \(index + 1) at frame \(frame), due at \(due)")
        }
    }

    @Test func stillQualityWithAnMJPEGCameraSaysItIsNotUsed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var environment = try VirtualCameraEnvironment.shared().environment(spec: "/dev/video0,formats=mjpeg")
        environment["CAMREC_DEVICE_PATHS"] = nil
        let result = try CamrecBinary.run(["--device", "/dev/video0", "--size", "640x480", "-t", "0.5", "--still-quality", "50",
                                           "--json", folder.path("a.mp4")], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("--still-quality is not used"), "\(result.stderr)")
        #expect(JSONLines.parse(result).contains { $0["type"] as? String == "warning" })
    }
}

/// `--fps` slower than any rate the camera offers: the rate asked for, made by keeping
/// camera frames evenly, and said so; never silently the camera's faster rate.
@Suite(.serialized) struct SlowerRateTests {
    @Test(arguments: [("yuyv", "15", 30, 2), ("mjpeg", "10", 20, 3), ("h264", "7.5", 15, 4)])
    func slowerRateKeepsFramesEvenly(formats: String, fps: String, frames: Int, step: UInt32) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var environment = try VirtualCameraEnvironment.shared().environment(spec: "/dev/video0,formats=\(formats),sizes=640x480@30")
        environment["CAMREC_DEVICE_PATHS"] = nil
        let output = folder.path("slow.mkv")
        let result = try CamrecBinary.run(["--device", "/dev/video0", "--size", "640x480", "--fps", fps, "-t", "2", "--json", output],
                                          environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = JSONLines.parse(result)
        let started = try #require(lines.first)
        #expect(started["fps"] as? String == fps)
        #expect((started["format_reason"] as? String ?? "").contains("\(fps) fps by keeping frames evenly"), "\(started)")
        let summary = try #require(lines.last)
        let dropped = summary["dropped_frames"] as? Int ?? -1
        let probe = try MediaProbe.probe(output)
        #expect(probe.frames + dropped == frames, "\(probe.frames) frames + \(dropped) dropped, want \(frames)")
        // The camera's frame stamps: frame i of the movie is the camera's frame i × step, or
        // a later one before the next slot when a loaded machine made the camera lose it.
        let stamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: output)).compactMap { $0 }
        #expect(stamps.count == probe.frames)
        if dropped == 0, let first = stamps.first {
            for (index, stamp) in stamps.enumerated() {
                let slot = first + UInt32(index) * step
                #expect(stamp >= slot && stamp < slot + step, "frame \(index) is camera frame \(stamp): stamps \(stamps)")
            }
        }
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $1 > $0 }, "stamps \(stamps)")
    }
}

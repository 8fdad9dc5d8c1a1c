import Foundation
import Testing

/// The camera's queue (CameraQueueDepth): camrec has v4l2src ask the emulated camera for
/// half a second of buffers instead of 4, and a capture thread that cannot run for longer
/// than 4 frame intervals (but less than the queue) then loses no frame.
///
/// The starvation is deterministic: `starve=FRAMES@SEQ` makes the capture thread's DQBUF of
/// frame SEQ return only once FRAMES more frames were due, whatever the machine's load, and
/// `trace=buffers` has the camera say how many buffers were asked for and every frame it
/// lost because none was queued. The same pipeline in gst-launch-1.0 (4 buffers) loses
/// frames under the same starvation, which shows the test would catch the feature's loss.
@Suite struct CameraQueueTests: VirtualCameraHarness {
    /// 10 frame intervals without the capture thread: more than v4l2src's 4 buffers last,
    /// less than camrec's 15. 320x240 keeps the encoder far ahead on a loaded machine, so
    /// that the record queue holds no camera buffers when the starvation comes.
    static let starved = "/dev/video0,formats=yuyv,sizes=320x240@30,trace=buffers,starve=10@30"

    /// The camera's word for the stream: buffers asked for, frames lost for lack of a buffer.
    struct CameraTrace {
        var buffers: [Int] = []
        var lost: [Int] = []
        var summaries: [String] = []

        init(_ stderr: String) {
            for line in stderr.split(separator: "\n") where line.hasPrefix("camrec VirtualCamera: /dev/video0: ") {
                let text = line.dropFirst("camrec VirtualCamera: /dev/video0: ".count)
                if text.hasPrefix("REQBUFS "), let count = Int(text.split(separator: " ")[1]) {
                    buffers.append(count)
                } else if text.hasPrefix("frame "), text.hasSuffix("lost: no buffer queued"),
                          let frame = Int(text.split(separator: " ")[1]) {
                    lost.append(frame)
                } else if text.hasPrefix("stream ended") {
                    summaries.append(String(text))
                }
            }
        }
    }

    @Test func camrecAsksTheCameraForHalfASecondOfBuffers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (rate, expected) in [(30, 15), (15, 8)] {
            let movie = folder.path("movie-\(rate).mp4")
            let run = try CamrecBinary.run(["--device", "/dev/video0", "--size", "640x480", "--fps", "\(rate)",
                                            "--max-duration", "1", "--json", movie],
                                           environment: env(spec: "/dev/video0,formats=yuyv,sizes=640x480@30/15,trace=buffers"))
            #expect(run.status == 0, "\(run.stderr)")
            let trace = CameraTrace(run.stderr)
            #expect(trace.buffers == [expected], "at \(rate) fps: \(run.stderr)")
        }
    }

    @Test func noFrameIsLostWhenTheCaptureThreadStarvesForLessThanTheQueue() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("starved.mp4")
        let run = try CamrecBinary.run(["--device", "/dev/video0", "--size", "320x240", "--fps", "30",
                                        "--max-duration", "2", "--json", movie], environment: env(spec: Self.starved))
        #expect(run.status == 0, "\(run.stderr)")
        let trace = CameraTrace(run.stderr)
        #expect(trace.buffers == [15], "\(run.stderr)")
        #expect(trace.lost.isEmpty, "frames the camera lost: \(trace.lost)")
        #expect(trace.summaries.count == 1 && trace.summaries[0].hasSuffix(" 0 lost for lack of a queued buffer"),
                "\(trace.summaries)")
        let result = try #require(JSONLines.parse(run).last)
        #expect(result["dropped_frames"] as? Int == 0, "\(result)")
        // Every frame in the movie, in order: the camera's stamps 0…59.
        try expectStamps(URL(fileURLWithPath: movie), Array(0..<60))
    }

    /// Issue 37 item 1: `--camera-buffers N` sets the depth, so that camrec can be compared
    /// with gst-launch-1.0 at its own 4. At 4 the same starvation loses frames as
    /// gst-launch's does; at 24, none; a depth out of 4…32 is a usage error.
    @Test func cameraBuffersSetsTheDepth() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (count, loses) in [(4, true), (24, false)] {
            let movie = folder.path("starved-\(count).mp4")
            let run = try CamrecBinary.run(["--device", "/dev/video0", "--size", "320x240", "--fps", "30", "--camera-buffers", "\(count)",
                                            "--max-duration", "2", "--json", movie], environment: env(spec: Self.starved))
            #expect(run.status == 0, "\(run.stderr)")
            let trace = CameraTrace(run.stderr)
            #expect(trace.buffers == [count], "\(run.stderr)")
            #expect(trace.lost.isEmpty != loses, "\(count) buffers, frames the camera lost: \(trace.lost)")
        }
        for bad in ["3", "33", "many"] {
            let result = try CamrecBinary.run(["help", "--check-args", "--camera-buffers", bad, "out.mp4"])
            #expect(result.status == 64 && result.stderr.contains("4 to 32"), "\(bad): \(result.stderr)")
        }
    }

    /// An encoder that falls behind (here a record branch slowed to 15 frames a second by
    /// `identity sleep-time`, in a `--pipeline` template) keeps frames waiting in the record
    /// queue. Camera buffers waiting there would leave the camera none once the backlog is
    /// as deep as its queue (half a second at 30 fps, here after a second); camrec sends
    /// frames on as copies from half its queue, so the camera never runs out.
    @Test func aBackedUpEncoderDoesNotLeaveTheCameraWithoutBuffers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let template = folder.path("slow.pipeline")
        let builtIn = try String(contentsOf: VirtualCameraEnvironment.packageRoot.appendingPathComponent("pipelines/record.pipeline"),
                                 encoding: .utf8)
        #expect(builtIn.contains("{decode_record} {encode}"))
        try builtIn.replacingOccurrences(of: "{decode_record} {encode}", with: "{decode_record} ! identity sleep-time=66000 {encode}")
            .write(toFile: template, atomically: true, encoding: .utf8)
        let movie = folder.path("slow.mp4")
        let run = try CamrecBinary.run(["--device", "/dev/video0", "--size", "320x240", "--fps", "30", "--pipeline", template,
                                        "--max-duration", "1", "--json", movie],
                                       environment: env(spec: "/dev/video0,formats=yuyv,sizes=320x240@30,trace=buffers"))
        #expect(run.status == 0, "\(run.stderr)")
        let trace = CameraTrace(run.stderr)
        #expect(trace.buffers == [15], "\(run.stderr)")
        #expect(trace.lost.isEmpty, "frames the camera lost: \(trace.lost)")
        let result = try #require(JSONLines.parse(run).last)
        #expect(result["dropped_frames"] as? Int == 0, "\(result)")
        try expectStamps(URL(fileURLWithPath: movie), Array(0..<30))
    }

    /// Issue 29 item 15: a camera's own stream stored as it comes (passthrough) gets the same
    /// protection. Its frames, waiting in the record queue behind a slow muxer branch (15
    /// frames a second here) and in the stills' appsink, held the camera's buffers (9 at
    /// 720p): a capture thread then held for 7 frame intervals left the camera without a
    /// queued buffer (MJPEG lost frame 18 before the fix; H.264's parser already hands on
    /// buffers of its own). Compressed frames are now sent on as copies, so the camera
    /// keeps all of its buffers.
    @Test(arguments: ["h264", "mjpeg"])
    func item15_passthroughFramesNeverHoldTheCamerasBuffers(format: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let template = folder.path("slow.pipeline")
        let builtIn = try String(contentsOf: VirtualCameraEnvironment.packageRoot.appendingPathComponent("pipelines/record.pipeline"),
                                 encoding: .utf8)
        try builtIn.replacingOccurrences(of: "{decode_record} {encode}", with: "{decode_record} ! identity sleep-time=66000 {encode}")
            .write(toFile: template, atomically: true, encoding: .utf8)
        let movie = folder.path("slow.mkv")
        let run = try CamrecBinary.run(["--device", "/dev/video0", "--size", "1280x720", "--fps", "30", "--codec", "copy",
                                        "--pipeline", template, "--max-duration", "2", "--json", movie],
                                       environment: env(spec: "/dev/video0,formats=\(format),sizes=1280x720@30,trace=buffers,starve=7@12"),
                                       timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let trace = CameraTrace(run.stderr)
        #expect(trace.buffers == [9], "\(run.stderr)")
        // Frames after the movie's 60 (the camera streams on while the slow branch drains)
        // are not the movie's.
        #expect(trace.lost.filter { $0 < 60 }.isEmpty, "frames the camera lost: \(trace.lost)")
        let result = try #require(JSONLines.parse(run).last)
        #expect(result["dropped_frames"] as? Int == 0, "\(result)")
        try expectStamps(URL(fileURLWithPath: movie), Array(0..<60))
    }

    /// The control: the same pipeline (camrec's own `--print-pipeline`) run by gst-launch-1.0
    /// has v4l2src's 4 buffers, so the camera fills at most 4 of the 10 frames due while the
    /// capture thread is held and loses the other 6 or more.
    @Test func theSamePipelineWithFourBuffersLosesFramesUnderTheSameStarvation() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("gst.mp4")
        let printed = try CamrecBinary.run(["--device", "/dev/video0", "--size", "320x240", "--fps", "30",
                                            "--print-pipeline", movie], environment: env(spec: Self.starved))
        #expect(printed.status == 0, "\(printed.stderr)")
        let line = try #require(printed.stdoutText.split(separator: "\n").last { $0.hasPrefix("gst-launch-1.0 -e ") })
        let pipeline = line.dropFirst("gst-launch-1.0 -e ".count)
            .replacingOccurrences(of: "v4l2src ", with: "v4l2src num-buffers=60 ")
        let run = try gst(pipeline, spec: Self.starved)
        try expectSuccess(run)
        let trace = CameraTrace(run.stderr)
        #expect(trace.buffers == [4], "\(run.stderr)")
        #expect(trace.lost.filter { (31...40).contains($0) }.count >= 6, "frames the camera lost: \(trace.lost)")
    }
}

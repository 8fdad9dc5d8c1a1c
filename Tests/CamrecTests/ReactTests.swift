import Foundation
import Testing

/// `camrec react VIDEO OUTPUT` (issue 36 item 3): the camera picture-in-picture over the
/// video, in step, both sounds mixed. The video is itself a recording of the emulated
/// camera, so every frame of it carries the camera's frame number (its stamp band), and
/// the reaction's camera carries its own: OUTPUT's frames tell which video frame and which
/// camera frame each shows.
@Suite struct ReactTests {
    static let spec = "/dev/video0,formats=yuyv,sizes=640x480@30"

    /// A video of numbered frames (the emulated camera's stamps) with a 1 kHz tone.
    static func numberedVideo(_ folder: TemporaryFolder, environment: [String: String]) throws -> String {
        let recorded = folder.path("numbered.mp4")
        let run = try CamrecBinary.run(["--device", "/dev/video0", "--size", "640x480", "--fps", "30", "-t", "4", recorded],
                                       environment: environment, timeout: 120)
        try #require(run.status == 0, "\(run.stderr)")
        let video = folder.path("video.mp4")
        let made = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-i", recorded, "-f", "lavfi", "-i",
                                                   "sine=frequency=1000:sample_rate=48000:duration=4", "-map", "0:v", "-map", "1:a",
                                                   "-c:v", "copy", "-c:a", "aac", "-shortest", video], timeout: 120)
        try #require(made.status == 0, "\(made.stderr)")
        return video
    }

    /// The mean volume (dB) of `path`'s sound around `frequency` (ffmpeg bandpass, volumedetect).
    static func level(_ path: String, at frequency: Int) throws -> Double {
        let run = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "info", "-i", path, "-vn", "-af",
                                                  "bandpass=f=\(frequency):width_type=h:w=60,volumedetect", "-f", "null", "-"], timeout: 120)
        let line = run.stderr.split(separator: "\n").first { $0.contains("mean_volume:") } ?? ""
        return Double(line.split(separator: " ").dropLast().last ?? "") ?? -200
    }

    @Test("react: the camera in a corner over the video, the video's frame k with the camera's frame k, both sounds mixed at --mix's levels")
    func reactionInStep() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let environment = try VirtualCameraEnvironment.shared().environment(spec: Self.spec)
        let video = try Self.numberedVideo(folder, environment: environment)
        let videoStamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: video)).compactMap { $0 }
        try #require(videoStamps.count == 120, "the video's stamps: \(videoStamps)")
        let output = folder.path("reaction.mp4")
        // The microphone: a 440 Hz test tone; the video's 1 kHz tone 6 dB down (the default mix).
        let run = try CamrecBinary.run(["react", "--device", "/dev/video0", "--audio", "test", "--pip", "bottom-right:50%",
                                        "--no-preview", "--json", video, output], environment: environment, timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = JSONLines.parse(run)
        let result = try #require(lines.last)
        #expect(result["reason"] as? String == "source-ended", "\(result)")
        let layout = try #require(result["layout"] as? [String: Any], "\(result)")
        #expect(layout["name"] as? String == "pip:bottom-right:50%" && layout["canvas"] as? String == "640x480", "\(layout)")
        let cameras = try #require(layout["cameras"] as? [[String: Any]])
        try #require(cameras.count == 2)
        #expect(cameras[0]["device"] as? String == "file:" + video && cameras[1]["device"] as? String == "/dev/video0", "\(cameras)")
        let inset = try (#require(cameras[1]["x"] as? Int), #require(cameras[1]["y"] as? Int), #require(cameras[1]["width"] as? Int))
        #expect(inset.0 > 300 && inset.1 > 200 && inset.2 == 320, "the inset: \(cameras[1])")
        // Every frame: which video frame (its stamp band across the top) and which camera
        // frame (the inset's band) it shows.
        let shownVideo = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: output))
        let shownCamera = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: output),
                                                         region: .init(x: inset.0, y: inset.1, width: inset.2, sourceWidth: 640))
        #expect(shownVideo.count >= 118 && shownVideo.count <= 120, "\(shownVideo.count) frames")
        let pairs = zip(shownVideo, shownCamera).compactMap { video, camera in video.flatMap { v in camera.map { (Int(v), Int($0)) } } }
        #expect(pairs.count * 10 >= shownVideo.count * 9, "stamps read in \(pairs.count) of \(shownVideo.count) frames")
        let first = try #require(pairs.first)
        // The video starts with the recording: its first or second frame first.
        #expect(first.0 - Int(videoStamps[0]) <= 1, "the first frame shows video frame \(first.0 - Int(videoStamps[0]))")
        // In step: as many video frames as camera frames since the start, within one frame
        // (a loaded machine may show a branch's previous frame again for one canvas frame).
        // (The video's last frame may be held for a canvas frame or two while the camera is
        // ended after it: those frames are left out.)
        let lastVideoFrame = pairs.map(\.0).max() ?? 0
        let playing = pairs.prefix { $0.0 < lastVideoFrame } + pairs.filter { $0.0 == lastVideoFrame }.prefix(1)
        let offsets = playing.map { ($0.0 - first.0) - ($0.1 - first.1) }
        #expect(offsets.allSatisfy { abs($0) <= 1 }, "video frames ahead of camera frames: \(offsets)")
        // Both sounds: the microphone's 440 Hz, and the video's 1 kHz about 6 dB below its own level.
        let videoTone = try Self.level(video, at: 1000)
        let mixedTone = try Self.level(output, at: 1000)
        let microphone = try Self.level(output, at: 440)
        #expect(microphone > -40, "the microphone's tone: \(microphone) dB")
        #expect(abs((videoTone - mixedTone) - 6) < 2.5, "the video's tone: \(videoTone) dB alone, \(mixedTone) dB mixed")
    }

    @Test("react --separate: the camera's own movie, ended with the video, and where in it the video started (react line)")
    func separateMovie() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let environment = try VirtualCameraEnvironment.shared().environment(spec: "/dev/video0,formats=yuyv,sizes=320x240@30")
        let video = folder.path("video.mp4")
        let made = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30:duration=3",
                                                   "-f", "lavfi", "-i", "sine=frequency=1000:duration=3", "-pix_fmt", "yuv420p",
                                                   "-c:a", "aac", "-shortest", video], timeout: 120)
        try #require(made.status == 0, "\(made.stderr)")
        let output = folder.path("me.mkv")
        let run = try CamrecBinary.run(["react", "--separate", "--device", "/dev/video0", "--audio", "test",
                                        "--no-preview", "--json", video, output], environment: environment, timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = JSONLines.parse(run)
        let react = try #require(lines.first { $0["type"] as? String == "react" }, "\(lines)")
        let result = try #require(lines.last)
        #expect(result["reason"] as? String == "source-ended", "\(result)")
        #expect(react["video"] as? String == video && react["path"] as? String == output, "\(react)")
        let offset = try #require(react["offset"] as? Double)
        #expect(abs(offset) < 1, "the video started \(offset) s into the movie")
        // The camera's own picture and the microphone only (no canvas, no video sound) ...
        let probe = try ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,width,height:format=duration",
                                                     "-of", "csv=p=0", output])
        #expect(probe.stdoutText.contains("video,320,240") && probe.stdoutText.contains("audio"), "\(probe.stdoutText)")
        #expect(try ReactTests.level(output, at: 1000) < ReactTests.level(output, at: 440) - 20, "the video's tone is in the camera's movie")
        // ... ending with the video: the video's 3 s began at `offset` in the movie, so the
        // movie ends at offset + 3 (offset is often negative: with sound the movie starts at the
        // first frame the sound covers). The test had 3 − offset, which held only while the
        // offset was under 50 ms, and failed twice in CI at −0.051 and −0.046 s.
        let files = try #require(result["files"] as? [[String: Any]])
        let duration = try #require(files.first?["duration"] as? Double)
        #expect(abs(duration - (3 + offset)) < 0.1, "a movie of \(duration) s, the video started at \(offset) s")
        // Where --separate has nothing to do.
        for (option, value) in [("--mix", "-6:0"), ("--pip", "top-left:20%")] {
            let refused = try CamrecBinary.run(["react", "--separate", option, value, video, folder.path("never.mp4")], timeout: 60)
            #expect(refused.status == 64 && refused.stderr.contains("drop \(option) or --separate"), "\(refused.stderr)")
        }
    }

    @Test("react refuses what it cannot do before the camera opens: a bad video (65/66), a bad --pip or --mix (64)")
    func refusals() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let text = folder.path("notes.txt")
        try "not a video\n".write(toFile: text, atomically: true, encoding: .utf8)
        let video = folder.path("v.mp4")
        let made = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30:duration=1",
                                                   "-pix_fmt", "yuv420p", video])
        try #require(made.status == 0)
        let cases: [([String], Int32, String)] = [
            ([folder.path("missing.mp4")], 66, "no such file"),
            ([text], 65, "is not a movie"),
            (["--pip", "middle:30%", video], 64, "--pip middle:30%: give CORNER:SIZE"),
            (["--mix", "-6", video], 64, "--mix"),
            (["--mix", "-6:0", "--audio", "none", video], 64, "drop --audio none"),
            (["--preview", "--no-preview", video], 64, "give one of them"),
        ]
        for (arguments, status, says) in cases {
            let output = folder.path("out.mp4")
            let run = try CamrecBinary.run(["react"] + arguments + [output], timeout: 60)
            #expect(run.status == status && run.stderr.contains(says), "\(arguments): \(run.status) \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }
}

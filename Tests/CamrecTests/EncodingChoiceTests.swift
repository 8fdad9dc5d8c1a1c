import Foundation
import Testing

/// Issue 14 end to end: every codec in every container it goes in, bitrates held to,
/// passthrough of the emulated camera's H.264 and MJPEG byte for byte, stills and segments
/// from a passthrough recording, and the refusals. ffprobe and ffmpeg say what each file is.
@Suite struct EncodingChoiceTests {
    func camera(_ spec: String) throws -> [String: String] {
        try VirtualCameraEnvironment.shared().environment(spec: spec)
    }

    func started(_ lines: [[String: Any]]) -> [String: Any] {
        lines.first { $0["type"] as? String == "started" } ?? [:]
    }

    /// The codec tag ffprobe reads from the file, e.g. "hvc1".
    func codecTag(_ path: String) throws -> String {
        let run = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                    "stream=codec_tag_string", "-of", "csv=p=0", path])
        return run.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The average video bitrate in kbit/s: the stream's bytes over its duration, from the packets.
    /// The video's bitrate per frame the encoder made, at `fps` frames a second: the rate
    /// control's own measure (the target over the frame rate, per frame), which frames that
    /// a loaded machine cost (gaps in the stream's time) do not change (issue 29 item 15).
    func videoKilobits(_ path: String, fps: Double = 30) throws -> Double {
        let run = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                    "packet=size", "-of", "csv=p=0", path])
        let sizes = run.stdoutText.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        return Double(sizes.reduce(0, +)) * 8 / 1000 / max(Double(sizes.count) / fps, 0.001)
    }

    @Test(arguments: [
        ("h264", "mp4", "h264", "avc1"), ("h264", "mov", "h264", "avc1"), ("h264", "mkv", "h264", ""),
        ("h265", "mp4", "hevc", "hvc1"), ("h265", "mov", "hevc", "hvc1"), ("h265", "mkv", "hevc", ""),
        ("mjpeg", "mkv", "mjpeg", ""), ("mjpeg", "mov", "mjpeg", "jpeg"),
    ])
    func eachCodecPlaysInEachContainerThatHoldsIt(_ codec: String, _ ext: String, _ probed: String, _ tag: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("movie.\(ext)")
        let result = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--fps", "30", "-t", "1",
                                           "--codec", codec, "--json", output])
        #expect(result.status == 0, "\(result.stderr)")
        let start = started(JSONLines.parse(result))
        #expect(start["codec"] as? String == codec)
        #expect(start["encoder"] as? String == ["h264": "x264enc", "h265": "x265enc", "mjpeg": "jpegenc"][codec])
        #expect(start["hardware"] as? Bool == false)
        let probe = try MediaProbe.probe(output)
        #expect(probe.codec == probed)
        #expect(probe.frames == 30)
        #expect((probe.width, probe.height) == (320, 240))
        if !tag.isEmpty { #expect(try codecTag(output) == tag) }
        #expect(try MediaProbe.decodeErrors(output).isEmpty)
    }

    @Test(arguments: [
        (["--codec", "mjpeg"], "movie.mp4", 64, "an MP4 cannot hold Motion JPEG"),
        (["--codec", "mjpeg", "--bitrate", "2M"], "movie.mkv", 64, "has no bitrate"),
        (["--codec", "copy"], "movie.mp4", 64, "--codec copy stores the camera's compressed stream"),
        (["--codec", "vp9"], "movie.mp4", 64, "unknown codec 'vp9'"),
        (["--quality", "best"], "movie.mp4", 64, "unknown quality 'best'"),
        (["--bitrate", "10"], "movie.mp4", 64, "invalid bitrate '10'"),
        (["--encoder", "nosuchh264enc"], "movie.mp4", 69, "encoder nosuchh264enc is not installed"),
        (["--encoder", "x265enc", "--codec", "h264"], "movie.mp4", 64, "x265enc encodes H.265, not H.264"),
        (["--encoder", "vah264enc"], "movie.mp4", 69, "encoder vah264enc is not available here: it needs a VA-API driver that can encode, e.g. intel-media-va-driver or mesa-va-drivers (gstreamer1.0-plugins-bad)"),
        (["--encoder", "jpegenc"], "movie.mp4", 64, "jpegenc encodes Motion JPEG, not H.264"),
    ])
    func refusedChoicesSayWhyAndRecordNothing(_ options: [String], _ name: String, _ status: Int32, _ message: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["--device", "test", "-t", "1"] + options + [folder.path(name)])
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        #expect(folder.contents.isEmpty)
    }

    /// A 30-s recording's video bitrate is within 15 % of `--bitrate`, for x264 and x265,
    /// from the emulated camera (a moving picture, as a camera's is).
    @Test func bitrateIsHeldWithinFifteenPercent() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let runs = [("h264", "800k", 800.0), ("h265", "500k", 500.0)]
        let started = try runs.enumerated().map { index, run in
            try CamrecBinary.start(["--device", "/dev/video\(index)", "--size", "640x480", "--fps", "30", "-t", "30",
                                    "--codec", run.0, "--bitrate", run.1, "--json", folder.path("\(run.0).mp4")],
                                   environment: camera("/dev/video\(index),formats=yuyv"))
        }
        for (process, run) in zip(started, runs) {
            defer { if process.process.isRunning { process.signal(SIGKILL) } }
            #expect(process.wait(timeout: 120) == 0, "\(process.stderrText)")
            #expect(self.started(process.jsonLines)["bitrate"] as? Int == Int(run.2))
            let kilobits = try videoKilobits(folder.path("\(run.0).mp4"))
            #expect(abs(kilobits - run.2) / run.2 <= 0.15, "\(run.0): \(kilobits) kbit/s for \(run.1)")
        }
    }

    /// `--codec auto` stores an H.264 camera's stream as it comes: the movie's slices are the
    /// camera's, byte for byte and in order, from its first keyframe; every keyframe carries
    /// its parameter sets (each fragment plays on its own); the frame stamps run on.
    @Test func autoStoresTheCamerasH264ByteForByte() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let dump = folder.path("camera.h264")
        let output = folder.path("movie.mp4")
        let result = try CamrecBinary.run(["--device", "/dev/video0", "-t", "3", "--json", output],
                                          environment: camera("/dev/video0,formats=yuyv+mjpeg+h264,dump=\(dump)"))
        #expect(result.status == 0, "\(result.stderr)")
        let start = started(JSONLines.parse(result))
        #expect(start["format"] as? String == "H264")
        #expect(start["encoder"] as? String == "copy")
        #expect(start["keyframe_interval"] == nil && start["bitrate"] == nil)
        #expect((start["encoding_reason"] as? String ?? "").contains("stored as it comes"))
        // The camera sends an IDR every second; the result reports the interval it measured.
        #expect(JSONLines.parse(result).last?["keyframe_interval"] as? Double == 1.0)
        let sent = AnnexB.units(try Data(contentsOf: URL(fileURLWithPath: dump)))
        let stored = AnnexB.units(try AnnexB.extract(output, to: folder.path("movie.h264")))
        let sentSlices = sent.filter { [1, 5].contains(AnnexB.type($0)) }
        let storedSlices = stored.filter { [1, 5].contains(AnnexB.type($0)) }
        #expect(storedSlices.count == 90)
        let firstStored = try #require(storedSlices.first)
        let first = try #require(sentSlices.firstIndex(of: firstStored))
        #expect(Array(sentSlices[first..<min(sentSlices.count, first + storedSlices.count)]) == storedSlices,
                "the movie's slices are a run of the camera's, byte for byte")
        #expect(AnnexB.type(storedSlices[0]) == 5, "the movie starts at a keyframe")
        for (index, unit) in stored.enumerated() where AnnexB.type(unit) == 5 {
            let before = stored[..<index].suffix(3).map(AnnexB.type)
            #expect(before.contains(7) && before.contains(8), "an IDR without SPS and PPS before it at unit \(index)")
        }
        let stamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: output)).compactMap { $0 }
        #expect(stamps.count == 90 && zip(stamps, stamps.dropFirst()).allSatisfy { $1 == $0 + 1 }, "\(stamps)")
        #expect(try MediaProbe.decodeErrors(output).isEmpty)
    }

    /// `--codec copy` from an MJPEG camera: the movie's frames are the camera's JPEGs.
    @Test func copyStoresTheCamerasJPEGsByteForByte() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let dump = folder.path("camera.mjpeg")
        let output = folder.path("movie.mkv")
        let result = try CamrecBinary.run(["--device", "/dev/video0", "--size", "640x480", "-t", "2", "--codec", "copy",
                                           "--json", output],
                                          environment: camera("/dev/video0,formats=mjpeg,dump=\(dump)"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(started(JSONLines.parse(result))["codec"] as? String == "mjpeg")
        let extracted = folder.path("movie.mjpeg")
        let run = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", output, "-c:v", "copy", "-f", "mjpeg", extracted])
        #expect(run.status == 0, "\(run.stderr)")
        let sent = try Data(contentsOf: URL(fileURLWithPath: dump))
        let stored = try Data(contentsOf: URL(fileURLWithPath: extracted))
        #expect(stored.count > 0 && sent.range(of: stored) != nil, "the movie's JPEG frames are a run of the camera's, byte for byte")
        #expect(try MediaProbe.probe(output).frames == 60)
    }

    /// Stills from a passthrough recording are decoded from the kept GOP when asked: each is
    /// the movie's frame at the index it reports (same camera stamp).
    @Test func stillsFromPassthroughAreTheMoviesFrames() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("movie.mp4")
        let result = try CamrecBinary.run(["--device", "/dev/video0", "--size", "640x480", "-t", "3", "--still-every", "0.7s",
                                           "--json", output],
                                          environment: camera("/dev/video0,formats=h264,overrun=wait"))
        #expect(result.status == 0, "\(result.stderr)")
        let lines = JSONLines.parse(result)
        #expect(started(lines)["encoder"] as? String == "copy")
        let stills = lines.filter { $0["type"] as? String == "still" }
        #expect(stills.count == 4, "\(result.stderr)")
        let movie = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: output))
        for still in stills {
            let path = try #require(still["path"] as? String)
            let index = try #require(still["frame"] as? Int)
            let probe = try MediaProbe.probe(path)
            #expect(probe.codec == "mjpeg" && (probe.width, probe.height) == (640, 480))
            let stamp = try FrameStampReader.sequence(inImage: URL(fileURLWithPath: path))
            #expect(stamp != nil && stamp == movie[index], "still \(path) at frame \(index)")
        }
    }

    /// Segments of a passthrough recording start at the camera's keyframes (one a second
    /// here), so a 2-s segment holds exactly 60 frames, and the stamps run on across cuts.
    @Test func passthroughSegmentsCutAtTheCamerasKeyframes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["--device", "/dev/video0", "--size", "640x480", "-t", "6", "--segment", "2s",
                                           "--json", folder.path("run.mp4")],
                                          environment: camera("/dev/video0,formats=h264,overrun=wait"))
        #expect(result.status == 0, "\(result.stderr)")
        let names = ["run-0001.mp4", "run-0002.mp4", "run-0003.mp4"]
        #expect(folder.contents == names)
        var stamps: [UInt32] = []
        for name in names {
            let path = folder.path(name)
            #expect(try MediaProbe.probe(path).frames == 60, "\(name)")
            let first = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                          "packet=flags", "-read_intervals", "%+#1", "-of", "csv=p=0", path])
            #expect(first.stdoutText.hasPrefix("K"), "\(name) starts with a keyframe")
            #expect(try MediaProbe.decodeErrors(path).isEmpty, "\(name)")
            stamps += try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: path)).compactMap { $0 }
        }
        #expect(stamps.count == 180 && zip(stamps, stamps.dropFirst()).allSatisfy { $1 == $0 + 1 })
    }

    /// A camera that encodes H.264 itself and has the V4L2 keyframe controls (as a
    /// Raspberry Pi camera does) is told camrec's keyframe interval: the movie's keyframes
    /// come every 15 frames for 0.5 s, and both the started line and the result say so.
    @Test func passthroughSetsTheCamerasKeyframePeriodWhereItHasTheControl() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("movie.mp4")
        let result = try CamrecBinary.run(["--device", "/dev/video0", "--size", "640x480", "-t", "3",
                                           "--keyframe-interval", "0.5", "--json", output],
                                          environment: camera("/dev/video0,formats=h264,h264controls=on,overrun=wait"))
        #expect(result.status == 0, "\(result.stderr)")
        let lines = JSONLines.parse(result)
        let start = started(lines)
        #expect(start["keyframe_interval"] as? Double == 0.5)
        let controls = (start["controls"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(controls.contains("h264_i_frame_period") && controls.contains("repeat_sequence_header"), "\(controls)")
        #expect(lines.last?["keyframe_interval"] as? Double == 0.5)
        let flags = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=flags",
                                                      "-of", "csv=p=0", output]).stdoutText.split(separator: "\n")
        let keyframes = flags.enumerated().filter { $0.element.hasPrefix("K") }.map(\.offset)
        #expect(keyframes == [0, 15, 30, 45, 60, 75], "\(keyframes)")
    }

    /// With the fake hardware encoders installed, `--encoder auto` tries the broken one
    /// first, skips it with a warning that gives GStreamer's reason, and records with the
    /// working one, mapped from its own properties; the movie plays and the started line
    /// says hardware. `software` takes x264enc; naming the broken one is exit 69, no fallback.
    @Test func autoTakesAWorkingHardwareEncoderAndSkipsABrokenOne() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let environment = try FakeHardwareEncoder.environment()
        let output = folder.path("hardware.mp4")
        let result = try CamrecBinary.run(["--device", "test", "--size", "320x240", "-t", "1", "--json", output],
                                          environment: environment, timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = JSONLines.parse(result)
        let start = started(lines)
        #expect(start["encoder"] as? String == FakeHardwareEncoder.working)
        #expect(start["hardware"] as? Bool == true)
        #expect((start["pipeline"] as? String ?? "").contains("\(FakeHardwareEncoder.working) bitrate=200 keyframe-period=30 name=encoder"))
        let warnings = lines.filter { $0["type"] as? String == "warning" }.compactMap { $0["message"] as? String }
        #expect(warnings.contains { $0.contains(FakeHardwareEncoder.broken) && $0.contains("no device") }, "\(warnings)")
        let probe = try MediaProbe.probe(output)
        #expect(probe.codec == "h264" && probe.frames == 30)

        let software = try CamrecBinary.run(["--device", "test", "--size", "320x240", "-t", "1", "--encoder", "software",
                                             "--json", folder.path("software.mp4")], environment: environment, timeout: 120)
        #expect(software.status == 0, "\(software.stderr)")
        #expect(started(JSONLines.parse(software))["encoder"] as? String == "x264enc")

        let broken = try CamrecBinary.run(["--device", "test", "-t", "1", "--encoder", FakeHardwareEncoder.broken,
                                           folder.path("broken.mp4")], environment: environment, timeout: 120)
        #expect(broken.status == 69, "\(broken.stderr)")
        #expect(broken.stderr.contains("no device"), "\(broken.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("broken.mp4")))
    }

    /// An H.264 camera whose picture is turned is decoded and encoded again, and the reason says so.
    @Test func autoEncodesAnH264CameraWhenThePictureIsChanged() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("movie.mp4")
        let result = try CamrecBinary.run(["--device", "/dev/video0", "--size", "640x480", "-t", "1", "--rotate", "180",
                                           "--json", output], environment: camera("/dev/video0,formats=h264"))
        #expect(result.status == 0, "\(result.stderr)")
        let start = started(JSONLines.parse(result))
        #expect(start["encoder"] as? String == "x264enc")
        #expect((start["encoding_reason"] as? String ?? "").contains("decoded and encoded again because --rotate"))
        #expect(try MediaProbe.probe(output).frames == 30)
    }

    /// Issue 37 item 4: an encoder slower than the frames (the fake hardware encoder holding
    /// each frame 100 ms: at most 10 of the test pattern's 30 a second) is found in the
    /// first seconds, and said once, in a warning line the schema accepts, with the measured
    /// pace (never above 10 however busy the machine: only slower) and the cheaper settings
    /// for a hardware encoder. The movie is still made.
    @Test func anEncoderThatFallsBehindIsWarnedAboutOnce() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var environment = try FakeHardwareEncoder.environment()
        environment["CAMREC_FAKEHWENC_DELAY_MS"] = "100"
        let output = folder.path("slow.mp4")
        let arguments = ["--device", "test", "--size", "320x240", "--encoder", FakeHardwareEncoder.working,
                         "--max-duration", "3", "--json", output]
        let result = try CamrecBinary.run(arguments, environment: environment, timeout: 180)
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = JSONLines.parse(result).filter { $0["type"] as? String == "warning" }
            .compactMap { $0["message"] as? String }.filter { $0.hasPrefix("encoder falling behind: ") }
        #expect(warnings.count == 1, "\(warnings)")
        let warning = warnings.first ?? ""
        #expect(warning.contains("\(FakeHardwareEncoder.working) encodes about ") && warning.contains("the movie has 30"), "\(warning)")
        #expect(warning.contains("use --encoder software or --fps "), "\(warning)")
        let pace = warning.split(separator: " ").drop { $0 != "about" }.dropFirst().first.flatMap { Double($0) }
        #expect(pace.map { $0 > 0 && $0 <= 10.5 } == true, "\(warning)")
        #expect(result.stderr.contains("camrec: warning: encoder falling behind: "), "\(result.stderr)")
        #expect(try MediaProbe.probe(output).codec == "h264")
        // The line against docs/events.schema.json (closed), as SchemaTests checks every kind.
        if SchemaTests.unusable == nil {
            let log = folder.url.appendingPathComponent("log")
            JSONLog.write(arguments: arguments, stdout: result.stdout, to: log)
            let check = try ChildProcess.run(SchemaTests.checker, [log.path], timeout: 120)
            #expect(check.status == 0, "\(check.stdoutText)\(check.stderr)")
        }
    }

    /// Issue 37 item 4: H.265 without --quality times x265's efforts on test frames and
    /// says what it chose; the pipeline runs that effort (one thread: pools=none), and the
    /// movie is H.265. A quality given runs as before, untimed.
    @Test func h265TimesItsEffortUnlessAQualityIsGiven() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("auto.mp4")
        let result = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--codec", "h265", "-t", "1", "--json", output],
                                          timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let start = started(JSONLines.parse(result))
        let reason = start["encoding_reason"] as? String ?? ""
        let pipeline = start["pipeline"] as? String ?? ""
        let chosen = EncoderEffortLabels.all.first { reason.contains("--quality auto: \($0.label) (timed here: ") }
        #expect(chosen != nil, "\(reason)")
        if let chosen {
            #expect(start["effort"] as? String == chosen.label)
            #expect(pipeline.contains("x265enc speed-preset=\(chosen.preset) "), "\(pipeline)")
            #expect(pipeline.contains("pools=none") == chosen.oneThread, "\(pipeline)")
        }
        #expect(try MediaProbe.probe(output).codec == "hevc")

        let high = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--codec", "h265", "--quality", "high", "-t", "1",
                                         "--json", folder.path("high.mp4")], timeout: 120)
        #expect(high.status == 0, "\(high.stderr)")
        let highStart = started(JSONLines.parse(high))
        #expect(!(highStart["encoding_reason"] as? String ?? "").contains("--quality auto"))
        #expect((highStart["pipeline"] as? String ?? "").contains("x265enc speed-preset=ultrafast tune=zerolatency"))
        #expect(!(highStart["pipeline"] as? String ?? "").contains("pools=none"))
        #expect(highStart["effort"] == nil)
        // Both started lines against docs/events.schema.json (closed: the effort field is in it).
        if SchemaTests.unusable == nil {
            let log = folder.url.appendingPathComponent("log")
            JSONLog.write(arguments: ["--json", output], stdout: result.stdout, to: log)
            JSONLog.write(arguments: ["--json", folder.path("high.mp4")], stdout: high.stdout, to: log)
            let check = try ChildProcess.run(SchemaTests.checker, [log.path], timeout: 120)
            #expect(check.status == 0, "\(check.stdoutText)\(check.stderr)")
        }
    }
}

/// x265's efforts as the started line names them (EncoderEffort's labels, written out: an
/// end-to-end test reads camrec's output, not its types).
enum EncoderEffortLabels {
    static let all: [(label: String, preset: String, oneThread: Bool)] = [
        ("superfast, one thread", "superfast", true), ("ultrafast, one thread", "ultrafast", true),
        ("ultrafast, every core", "ultrafast", false),
    ]
}

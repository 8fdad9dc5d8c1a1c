import Foundation
import Testing

/// Event clips (`--pre-roll`, `--post-roll`, `ctl clip`, SIGUSR2): checked against the
/// emulated camera's frame stamps and ffprobe, never against camrec's own word alone.
/// Each test triggers once the recording has the frames it needs (a frame count from the
/// control socket) and waits for the `clip` line, never for a fixed time.
@Suite("Event clips", .serialized)
struct EventClipTests {
    static func camera() throws -> [String: String] {
        try VirtualCameraEnvironment.shared().environment(spec: "/dev/video0,formats=yuyv,sizes=320x240@30")
    }

    /// Starts an open-ended 320x240@30 recording of the emulated camera into `movie`, with
    /// `options`, a control socket and JSON lines.
    static func record(_ options: [String], to movie: String, socket: String) throws -> RunningCamrec {
        try CamrecBinary.start(["--size", "320x240", "--fps", "30", "--max-duration", "none"] + options
                                   + ["--control", socket, "--json", movie], environment: try camera())
    }

    /// `camrec ctl SOCKET clip [--after T]`'s JSON reply.
    static func trigger(_ socket: String, after: String? = nil) throws -> [String: Any] {
        let run = try CamrecBinary.run(["ctl", socket, "clip"] + (after.map { ["--after", $0] } ?? []), timeout: 30)
        let reply = (try? JSONSerialization.jsonObject(with: run.stdout)) as? [String: Any]
        return reply ?? ["ok": false, "stderr": run.stderr]
    }

    /// The camera stamps of a movie's frames, in order (all must read).
    static func stamps(_ path: String) throws -> [UInt32] {
        let read = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: path))
        let stamps = read.compactMap { $0 }
        #expect(stamps.count == read.count, "\(read.count - stamps.count) frames of \(path) have no readable stamp")
        return stamps
    }

    static func contiguous(_ stamps: [UInt32]) -> Bool {
        zip(stamps, stamps.dropFirst()).allSatisfy { $1 == $0 + 1 }
    }

    @Test("a clip holds exactly the pre-roll before its trigger and the post-roll after, to the frame",
          arguments: [("mp4", "2s", 60, "3s", 90), ("mkv", "0.5s", 15, "1s", 30)])
    func exactBoundaries(_ container: String, _ preRoll: String, _ preFrames: Int, _ postRoll: String, _ postFrames: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("run.\(container)")
        let socket = folder.path("control")
        let run = try Self.record(["--pre-roll", preRoll, "--post-roll", postRoll, "--clip-start", "exact"], to: movie, socket: socket)
        defer { run.signal(SIGKILL) }
        try #require(RecordingWait.frames(preFrames + 20, socket: socket), "\(run.stderrText)")
        // The pre-roll's memory is in the status.
        let held = RecordingWait.status(socket: socket)?["pre_roll_bytes"] as? Int ?? 0
        #expect(held > 0, "ctl status gives no pre_roll_bytes")
        let reply = try Self.trigger(socket)
        #expect(reply["ok"] as? Bool == true && reply["extended"] as? Bool == false, "\(reply)")
        try #require(run.waitForLine(type: "clip"), "\(run.stderrText)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")

        let line = try #require(run.lines(type: "clip").first)
        let clip = try #require(line["path"] as? String)
        #expect(clip == folder.path("run-clip-0001.\(container)"))
        #expect(reply["path"] as? String == clip)
        #expect(line["pre_roll_short"] as? Bool == false, "\(line)")
        let triggers = try #require(line["triggers"] as? [Double])
        #expect(triggers.count == 1 && abs(triggers[0] - Double(preFrames) / 30) < 0.002, "\(line)")
        // ffprobe: the frames camrec says, starting at 0, decodable.
        let probe = try MediaProbe.probe(clip)
        #expect(probe.frames == preFrames + postFrames, "ffprobe counts \(probe.frames)")
        #expect(line["frames"] as? Int == probe.frames)
        #expect(try MediaProbe.decodeErrors(clip).isEmpty)
        let first = try SoundRecordingTests.span(clip, stream: "v:0").lowerBound
        #expect(abs(first) < 0.001, "the clip's first frame is shown at \(first) s")
        // The camera's stamps: the clip is a run of the movie's frames, from the movie frame
        // the line names, and the movie lost nothing while the clip was written.
        let movieStamps = try Self.stamps(movie)
        let clipStamps = try Self.stamps(clip)
        #expect(Self.contiguous(movieStamps), "the movie lost frames")
        #expect(Self.contiguous(clipStamps), "the clip is not a run of camera frames: \(clipStamps)")
        let index = try #require(line["frame"] as? Int)
        try #require(index + clipStamps.count <= movieStamps.count, "clip from movie frame \(index) runs past the movie")
        #expect(Array(movieStamps[index..<(index + clipStamps.count)]) == clipStamps,
                "clip stamps \(clipStamps.first ?? 0)…, movie from frame \(index): \(movieStamps[index])…")
        let result = try #require(run.jsonLines.last)
        #expect(result["dropped_frames"] as? Int == 0)
        let kinds = (result["files"] as? [[String: Any]])?.compactMap { $0["kind"] as? String }
        #expect(kinds == ["movie", "clip"], "\(result)")
    }

    @Test("--clip-start keyframe (the default): the clip starts at the keyframe at or before its pre-roll, copied as encoded, nothing decoded (no gst-libav loaded), and its line says where",
          arguments: ["mp4", "mkv"])
    func keyframeStart(_ container: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("run.\(container)")
        let socket = folder.path("control")
        // 1.3 s of pre-roll is never on one of the 1-s keyframes (30 frames apart from the
        // movie's first frame) when the trigger is: the clip reaches back to the one before.
        // The MKV run asks for nothing: the keyframe start is the default.
        let run = try Self.record(["--pre-roll", "1.3s", "--post-roll", "1s", "--keyframe-interval", "1s"]
                                      + (container == "mp4" ? ["--clip-start", "keyframe"] : []),
                                  to: movie, socket: socket)
        defer { run.signal(SIGKILL) }
        try #require(RecordingWait.frames(100, socket: socket), "\(run.stderrText)")
        let reply = try Self.trigger(socket)
        #expect(reply["ok"] as? Bool == true, "\(reply)")
        try #require(run.waitForLine(type: "clip"), "\(run.stderrText)")
        // What the recording has loaded once its clip is written: no decoder library.
        // (cat reads it whole: /proc files have no size, and a reader that trusts one stops early.)
        let maps = try ChildProcess.run("cat", ["/proc/\(run.pid)/maps"]).stdoutText
        #expect(maps.contains("libgstreamer-1.0"), "camrec's maps could not be read")
        #expect(!maps.contains("libavcodec") && !maps.contains("libgstlibav"), "a clip copied as encoded loaded gst-libav")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")

        let line = try #require(run.lines(type: "clip").first)
        let clip = try #require(line["path"] as? String)
        #expect(line["reencoded_frames"] as? Int == 0, "\(line)")
        // Its pre-roll: at least the 1.3 s asked, less than one keyframe interval more.
        let trigger = try #require((line["triggers"] as? [Double])?.first)
        #expect(trigger > 1.3 - 0.002 && trigger < 2.3 - 0.02, "the trigger is \(trigger) s into the clip")
        let preFrames = Int((trigger * 30).rounded())
        let probe = try MediaProbe.probe(clip)
        #expect(probe.frames == preFrames + 30, "ffprobe counts \(probe.frames), the line says the trigger is at frame \(preFrames)")
        #expect(line["frames"] as? Int == probe.frames)
        #expect(try MediaProbe.decodeErrors(clip).isEmpty)
        let keys = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=key_frame",
                                                    "-of", "csv=p=0", clip]).stdoutText.split(separator: "\n").map { $0.prefix { $0 != "," } }
        #expect(keys.first == "1", "the clip's first frame is not a keyframe")
        // The camera's stamps: a run of the movie's frames from a movie keyframe.
        let movieStamps = try Self.stamps(movie)
        let clipStamps = try Self.stamps(clip)
        #expect(Self.contiguous(movieStamps), "the movie lost frames")
        #expect(Self.contiguous(clipStamps), "the clip is not a run of camera frames: \(clipStamps)")
        let index = try #require(line["frame"] as? Int)
        let movieKeys = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=key_frame",
                                                         "-of", "csv=p=0", movie]).stdoutText.split(separator: "\n").map { $0.prefix { $0 != "," } }
        #expect(index < movieKeys.count && movieKeys[index] == "1", "the clip starts at movie frame \(index), not a keyframe of the movie")
        try #require(index + clipStamps.count <= movieStamps.count, "clip from movie frame \(index) runs past the movie")
        #expect(Array(movieStamps[index..<(index + clipStamps.count)]) == clipStamps)
        #expect(abs((line["pts"] as? Double ?? -1) - Double(index) / 30) < 0.002, "\(line)")
    }

    @Test("passthrough (the camera's own H.264 or JPEG frames): clips are cut from the camera's stream, exact to the frame, and the pre-roll never starves the camera",
          arguments: [("h264", "mp4"), ("mjpeg", "mkv")])
    func passthroughClips(_ format: String, _ container: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("run.\(container)")
        let socket = folder.path("control")
        let env = try VirtualCameraEnvironment.shared().environment(spec: "/dev/video0,formats=\(format),sizes=640x480@30")
        // 1.5 s of pre-roll is more frames than the camera has buffers: they must be copies.
        let run = try CamrecBinary.start(["--size", "640x480", "--fps", "30", "--max-duration", "none", "--codec", "copy",
                                          "--pre-roll", "1.5s", "--post-roll", "1s", "--clip-start", "exact", "--control", socket, "--json", movie],
                                         environment: env)
        defer { run.signal(SIGKILL) }
        try #require(RecordingWait.frames(70, socket: socket), "\(run.stderrText)")
        #expect(try Self.trigger(socket)["ok"] as? Bool == true)
        try #require(run.waitForLine(type: "clip"), "\(run.stderrText)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")
        #expect(run.lines(type: "started").first?["encoder"] as? String == "copy")
        let line = try #require(run.lines(type: "clip").first)
        let clip = try #require(line["path"] as? String)
        #expect(try MediaProbe.decodeErrors(clip).isEmpty)
        let clipStamps = try Self.stamps(clip)
        let movieStamps = try Self.stamps(movie)
        let index = try #require(line["frame"] as? Int)
        #expect(clipStamps.count == 75 && Self.contiguous(clipStamps), "\(clipStamps.count) frames")
        #expect(index + clipStamps.count <= movieStamps.count && Array(movieStamps[index..<(index + clipStamps.count)]) == clipStamps)
        #expect(Self.contiguous(movieStamps), "the movie lost frames")
        #expect(run.jsonLines.last?["dropped_frames"] as? Int == 0)
    }

    @Test("a trigger while a clip is written extends it: one clip to the post-roll after the last trigger")
    func triggersCloseTogetherMakeOneClip() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("run.mp4")
        let socket = folder.path("control")
        let run = try Self.record(["--pre-roll", "1s", "--post-roll", "3s", "--clip-start", "exact"], to: movie, socket: socket)
        defer { run.signal(SIGKILL) }
        try #require(RecordingWait.frames(45, socket: socket), "\(run.stderrText)")
        let first = try Self.trigger(socket)
        #expect(first["extended"] as? Bool == false, "\(first)")
        let at = try #require(RecordingWait.currentFrames(socket: socket))
        try #require(RecordingWait.frames(at + 15, socket: socket))
        let second = try Self.trigger(socket)
        #expect(second["extended"] as? Bool == true && second["clip"] as? Int == 1, "\(second)")
        try #require(run.waitForLine(type: "clip"), "\(run.stderrText)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")
        #expect(run.lines(type: "clip").count == 1)
        let line = try #require(run.lines(type: "clip").first)
        let triggers = try #require(line["triggers"] as? [Double])
        try #require(triggers.count == 2, "\(line)")
        // From 1 s before the first trigger to 3 s after the second, to the frame.
        let gap = Int(((triggers[1] - triggers[0]) * 30).rounded())
        #expect(gap >= 15, "\(triggers)")
        let probe = try MediaProbe.probe(try #require(line["path"] as? String))
        #expect(probe.frames == 30 + gap + 90, "ffprobe counts \(probe.frames), triggers \(triggers)")
        #expect(Self.contiguous(try Self.stamps(try #require(line["path"] as? String))))
    }

    @Test("--max-clip bounds an event that triggers keep extending")
    func maxClipBoundsAnEvent() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("control")
        // A second trigger within the first clip's 3 s asks for 3 s more: more than --max-clip allows.
        let run = try CamrecBinary.start(["--device", "test", "--size", "160x120", "--max-duration", "none", "--post-roll", "3s", "--clip-start", "exact",
                                          "--max-clip", "3.2s", "--control", socket, "--json", folder.path("run.mkv")])
        defer { run.signal(SIGKILL) }
        try #require(RecordingWait.frames(5, socket: socket), "\(run.stderrText)")
        #expect(try Self.trigger(socket)["extended"] as? Bool == false)
        let at = try #require(RecordingWait.currentFrames(socket: socket))
        try #require(RecordingWait.frames(at + 15, socket: socket))
        let second = try Self.trigger(socket)
        try #require(second["extended"] as? Bool == true, "\(second)")
        try #require(run.waitForLine(type: "clip"), "\(run.stderrText)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")
        let line = try #require(run.lines(type: "clip").first)
        #expect(try MediaProbe.probe(try #require(line["path"] as? String)).frames == 96, "\(line)")
        #expect((line["triggers"] as? [Double])?.count == 2, "\(line)")
    }

    @Test("a trigger before the pre-roll has filled: the clip starts with the movie and says its pre-roll was short; SIGUSR2 triggers")
    func shortPreRollAndSignal() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("run.mkv")
        let socket = folder.path("control")
        let run = try Self.record(["--pre-roll", "5s", "--post-roll", "1s"], to: movie, socket: socket)
        defer { run.signal(SIGKILL) }
        try #require(RecordingWait.frames(10, socket: socket), "\(run.stderrText)")
        run.signal(SIGUSR2)
        try #require(run.waitForLine(type: "clip"), "\(run.stderrText)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")
        let line = try #require(run.lines(type: "clip").first)
        #expect(line["pre_roll_short"] as? Bool == true, "\(line)")
        #expect(line["frame"] as? Int == 0, "\(line)")
        let clipStamps = try Self.stamps(try #require(line["path"] as? String))
        let movieStamps = try Self.stamps(movie)
        #expect(clipStamps.first == movieStamps.first && Self.contiguous(clipStamps), "\(clipStamps)")
        let triggers = try #require(line["triggers"] as? [Double])
        #expect(clipStamps.count == Int((triggers[0] * 30).rounded()) + 30, "\(clipStamps.count) frames, trigger at \(triggers)")
    }

    @Test("with --audio a clip has the sound of its frames, in step with the picture as in the movie (flashes and clicks)",
          arguments: ["mp4", "mkv"])
    func clipKeepsSoundInStep(_ container: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("run.\(container)")
        let socket = folder.path("control")
        let (whole, line) = try ClickedRecording.run { server -> (AVSync.Measurement, [String: Any]) in
            let camera = VirtualCameraDevice(formats: ["mjpeg"], sizes: ["640x480@30"], flash: "2s")
            let env = try VirtualCameraEnvironment.shared().environment([camera], base: server.environment())
            let run = try CamrecBinary.start(["--device", "/dev/video0", "--size", "640x480", "--fps", "30", "--max-duration", "none",
                                              "--audio", "vsink.monitor", "--pre-roll", "3.3s", "--post-roll", "3.5s",
                                              "--control", socket, "--json", "-f", movie], environment: env)
            defer { run.signal(SIGKILL) }
            try #require(RecordingWait.frames(130, socket: socket), "\(run.stderrText)")
            let reply = try Self.trigger(socket)
            try #require(reply["ok"] as? Bool == true, "\(reply)")
            try #require(run.waitForLine(type: "clip"), "\(run.stderrText)")
            #expect(RecordingWait.stop(socket: socket))
            #expect(run.wait() == 0, "\(run.stderrText)")
            return (try AVSync.measure(movie), try #require(run.lines(type: "clip").first))
        }
        let clip = try #require(line["path"] as? String)
        #expect(try SoundRecordingTests.soundStream(clip).codec == (container == "mp4" ? "aac" : "opus"))
        #expect(try MediaProbe.decodeErrors(clip).isEmpty)
        let cut = try AVSync.measure(clip)
        print("clip, \(container): movie \(whole), clip \(cut), sound from \(try SoundRecordingTests.span(clip, stream: "a:0").lowerBound) s")
        // 6.8 s of clip with a flash every 2 s: three or four flashes, each with its click,
        // each as far from it as in the movie (the clip is where it says in the movie).
        try #require(cut.offsets.count >= 3, "\(cut)")
        let start = try #require(line["pts"] as? Double)
        let picture = try SoundRecordingTests.span(clip, stream: "v:0")
        let sound = try SoundRecordingTests.span(clip, stream: "a:0")
        var compared = 0
        for (flash, offset) in zip(cut.flashes, cut.offsets) {
            guard let index = whole.flashes.firstIndex(where: { abs($0 - start - flash) < 0.04 }), index < whole.offsets.count else {
                Issue.record("flash at \(flash) s of the clip is not in the movie: \(whole), \(cut)")
                continue
            }
            // A click before the clip's first sound (the clip began between a click and its
            // flash) is cut off at its start, so its onset cannot be measured there.
            guard flash + whole.offsets[index] >= sound.lowerBound + 0.005 else { continue }
            compared += 1
            // Within a frame (a flash shows in the first frame captured at or after its click)
            // and the sound server's jitter (3 ms, as below): a run measured 33.35 ms.
            #expect(abs(offset) <= 1.0 / 30 + 0.003, "clip offsets \(cut.offsets)")
            #expect(abs(offset - whole.offsets[index]) <= 0.003, "clip \(cut.offsets), movie \(whole.offsets)")
        }
        #expect(compared >= 2, "\(cut)")
        // The sound lasts as long as the picture: within a packet (1024 samples at 48 kHz),
        // the sound server's jitter that audiorate lets stand (its tolerance, 5 ms: as in
        // SoundReconnectTests) and the container's millisecond rounding.
        #expect(abs(sound.upperBound - picture.upperBound) <= 1024.0 / 48000 + 0.005 + 0.002, "sound \(sound), picture \(picture)")
    }

    @Test("Live Photos: the still is the clip's trigger frame, to the camera's frame stamp; --live-photo and ctl clip --still",
          arguments: [true, false])
    func livePhoto(_ everyClip: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("run.mp4")
        let socket = folder.path("control")
        let run = try Self.record(["--pre-roll", "1s", "--post-roll", "1s"] + (everyClip ? ["--live-photo"] : []), to: movie, socket: socket)
        defer { run.signal(SIGKILL) }
        try #require(RecordingWait.frames(45, socket: socket), "\(run.stderrText)")
        let reply = try CamrecBinary.run(["ctl", socket, "clip"] + (everyClip ? [] : ["--still"]), timeout: 30)
        #expect(reply.status == 0, "\(reply.stdoutText) \(reply.stderr)")
        try #require(run.waitForLine(type: "clip"), "\(run.stderrText)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")
        let line = try #require(run.lines(type: "clip").first)
        let stillPath = try #require(line["still"] as? String, "\(line)")
        let index = try #require(line["trigger_frame"] as? Int)
        let triggers = try #require(line["triggers"] as? [Double])
        #expect(index == Int((triggers[0] * 30).rounded()), "\(line)")
        // 1 s of pre-roll from the keyframe at or before it (the default, 1-s keyframes): the
        // trigger is the clip's frame 30 to 59.
        #expect(index >= 30 && index < 60, "1 s of pre-roll: the trigger is the clip's frame 30 to 59: \(line)")
        let still = try #require(run.lines(type: "still").first)
        #expect(still["path"] as? String == stillPath && still["trigger"] as? String == "clip", "\(still)")
        // The still shows the clip's frame at trigger_frame: the camera's stamp says so.
        let clipStamps = try Self.stamps(try #require(line["path"] as? String))
        let stamp = try FrameStampReader.sequence(inImage: URL(fileURLWithPath: stillPath))
        try #require(index < clipStamps.count)
        #expect(stamp == clipStamps[index], "still stamp \(String(describing: stamp)), clip frame \(index) stamp \(clipStamps[index])")
        #expect(clipStamps.count == index + 30 && Self.contiguous(clipStamps))
    }

    @Test("20 clips in a run: each exact, each numbered, the movie untouched")
    func twentyClips() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("run.mkv")
        let socket = folder.path("control")
        let run = try Self.record(["--pre-roll", "0.2s", "--post-roll", "0.3s", "--clip-start", "exact"], to: movie, socket: socket)
        defer { run.signal(SIGKILL) }
        try #require(RecordingWait.frames(15, socket: socket), "\(run.stderrText)")
        for count in 1...20 {
            let reply = try Self.trigger(socket)
            try #require(reply["clip"] as? Int == count && reply["extended"] as? Bool == false, "\(reply)")
            try #require(run.waitForLines(type: "clip", count: count), "clip \(count) never came: \(run.stderrText)")
        }
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")
        let lines = run.lines(type: "clip")
        #expect(lines.compactMap { $0["index"] as? Int } == Array(1...20))
        let movieStamps = try Self.stamps(movie)
        #expect(Self.contiguous(movieStamps), "the movie lost frames")
        for line in lines {
            let path = try #require(line["path"] as? String)
            let stamps = try Self.stamps(path)
            let index = try #require(line["frame"] as? Int)
            #expect(stamps.count == 15 && Self.contiguous(stamps), "\(path): \(stamps)")
            #expect(index + stamps.count <= movieStamps.count && Array(movieStamps[index..<(index + stamps.count)]) == stamps,
                    "\(path) is not the movie's frames from \(index)")
        }
        let names = folder.contents.filter { $0.contains("-clip-") }
        #expect(names == (1...20).map { String(format: "run-clip-%04d.mkv", $0) })
    }

    @Test("kill -9 while a clip is written: its partial file plays and camrec recover finishes it")
    func killedDuringAClip() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("run.mp4")
        let socket = folder.path("control")
        let run = try Self.record(["--pre-roll", "1s", "--post-roll", "60s"], to: movie, socket: socket)
        defer { run.signal(SIGKILL) }
        try #require(RecordingWait.frames(40, socket: socket), "\(run.stderrText)")
        #expect(try Self.trigger(socket)["ok"] as? Bool == true)
        // Hybrid MP4: fragments of half a second reach the file as they are written.
        let partial = folder.path("run-clip-0001.partial.mp4")
        let growing = Wait.until(timeout: 60) {
            ((try? FileManager.default.attributesOfItem(atPath: partial))?[.size] as? Int ?? 0) > 60_000
        }
        try #require(growing, "\(folder.contents) \(run.stderrText)")
        run.signal(SIGKILL)
        _ = run.wait()
        let recovered = folder.path("recovered.mp4")
        let recover = try CamrecBinary.run(["recover", "-o", recovered, partial])
        #expect(recover.status == 0, "\(recover.stderr)")
        let probe = try MediaProbe.probe(recovered)
        #expect(probe.frames >= 30, "\(probe.frames) frames recovered")
        #expect(try MediaProbe.decodeErrors(recovered).isEmpty)
        #expect(Self.contiguous(try Self.stamps(recovered)))
    }

    @Test("--standby: no movie, only exact clips on triggers, until a signal; --max-duration still ends the run")
    func standby() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("control")
        let run = try Self.record(["--standby", "--pre-roll", "1s", "--post-roll", "1s", "--clip-start", "exact"], to: folder.path("cam.mp4"), socket: socket)
        defer { run.signal(SIGKILL) }
        try #require(RecordingWait.frames(40, socket: socket), "\(run.stderrText)")
        for count in 1...2 {
            #expect(try Self.trigger(socket)["ok"] as? Bool == true)
            try #require(run.waitForLines(type: "clip", count: count), "\(run.stderrText)")
        }
        run.signal(SIGINT)
        #expect(run.wait() == 0, "\(run.stderrText)")
        #expect(run.lines(type: "started").first?["standby"] as? Bool == true)
        #expect(folder.contents.filter { $0.hasPrefix("cam") } == ["cam-clip-0001.mp4", "cam-clip-0002.mp4"],
                "no movie, only the clips: \(folder.contents)")
        let result = try #require(run.jsonLines.last)
        #expect(result["reason"] as? String == "signal")
        #expect((result["files"] as? [[String: Any]])?.compactMap { $0["kind"] as? String } == ["clip", "clip"], "\(result)")
        for line in run.lines(type: "clip") {
            let stamps = try Self.stamps(try #require(line["path"] as? String))
            #expect(stamps.count == 60 && Self.contiguous(stamps), "\(line)")
        }

        let limited = try CamrecBinary.run(["--device", "test", "--size", "160x120", "--max-duration", "2s", "--standby", "--post-roll", "1s", "--clip-start", "exact",
                                            "--json", folder.path("limited.mkv")])
        #expect(limited.status == 0, "\(limited.stderr)")
        #expect(JSONLines.parse(limited).last?["reason"] as? String == "max-duration")
        #expect(!folder.contents.contains { $0.hasPrefix("limited") }, "\(folder.contents)")
        let segmented = try CamrecBinary.run(["--device", "test", "--standby", "--segment", "10s", folder.path("never.mp4")])
        #expect(segmented.status == 64 && segmented.stderr.contains("--segment"), "\(segmented.stderr)")
    }

    @Test("--on-motion: each object entering makes one motion line and one clip that holds its entry; light ramps and noise make none")
    func motionTrigger() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Objects enter at camera frames 90 and 210 (30 frames each), after the detector's
        // 2 s of learning; the light ramps up and down over 6 s; every pixel has sensor noise.
        let spec = "/dev/video0,formats=yuyv,sizes=320x240@30,objects=90:30+210:30,ramp=90,noise=6"
        let env = try VirtualCameraEnvironment.shared().environment(spec: spec)
        let movie = folder.path("run.mp4")
        let run = try CamrecBinary.run(["--size", "320x240", "--fps", "30", "-t", "10", "--on-motion", "--pre-roll", "1s",
                                        "--post-roll", "2s", "--json", movie], environment: env, timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = JSONLines.parse(run)
        let motions = lines.filter { $0["type"] as? String == "motion" }
        let clips = lines.filter { $0["type"] as? String == "clip" }
        try #require(motions.count == 2 && clips.count == 2, "\(motions) \(clips)")
        let movieStamps = try Self.stamps(movie)
        #expect(Self.contiguous(movieStamps))
        for (entry, (motion, clip)) in zip([UInt32(90), 210], zip(motions, clips)) {
            // Detected within a second of the entry, at a frame of the object.
            let time = try #require(motion["time"] as? Double)
            let index = Int((time * 30).rounded())
            try #require(index < movieStamps.count)
            #expect(movieStamps[index] >= entry && movieStamps[index] < entry + 30, "motion at \(time) s: stamp \(movieStamps[index])")
            #expect(motion["clip"] as? Int == clip["index"] as? Int)
            let stamps = try Self.stamps(try #require(clip["path"] as? String))
            #expect(stamps.contains(entry) && Self.contiguous(stamps), "clip \(stamps.first ?? 0)…\(stamps.last ?? 0) lacks frame \(entry)")
        }
    }

    @Test("--motion-mask: an object moving only where the mask is dark triggers nothing; bad masks are refused (exit 65)")
    func motionMask() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Black over the middle half of the picture's height, where the object moves.
        let mask = folder.path("mask.png")
        let black = folder.path("black.png")
        for (path, box) in [(mask, "drawbox=x=0:y=ih/4:w=iw:h=ih/2:color=black:t=fill"), (black, "drawbox=x=0:y=0:w=iw:h=ih:color=black:t=fill")] {
            let made = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "color=white:s=320x240",
                                                       "-vf", box, "-frames:v", "1", "-y", path])
            try #require(made.status == 0, "\(made.stderr)")
        }
        let env = try VirtualCameraEnvironment.shared().environment(spec: "/dev/video0,formats=yuyv,sizes=320x240@30,objects=90:30,noise=6")
        let masked = try CamrecBinary.run(["--size", "320x240", "--fps", "30", "-t", "5", "--on-motion", "--motion-mask", mask,
                                           "--standby", "--post-roll", "1s", "--json", folder.path("masked.mp4")], environment: env)
        #expect(masked.status == 0, "\(masked.stderr)")
        #expect(!JSONLines.parse(masked).contains { $0["type"] as? String == "motion" }, "\(masked.stdoutText)")
        // The same run without the mask sees the object.
        let seen = try CamrecBinary.run(["--size", "320x240", "--fps", "30", "-t", "5", "--on-motion",
                                         "--standby", "--post-roll", "1s", "--json", folder.path("seen.mp4")], environment: env)
        #expect(JSONLines.parse(seen).filter { $0["type"] as? String == "motion" }.count == 1, "\(seen.stdoutText)")

        for (file, mentions) in [(black, "dark all over"), (folder.path("nothing.png"), "no such file"), (folder.path("seen-clip-0001.mp4"), "not a PNG")] {
            let bad = try CamrecBinary.run(["--size", "320x240", "--on-motion", "--motion-mask", file, folder.path("never.mp4")], environment: env)
            #expect(bad.status == 65 && bad.stderr.contains(mentions), "\(file): \(bad.status) \(bad.stderr)")
        }
        #expect(!folder.contents.contains { $0.hasPrefix("never") })
    }

    @Test("--keep applies to clips: the newest N stay, each deletion is a deleted line, the result lists what is left")
    func clipRetention() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("control")
        let run = try CamrecBinary.start(["--device", "test", "--size", "160x120", "--max-duration", "none", "--standby",
                                          "--post-roll", "0.3s", "--keep", "2", "--control", socket, "--json", folder.path("door.mkv")])
        defer { run.signal(SIGKILL) }
        try #require(RecordingWait.frames(5, socket: socket), "\(run.stderrText)")
        for count in 1...4 {
            #expect(try Self.trigger(socket)["ok"] as? Bool == true)
            try #require(run.waitForLines(type: "clip", count: count), "\(run.stderrText)")
        }
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")
        let deleted = run.lines(type: "deleted").compactMap { $0["path"] as? String }
        #expect(deleted == [folder.path("door-clip-0001.mkv"), folder.path("door-clip-0002.mkv")], "\(deleted)")
        #expect(folder.contents.filter { $0.hasPrefix("door") } == ["door-clip-0003.mkv", "door-clip-0004.mkv"], "\(folder.contents)")
        let files = (run.jsonLines.last?["files"] as? [[String: Any]])?.compactMap { $0["path"] as? String }
        #expect(files == [folder.path("door-clip-0003.mkv"), folder.path("door-clip-0004.mkv")], "\(files ?? [])")

        let alone = try CamrecBinary.run(["--device", "test", "--keep", "2", folder.path("never.mp4")])
        #expect(alone.status == 64 && alone.stderr.contains("--keep"), "\(alone.stderr)")
    }

    @Test("after a reconnect, clips go on: numbered on from the run's last, named after the run")
    func clipsAcrossAReconnect() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var environment = try VirtualCameraEnvironment.shared().environment(
            spec: ReconnectTests.camera.replacing("fault=unplug@45", with: "fault=unplug@60") + ",replug=300")
        environment["CAMREC_DEVICE_PATHS"] = nil
        let socket = folder.path("control")
        let run = try CamrecBinary.start(["--device", "/dev/v4l/by-id/usb-Acme_Cam_0042-video-index0", "--size", "320x240",
                                          "--fps", "30", "--max-duration", "none", "--reconnect", "--post-roll", "0.3s", "--clip-start", "exact",
                                          "--control", socket, "--json", folder.path("r.mp4")], environment: environment)
        defer { run.signal(SIGKILL) }
        try #require(RecordingWait.frames(10, socket: socket), "\(run.stderrText)")
        #expect(try Self.trigger(socket)["clip"] as? Int == 1)
        try #require(run.waitForLine(type: "camera-back"), "\(run.stderrText)")
        try #require(run.waitForLines(type: "clip", count: 1), "\(run.stderrText)")
        // The next pipeline answers the control socket once it records (its status counts
        // its own frames; while reconnecting, or between the two, the status is another's or none).
        try #require(Wait.until(timeout: 60) {
            let status = RecordingWait.status(socket: socket)
            return status?["state"] as? String == "recording" && (status?["frames"] as? Int ?? 0) >= 10
        }, "\(run.stderrText)")
        #expect(try Self.trigger(socket)["clip"] as? Int == 2)
        try #require(run.waitForLines(type: "clip", count: 2), "\(run.stderrText)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")
        let clips = run.lines(type: "clip")
        #expect(clips.compactMap { $0["index"] as? Int } == [1, 2])
        #expect(clips.compactMap { $0["path"] as? String } == [folder.path("r-clip-0001.mp4"), folder.path("r-clip-0002.mp4")])
        for clip in clips { #expect(try MediaProbe.probe(try #require(clip["path"] as? String)).frames == 9) }
    }

    /// Records with `--clips pattern` (the test pattern) and triggers `clips` clips; the
    /// clips' paths.
    func clipPaths(pattern: String, clips: Int, in folder: TemporaryFolder) throws -> [String] {
        let socket = folder.path("control")
        let run = try CamrecBinary.start(["--device", "test", "--size", "160x120", "--max-duration", "none", "--post-roll", "0.3s", "--clip-start", "exact",
                                          "--clips", pattern, "--utc", "--control", socket, "--json", folder.path("run.mkv"), "-f"])
        defer { run.signal(SIGKILL) }
        try #require(RecordingWait.frames(5, socket: socket), "\(run.stderrText)")
        for count in 1...clips {
            #expect(try Self.trigger(socket)["ok"] as? Bool == true)
            try #require(run.waitForLines(type: "clip", count: count), "\(run.stderrText)")
        }
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")
        let paths = run.lines(type: "clip").compactMap { $0["path"] as? String }
        for path in paths { #expect(try MediaProbe.probe(path).frames == 9) }
        return paths
    }

    @Test("--clips names clips with time fields and a counter; a taken name is never replaced")
    func clipsPattern() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("events"), withIntermediateDirectories: true)
        let before = Self.today()
        let dated = try clipPaths(pattern: folder.path("events/door-%04d-%Y%m%d.mkv"), clips: 2, in: folder)
        let days = [before, Self.today()]
        #expect(dated.count == 2)
        for (index, path) in dated.enumerated() {
            #expect(days.contains { path == folder.path("events/door-000\(index + 1)-\($0).mkv") }, "\(path)")
        }
        // A file already there under the first name: the counter moves past it, the file is kept.
        let taken = folder.path("events/gate-0001.mkv")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: taken))
        #expect(try clipPaths(pattern: folder.path("events/gate-%04d.mkv"), clips: 1, in: folder) == [folder.path("events/gate-0002.mkv")])
        #expect(try String(contentsOfFile: taken, encoding: .utf8) == "keep me")

        let wrong = try CamrecBinary.run(["--device", "test", "--clips", folder.path("c-%04d.mp4"), folder.path("never.mkv")])
        #expect(wrong.status == 64 && wrong.stderr.contains(".mkv"), "\(wrong.stderr)")
        let bad = try CamrecBinary.run(["--device", "test", "--clips", folder.path("c-%q.mkv"), folder.path("never.mkv")])
        #expect(bad.status == 64 && bad.stderr.contains("%q"), "\(bad.stderr)")
    }

    /// Today's date in UTC as %Y%m%d.
    static func today() -> String {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd"
        return formatter.string(from: Date())
    }

    @Test("without --pre-roll or --post-roll a trigger says how to get clips; bad lengths are usage errors")
    func notEnabledAndBadValues() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("control")
        let run = try CamrecBinary.start(["--device", "test", "--size", "160x120", "--max-duration", "none",
                                          "--control", socket, folder.path("plain.mp4")])
        defer { run.signal(SIGKILL) }
        try #require(RecordingWait.frames(5, socket: socket), "\(run.stderrText)")
        let reply = try Self.trigger(socket)
        #expect(reply["ok"] as? Bool == false && (reply["error"] as? String ?? "").contains("--pre-roll"), "\(reply)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0)
        #expect(folder.contents == ["plain.mp4"])

        for (options, mentions) in [(["--max-clip", "0"], "--max-clip"), (["--pre-roll", "0", "--post-roll", "0"], "--post-roll"),
                                    (["--pre-roll", "-2s"], "--pre-roll")] {
            let bad = try CamrecBinary.run(["--device", "test"] + options + [folder.path("never.mp4")])
            #expect(bad.status == 64 && bad.stderr.contains(mentions), "\(options): \(bad.status) \(bad.stderr)")
        }
        let ctl = try CamrecBinary.run(["ctl", socket, "still", "--after", "2s"])
        #expect(ctl.status == 64 && ctl.stderr.contains("--after"), "\(ctl.stderr)")
    }
}

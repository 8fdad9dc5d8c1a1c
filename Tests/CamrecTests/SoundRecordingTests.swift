import Foundation
import Testing

/// Sound with the movie (`--audio`): what ffprobe and ffmpeg find in the files, sync measured
/// with the emulated camera's flashes and the click player (AVSync), and the faults.
@Suite("Sound: --audio", .serialized)
struct SoundRecordingTests {
    /// The first sample's time and where the last one ends, for stream `a:0` or `v:0`, as
    /// ffprobe decodes the file (edit lists, pre-skip and start times applied). A video
    /// frame lasts `frameDuration`.
    static func span(_ movie: String, stream: String, frameDuration: Double = 1.0 / 30) throws -> ClosedRange<Double> {
        let run = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", stream, "-show_frames",
                                                   "-show_entries", "frame=best_effort_timestamp_time,duration_time",
                                                   "-of", "csv=p=0", movie])
        let rows = run.stdoutText.split(separator: "\n").map { $0.split(separator: ",").map { Double($0) } }
        guard let first = rows.first?.first ?? nil, let last = rows.last, let start = last.first ?? nil else {
            throw MediaProbe.Failure(description: "ffprobe found no frames in \(stream) of \(movie): \(run.stderr)")
        }
        let duration = stream.hasPrefix("v") ? frameDuration : (last.count > 1 ? last[1] ?? 0 : 0)
        return first...(start + duration)
    }

    /// How far past one encoder packet the sound may end from the picture: the gate cuts
    /// the sound at the sample where the last frame ends, the encoder pads its last packet
    /// (so the last packet starts within one packet of the end), and the container's
    /// millisecond times round (2 ms).
    static let endSlack = 0.002

    /// NAME.partial.EXT, where a movie is written until it is finalised.
    static func partial(_ movie: String) -> String {
        let url = URL(fileURLWithPath: movie)
        return url.deletingPathExtension().path + ".partial." + url.pathExtension
    }

    /// codec, channels and sample rate of the first sound stream.
    static func soundStream(_ movie: String) throws -> (codec: String, channels: Int, rate: Int) {
        let run = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries",
                                                   "stream=codec_name,channels,sample_rate", "-of", "csv=p=0", movie])
        let fields = run.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
        guard fields.count == 3 else { throw MediaProbe.Failure(description: "no sound stream in \(movie): \(run.stdoutText) \(run.stderr)") }
        return (String(fields[0]), Int(fields[2]) ?? 0, Int(fields[1]) ?? 0)
    }

    @Test("--audio test: AAC in MP4, Opus in MKV at 48 kHz, as the started line says; sound and picture start and end together", arguments: [
        ("mp4", "aac", 1024.0 / 48000), ("mkv", "opus", 0.020),
    ])
    func toneInEachContainer(_ container: String, _ codec: String, _ packet: Double) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("tone.\(container)")
        let run = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--max-duration", "3s",
                                        "--audio", "test", "--json", movie])
        try #require(run.status == 0, "\(run.stderr)")
        let lines = JSONLines.parse(run)
        let started = try #require(lines.first { $0["type"] as? String == "started" })
        let audio = try #require(started["audio"] as? [String: Any], "started line: \(started)")
        #expect(audio["codec"] as? String == codec && audio["rate"] as? Int == 48000, "\(audio)")
        #expect(audio["device"] as? String == "test")
        let channels = try #require(audio["channels"] as? Int)
        let result = try #require(lines.first { $0["type"] as? String == "result" })
        #expect(result["dropped_audio_ms"] as? Int == 0, "\(result)")

        let stream = try Self.soundStream(movie)
        #expect(stream.codec == codec && stream.channels == channels && stream.rate == 48000, "\(stream)")
        #expect(try MediaProbe.decodeErrors(movie).isEmpty)
        let picture = try Self.span(movie, stream: "v:0")
        let sound = try Self.span(movie, stream: "a:0")
        // the sound's first real sample: after AAC's 1024 samples of priming (what players play first)
        let priming = codec == "aac" ? 1024.0 / 48000 : 0
        #expect(abs(sound.lowerBound + priming - picture.lowerBound) <= 1.0 / 30, "sound \(sound), picture \(picture)")
        #expect(abs(sound.upperBound - picture.upperBound) <= packet + Self.endSlack, "sound \(sound), picture \(picture)")
    }

    @Test("sound and picture in sync to the frame: flashes and clicks on the same instants (emulated camera, test sound server)",
          arguments: ["mp4", "mkv"])
    func syncMeasured(_ container: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("sync.\(container)")
        let (sync, phases) = try ClickedRecording.run { server in
            let camera = VirtualCameraDevice(formats: ["mjpeg"], sizes: ["640x480@30"], flash: "2s", trace: "frames")
            let env = try VirtualCameraEnvironment.shared().environment([camera], base: server.environment())
            let run = try CamrecBinary.run(["--device", "/dev/video0", "--size", "640x480", "--fps", "30",
                                            "--max-duration", "9s", "--audio", "vsink.monitor", "--json", "-f", movie],
                                           environment: env)
            try #require(run.status == 0, "\(run.stderr.suffix(2000))")
            return (try AVSync.measure(movie), AVSync.flashPhases(run.stderr, period: 2))
        }
        // Each flash frame was captured up to one frame interval after the click's instant
        // (the camera's frame grid is where it happens to be): judge camrec's own error.
        let offsets = try #require(sync.offsets(lessPhase: phases), "flash phases \(phases)")
        print("camrec, \(container): \(sync); flash phase \(phases.map { String(format: "%.1f", $0 * 1000) }) ms; error \(offsets.map { String(format: "%.1f", $0 * 1000) }) ms")
        #expect(offsets.count >= 3, "\(sync)")
        for offset in offsets { #expect(abs(offset) <= 1.0 / 30, "offsets less the flash phase \(offsets), \(sync)") }
        if let low = offsets.min(), let high = offsets.max() { #expect(high - low < 0.020, "drift: \(offsets)") }
    }

    @Test("camrec trim keeps the sound in step: the offsets of flashes and clicks are the same after the cut",
          arguments: ["mp4", "mkv"])
    func trimKeepsSync(_ container: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("whole.\(container)")
        let whole = try ClickedRecording.run { server in
            let camera = VirtualCameraDevice(formats: ["mjpeg"], sizes: ["640x480@30"], flash: "2s")
            let env = try VirtualCameraEnvironment.shared().environment([camera], base: server.environment())
            let run = try CamrecBinary.run(["--device", "/dev/video0", "--size", "640x480", "--fps", "30",
                                            "--max-duration", "9s", "--audio", "vsink.monitor", "-f", movie], environment: env)
            try #require(run.status == 0, "\(run.stderr)")
            return try AVSync.measure(movie)
        }
        let cut = folder.path("cut.\(container)")
        let trim = try CamrecBinary.run(["trim", "--start", "2.3", "--end", "7.9", "--output", cut, movie])
        try #require(trim.status == 0, "\(trim.stderr)")
        let trimmed = try AVSync.measure(cut)
        print("trim, \(container): whole \(whole), cut \(trimmed)")
        try #require(trimmed.offsets.count >= 2, "\(trimmed)")
        // each flash of the cut is a flash of the whole, 2.3 s earlier (to the frame), with the same offset
        for (flash, offset) in zip(trimmed.flashes, trimmed.offsets) {
            guard let index = whole.flashes.firstIndex(where: { abs($0 - 2.3 - flash) < 0.04 }), index < whole.offsets.count else {
                Issue.record("flash at \(flash) s of the cut is not in the whole movie: \(whole), \(trimmed)")
                continue
            }
            #expect(abs(offset - whole.offsets[index]) <= 0.003, "cut \(trimmed.offsets), whole \(whole.offsets)")
        }
    }

    @Test("a stop (SIGINT) ends the sound where the last frame ends")
    func stopEndsTogether() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("stopped.mkv")
        let camrec = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--max-duration", "60s",
                                             "--audio", "test", "--json", movie])
        defer { camrec.signal(SIGKILL) }
        try #require(camrec.waitForLine(type: "started"))
        // Matroska is readable as it is written: wait for two seconds of picture and sound
        let going = Wait.until(timeout: 60) {
            (try? Self.span(Self.partial(movie), stream: "a:0"))?.upperBound ?? 0 > 2
        }
        try #require(going, "\(camrec.stderrText)")
        camrec.signal(SIGINT)
        #expect(camrec.wait(timeout: 60) == 0, "\(camrec.stderrText)")
        let picture = try Self.span(movie, stream: "v:0")
        let sound = try Self.span(movie, stream: "a:0")
        #expect(abs(sound.upperBound - picture.upperBound) <= 0.020 + Self.endSlack, "sound \(sound), picture \(picture)")
    }

    @Test("a third signal aborts (exit 130): the movie is kept as written, with its sound", arguments: ["mp4", "mkv"])
    func abortKeepsSound(_ container: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("aborted.\(container)")
        let socket = folder.path("control")
        let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--max-duration", "none",
                                          "--audio", "test", "--control", socket, "--json", output])
        defer { run.signal(SIGKILL) }
        try #require(RecordingWait.frames(75, socket: socket), "\(run.stderrText)")
        // three different signals pending together, as RecordingTests does it
        run.signal(SIGSTOP)
        run.signal(SIGINT)
        run.signal(SIGTERM)
        run.signal(SIGHUP)
        run.signal(SIGCONT)
        #expect(run.wait() == 130, "\(run.stderrText)")
        // An aborted movie stays under its temporary name.
        let kept = try #require(run.lines(type: "started").first?["partial_path"] as? String)
        let picture = try Self.span(kept, stream: "v:0")
        let sound = try Self.span(kept, stream: "a:0")
        #expect(picture.upperBound > 1 && sound.upperBound > 1, "picture \(picture), sound \(sound)")
        #expect(abs(picture.upperBound - sound.upperBound) < 0.6, "picture \(picture), sound \(sound)")
        #expect(try MediaProbe.decodeErrors(kept).isEmpty)
    }

    @Test("a full disk: exit 74, the movie kept with its sound, both decodable", arguments: ["mp4", "mkv"])
    func fullDiskKeepsSound(_ container: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let small = try SmallDisk.mount(size: "400k", in: folder)
        defer { SmallDisk.unmount(small) }
        let output = small + "/full.\(container)"
        let run = try CamrecBinary.run(["--device", "test", "--size", "640x480", "--max-duration", "30",
                                        "--audio", "test", "--json", output])
        #expect(run.status == 74, "\(run.stderr)")
        let picture = try Self.span(output, stream: "v:0")
        let sound = try Self.span(output, stream: "a:0")
        #expect(picture.upperBound > 0.5 && sound.upperBound > 0.5, "picture \(picture), sound \(sound)")
        #expect(try MediaProbe.decodeErrors(output).isEmpty)
    }

    @Test("the camera lost mid-recording: exit 79, the movie kept with its sound to the last frame")
    func cameraLostKeepsSound() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("lost.mp4")
        let camera = VirtualCameraDevice(formats: ["mjpeg"], sizes: ["640x480@30"], fault: "unplug@90")
        let env = try VirtualCameraEnvironment.shared().environment([camera])
        let run = try CamrecBinary.run(["--device", "/dev/video0", "--max-duration", "60s", "--audio", "test", "--json", movie],
                                       environment: env)
        #expect(run.status == 79, "\(run.status) \(run.stderr)")
        let picture = try Self.span(movie, stream: "v:0")
        let sound = try Self.span(movie, stream: "a:0")
        #expect(picture.upperBound > 2, "picture \(picture)")
        #expect(abs(sound.upperBound - picture.upperBound) <= 0.2, "sound \(sound), picture \(picture)")
        #expect(try MediaProbe.decodeErrors(movie).isEmpty)
    }

    @Test("--audio default records the sound server's default source; a mono source stays mono")
    func serverSources() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try TestSoundServer(sinks: [.init(name: "vsink"), .init(name: "mic", channels: 1, rate: 44100)])
        defer { server.stop() }
        let stereo = folder.path("stereo.mp4")
        var run = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--max-duration", "2s",
                                        "--audio", "default", stereo], environment: server.environment())
        try #require(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("vsink.monitor"), "\(run.stderr)")
        var stream = try Self.soundStream(stereo)
        #expect(stream.codec == "aac" && stream.channels == 2 && stream.rate == 48000, "\(stream)")

        let mono = folder.path("mono.mp4")
        run = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--max-duration", "2s",
                                    "--audio", "mic.monitor", "--audio-bitrate", "64k", "--json", mono],
                                   environment: server.environment())
        try #require(run.status == 0, "\(run.stderr)")
        stream = try Self.soundStream(mono)
        // AAC takes the source's own standard rate: no resampling
        #expect(stream.codec == "aac" && stream.channels == 1 && stream.rate == 44100, "\(stream)")
        let started = JSONLines.parse(run).first { $0["type"] as? String == "started" }
        #expect((started?["audio"] as? [String: Any])?["bitrate"] as? Int == 64)
    }

    @Test("a missing source is exit 66 naming the sources there are; no sound server is 69; nothing is written")
    func missingSources() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try TestSoundServer()
        defer { server.stop() }
        let movie = folder.path("none.mp4")
        var run = try CamrecBinary.run(["--device", "test", "--max-duration", "2s", "--audio", "nosuch", movie],
                                       environment: server.environment())
        #expect(run.status == 66, "\(run.status) \(run.stderr)")
        #expect(run.stderr.contains("nosuch") && run.stderr.contains("vsink.monitor"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")

        var env = ProcessInfo.processInfo.environment
        env["PULSE_SERVER"] = "unix:" + folder.path("no-server")
        env["XDG_RUNTIME_DIR"] = folder.path("runtime")
        run = try CamrecBinary.run(["--device", "test", "--max-duration", "2s", "--audio", "default", movie], environment: env)
        #expect(run.status == 69, "\(run.status) \(run.stderr)")
        #expect(run.stderr.contains("no sound server answers"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix("none") }.isEmpty)

        run = try CamrecBinary.run(["--device", "test", "--audio-bitrate", "96k", movie])
        #expect(run.status == 64 && run.stderr.contains("--audio"), "\(run.stderr)")
    }

    @Test("the sound server going away mid-recording: one warning, the picture goes on, the sound stops there")
    func serverGoesAway() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try TestSoundServer()
        defer { server.stop() }
        let movie = folder.path("lost.mp4")
        let camrec = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--max-duration", "60s",
                                             "--audio", "default", "--json", movie], environment: server.environment())
        defer { camrec.signal(SIGKILL) }
        // fragments with sound and picture are written (the file grows past its first ones)
        let partial = Self.partial(movie)
        func size() -> Int { (try? FileManager.default.attributesOfItem(atPath: partial)[.size] as? Int) ?? 0 }
        try #require(Wait.until(timeout: 60) { size() > 60_000 }, "the movie did not grow: \(camrec.stderrText)")
        server.stop()
        try #require(camrec.waitForLine(type: "warning"), "no warning: \(camrec.stderrText)")
        // the picture goes on without the sound: the file keeps growing
        let then = size()
        try #require(Wait.until(timeout: 60) { size() > then + 60_000 }, "the picture stopped with the sound: \(camrec.stderrText)")
        camrec.signal(SIGINT)
        let status = camrec.wait(timeout: 60)
        #expect(status == 0, "\(camrec.stderrText)")
        let warnings = camrec.lines(type: "warning").compactMap { $0["message"] as? String }
        #expect(warnings.count == 1 && warnings.first?.contains("sound source stopped") == true, "\(warnings)")
        let picture = try Self.span(movie, stream: "v:0")
        let sound = try Self.span(movie, stream: "a:0")
        #expect(picture.upperBound > sound.upperBound + 1, "picture \(picture), sound \(sound)")
        #expect(try MediaProbe.decodeErrors(movie).isEmpty)
    }

    @Test("segments with sound: every segment has both, the sound adds up to the picture, cut at the same instant")
    func segments() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--max-duration", "3s", "--segment", "1s",
                                        "--audio", "test", "--json", folder.path("seg.mp4")])
        try #require(run.status == 0, "\(run.stderr)")
        let result = try #require(JSONLines.parse(run).first { $0["type"] as? String == "result" })
        #expect(result["reason"] as? String == "max-duration", "\(result)")
        let movies = (1...3).map { folder.path(String(format: "seg-%04d.mp4", $0)) }
        var packets = 0
        for (index, movie) in movies.enumerated() {
            let picture = try Self.span(movie, stream: "v:0")
            let sound = try Self.span(movie, stream: "a:0")
            // the first file holds AAC's priming before its first frame; later ones start at the cut
            let priming = index == 0 ? 1024.0 / 48000 : 0
            #expect(abs(sound.lowerBound + priming - picture.lowerBound) <= 1024.0 / 48000 + 0.002,
                    "\(movie): sound \(sound), picture \(picture)")
            let count = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-count_packets",
                                                         "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", movie])
            packets += Int(count.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            #expect(try MediaProbe.decodeErrors(movie).isEmpty)
        }
        // 3 s of sound in 1024-sample packets, plus the priming packet and the last one the
        // encoder pads (as one movie of 3 s has): nothing lost or doubled at the cuts
        let expected = Int((3.0 * 48000 / 1024 + 1).rounded(.up))
        #expect(abs(packets - expected) <= 1, "\(packets) sound packets in all, \(expected) expected")
    }

    @Test("kill -9: the partial MP4's fragments hold the picture and the sound, and camrec recover keeps both")
    func killedRecordingKeepsSound() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("killed.mp4")
        let camrec = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--max-duration", "60s",
                                             "--audio", "test", "--json", movie])
        defer { camrec.signal(SIGKILL) }
        let partial = Self.partial(movie)
        let written = Wait.until(timeout: 60) {
            (try? Self.span(partial, stream: "a:0"))?.upperBound ?? 0 > 2
        }
        try #require(written, "no sound in the partial movie")
        camrec.signal(SIGKILL)
        _ = camrec.wait(timeout: 30)
        let picture = try Self.span(partial, stream: "v:0")
        let sound = try Self.span(partial, stream: "a:0")
        #expect(picture.upperBound > 2 && sound.upperBound > 2, "picture \(picture), sound \(sound)")
        #expect(abs(picture.upperBound - sound.upperBound) < 1, "picture \(picture), sound \(sound)")
    }

    /// Silence encodes to AAC packets of one size, the case in which mp4mux 1.22 leaves
    /// packets' sizes out of its fragment headers in every fragment: camrec mends them as
    /// they are written (FragmentRepair), so ffmpeg reads the partial file as it is.
    @Test("a killed recording of silence: ffmpeg reads the partial file as it is, and camrec recover finishes it with its sound")
    func recoverKeepsSound() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try TestSoundServer()
        defer { server.stop() }
        let movie = folder.path("silence.mp4")
        let camrec = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--max-duration", "60s",
                                             "--audio", "default", "--json", movie], environment: server.environment())
        defer { camrec.signal(SIGKILL) }
        let partial = Self.partial(movie)
        // three half-second fragments written: the partial file has grown past the first
        let grown = Wait.until(timeout: 60) {
            ((try? FileManager.default.attributesOfItem(atPath: partial)[.size] as? Int) ?? 0) > 60_000
        }
        try #require(grown, "the partial movie did not grow: \(camrec.stderrText)")
        camrec.signal(SIGKILL)
        _ = camrec.wait(timeout: 30)
        let partialSound = try Self.span(partial, stream: "a:0")
        #expect(partialSound.upperBound > 1, "the partial file's sound: \(partialSound)")
        #expect(try MediaProbe.decodeErrors(partial).isEmpty)
        let run = try CamrecBinary.run(["recover", "-o", movie, partial])
        try #require(run.status == 0, "\(run.stderr)")
        let picture = try Self.span(movie, stream: "v:0")
        let sound = try Self.span(movie, stream: "a:0")
        #expect(picture.upperBound > 1 && sound.upperBound > 1, "picture \(picture), sound \(sound)")
        #expect(abs(picture.upperBound - sound.upperBound) < 0.6, "picture \(picture), sound \(sound)")
        #expect(try MediaProbe.decodeErrors(movie).isEmpty)
    }
}

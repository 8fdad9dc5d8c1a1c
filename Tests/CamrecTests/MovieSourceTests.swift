import Foundation
import Testing

/// A movie as a source (`--device file:PATH`, issue 36 item 1): camrec plays the movie in
/// real time in place of a camera, through the same run. Movies are made by ffmpeg and the
/// recordings checked by ffmpeg and ffprobe, frame by frame against the source.
@Suite struct MovieSourceTests {
    /// Makes a movie with ffmpeg: `inputs` (lavfi sources, each "-f lavfi -i …") and `output` options.
    static func make(_ path: String, inputs: [String], _ options: [String]) throws {
        var arguments = ["-nostdin", "-v", "error", "-y"]
        for input in inputs { arguments += ["-f", "lavfi", "-i", input] }
        let made = try ChildProcess.run("ffmpeg", arguments + options + [path], timeout: 120)
        try #require(made.status == 0, "ffmpeg: \(made.stderr)")
    }

    /// ffprobe's count of decoded video frames.
    static func frameCount(_ path: String) throws -> Int {
        let probe = try ChildProcess.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                     "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path])
        return Int(probe.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The PSNR (dB) of each frame of `movie` against frame k of `reference` (repeated
    /// `loops` times), frames paired by their index (not their times: a live source's
    /// stamps jitter), `offset` frames apart (movie frame k against reference frame k + offset).
    static func frameScores(_ movie: String, against reference: String, loops: Int = 1, offset: Int = 0) throws -> [Double] {
        let looped = loops > 1 ? "loop=loop=\(loops - 1):size=32767," : ""
        let skip = offset > 0 ? "trim=start_frame=\(offset)," : ""
        let graph = "[0:v]settb=1/30,setpts=N[a];[1:v]\(looped)\(skip)settb=1/30,setpts=N[b];[a][b]psnr=shortest=1:stats_file=-"
        let run = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-i", movie, "-i", reference,
                                                  "-lavfi", graph, "-f", "null", "-"], timeout: 120)
        try #require(run.status == 0, "ffmpeg psnr: \(run.stderr)")
        return run.stdoutText.split(separator: "\n").compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("psnr_avg:") }.flatMap { Double($0.dropFirst("psnr_avg:".count)) }
        }
    }

    @Test("a movie plays frame for frame: every frame of the recording is the source's frame of the same number; the run ends with it (source-ended)")
    func playsTheMovieFrameForFrame() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = folder.path("source.mp4")
        try Self.make(source, inputs: ["testsrc2=size=320x240:rate=30:duration=3", "sine=frequency=440:duration=3"],
                      ["-c:v", "libx264", "-crf", "12", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest"])
        let movie = folder.path("played.mp4")
        let run = try CamrecBinary.run(["--device", "file:" + source, "--json", movie], timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = JSONLines.parse(run)
        let started = try #require(lines.first { $0["type"] as? String == "started" })
        #expect(started["device"] as? String == "file:" + source && started["format"] as? String == "movie", "\(started)")
        #expect(started["size"] as? String == "320x240" && started["fps"] as? String == "30", "\(started)")
        let result = try #require(lines.last)
        #expect(result["type"] as? String == "result" && result["reason"] as? String == "source-ended", "\(result)")
        #expect(try Self.frameCount(movie) == 90)
        let scores = try Self.frameScores(movie, against: source)
        #expect(scores.count == 90)
        #expect(scores.allSatisfy { $0 >= 30 }, "frames unlike the source's: \(scores.enumerated().filter { $0.1 < 30 }.map(\.0))")
        // The comparison tells frames apart: one frame off, most frames score far lower.
        let shifted = try Self.frameScores(movie, against: source, offset: 1)
        #expect(shifted.filter { $0 < 30 }.count > 60, "\(shifted)")
    }

    @Test("--loop: the movie starts again at its end until --max-duration; each pass is the movie's frames")
    func loopsUntilTheLimit() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = folder.path("source.mkv")
        try Self.make(source, inputs: ["testsrc2=size=320x240:rate=30:duration=2"], ["-c:v", "libx264", "-crf", "12", "-pix_fmt", "yuv420p"])
        let movie = folder.path("looped.mkv")
        let run = try CamrecBinary.run(["--device", "file:" + source, "--loop", "--max-duration", "5", "--json", movie], timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let result = try #require(JSONLines.parse(run).last)
        #expect(result["reason"] as? String == "max-duration", "\(result)")
        #expect(try Self.frameCount(movie) == 150)
        let scores = try Self.frameScores(movie, against: source, loops: 3)
        #expect(scores.count == 150)
        #expect(scores.allSatisfy { $0 >= 30 }, "frames unlike the looped source's: \(scores.enumerated().filter { $0.1 < 30 }.map(\.0))")
    }

    @Test("a WebM (VP9) movie is a source like any other, at its own rate")
    func webMSource() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = folder.path("source.webm")
        try Self.make(source, inputs: ["testsrc2=size=320x180:rate=25:duration=2"], ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-b:v", "1M"])
        let movie = folder.path("played.mp4")
        let run = try CamrecBinary.run(["--device", "file:" + source, "--json", movie], timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let started = try #require(JSONLines.parse(run).first { $0["type"] as? String == "started" })
        #expect(started["size"] as? String == "320x180" && started["fps"] as? String == "25", "\(started)")
        #expect(try Self.frameCount(movie) == 50)
        let scores = try Self.frameScores(movie, against: source)
        #expect(scores.count == 50 && scores.allSatisfy { $0 >= 28 }, "\(scores)")
    }

    @Test("a movie that cannot be played is refused before anything starts, nothing written: missing 66, not a movie 65, no decoder 69")
    func brokenMovies() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let text = folder.path("notes.txt")
        try "not a movie\n".write(toFile: text, atomically: true, encoding: .utf8)
        let sound = folder.path("sound.m4a")
        try Self.make(sound, inputs: ["sine=duration=1"], ["-c:a", "aac"])
        let picture = folder.path("picture.png")
        try Self.make(picture, inputs: ["testsrc2=size=64x48"], ["-frames:v", "1"])
        let hevc = folder.path("hevc.mp4")
        try Self.make(hevc, inputs: ["testsrc2=size=320x240:rate=25:duration=1"], ["-c:v", "libx265", "-x265-params", "log-level=none"])
        // A machine without H.265 decoders: gst-libav (avdec_h265) and libde265 hidden.
        let noDecoder = try PluginRegistry.environment(withoutPlugins: ["libgstlibav.so", "libgstde265.so"], in: folder)
        let cases: [(device: String, status: Int32, says: String, environment: [String: String]?)] = [
            ("file:" + folder.path("missing.mp4"), 66, "no such file", nil),
            ("file:" + text, 65, "is not a movie GStreamer can read", nil),
            ("file:" + sound, 65, "has no video track (only sound)", nil),
            ("file:" + picture, 65, "is a still picture, not a movie", nil),
            ("file:" + hevc, 69, "sudo apt-get install gstreamer1.0-libav", noDecoder),
            ("file:", 64, "needs a movie's path", nil),
        ]
        for (index, (device, status, says, environment)) in cases.enumerated() {
            let movie = folder.path("out-\(index).mp4")
            let run = try CamrecBinary.run(["--device", device, movie], environment: environment, timeout: 120)
            #expect(run.status == status && run.stderr.contains(says), "\(device): \(run.status) \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1, "one line: \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: movie), "\(device) left \(movie)")
        }
        // The same movie plays where the decoder is installed: the 69 above was the decoder.
        let played = folder.path("hevc-played.mp4")
        let run = try CamrecBinary.run(["--device", "file:" + hevc, played], timeout: 120)
        let playedFrames = try Self.frameCount(played)
        #expect(run.status == 0 && playedFrames == 25, "\(run.stderr)")
        // --loop without a movie.
        let loop = try CamrecBinary.run(["--device", "test", "--loop", folder.path("never.mp4")])
        #expect(loop.status == 64 && loop.stderr.contains("--loop repeats a movie"), "\(loop.stderr)")
    }

    @Test("--on-motion on footage: a clip where the footage moves, none while it is still")
    func motionInTheFootage() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // 8 s of a still grey picture; a white square crosses it from 4 s to 5.5 s.
        let source = folder.path("footage.mp4")
        try Self.make(source, inputs: ["color=gray:size=320x240:rate=30:duration=8", "color=white:size=48x48:rate=30:duration=8"],
                      ["-filter_complex", "[0:v][1:v]overlay=x='if(between(t,4,5.5),(t-4)*180,-100)':y=96", "-c:v", "libx264",
                       "-crf", "12", "-pix_fmt", "yuv420p"])
        let movie = folder.path("watched.mp4")
        let run = try CamrecBinary.run(["--device", "file:" + source, "--on-motion", "--pre-roll", "1s", "--post-roll", "1s",
                                        "--json", movie], timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = JSONLines.parse(run)
        let motions = lines.filter { $0["type"] as? String == "motion" }
        let clips = lines.filter { $0["type"] as? String == "clip" }
        try #require(motions.count == 1 && clips.count == 1, "\(motions) \(clips)")
        // Seen while the square moves (movie time 4 to 5.5 s), and the clip holds that moment.
        let time = try #require(motions[0]["time"] as? Double)
        #expect(time >= 3.9 && time <= 5.6, "motion at \(time) s")
        let path = try #require(clips[0]["path"] as? String)
        let duration = try #require(clips[0]["duration"] as? Double)
        #expect(duration >= 1.9 && duration < 5, "clip of \(duration) s")
        #expect(try Self.frameCount(path) == clips[0]["frames"] as? Int)
        #expect(try Self.frameCount(movie) == 240)
    }

    /// The mean Y, U and V (0-255) of `rect` (x, y, w, h) in frame `frame` of `path`, decoded by ffmpeg.
    static func means(_ path: String, frame: Int, rect: (Int, Int, Int, Int)) throws -> (y: Double, u: Double, v: Double) {
        let run = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-vf",
                                                  "select=eq(n\\,\(frame)),crop=\(rect.2):\(rect.3):\(rect.0):\(rect.1),scale=16:16",
                                                  "-fps_mode", "passthrough", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "yuv444p", "-"])
        let bytes = [UInt8](run.stdout)
        try #require(run.status == 0 && bytes.count == 768, "ffmpeg: \(run.stderr)")
        func mean(_ plane: Int) -> Double { Double(bytes[(plane * 256)..<((plane + 1) * 256)].reduce(0) { $0 + Int($1) }) / 256 }
        return (mean(0), mean(1), mean(2))
    }

    @Test("--layout stacked: an emulated camera above, a movie below, each in the rectangle the JSON gives")
    func stackedBesideACamera() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = folder.path("red.mp4")
        try Self.make(source, inputs: ["color=red:size=320x240:rate=30:duration=3"], ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let environment = try VirtualCameraEnvironment.shared().environment(spec: "/dev/video0,formats=yuyv,sizes=320x240@30")
        let movie = folder.path("stacked.mp4")
        let run = try CamrecBinary.run(["--device", "/dev/video0", "--device", "file:" + source, "--size", "320x240", "--fps", "30",
                                        "--layout", "stacked", "--canvas", "320x480", "--json", movie],
                                       environment: environment, timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let result = try #require(JSONLines.parse(run).last)
        // The movie ends the run (its 3 s, less the frames before the camera's first).
        #expect(result["reason"] as? String == "source-ended", "\(result)")
        let layout = try #require(result["layout"] as? [String: Any])
        let cameras = try #require(layout["cameras"] as? [[String: Any]])
        try #require(cameras.count == 2, "\(layout)")
        #expect(cameras[1]["device"] as? String == "file:" + source, "\(cameras)")
        let rects = cameras.map { ($0["x"] as? Int ?? -1, $0["y"] as? Int ?? -1, $0["width"] as? Int ?? -1, $0["height"] as? Int ?? -1) }
        #expect(rects[0] == (0, 0, 320, 240) && rects[1] == (0, 240, 320, 240), "\(rects)")
        // The movie's 90 frames less those before the camera's first; a canvas frame or two
        // more may come while the camera is ended after the movie, showing its last frame.
        let frames = try Self.frameCount(movie)
        #expect(frames >= 60 && frames <= 93, "\(frames) frames")
        let last = try Self.means(movie, frame: frames - 1, rect: rects[1])
        #expect(last.v > 200 && last.u < 110, "the movie's rectangle in the last frame: \(last)")
        // Red where the JSON puts the movie (BT.601 red: V far above grey's 128), not where the camera is.
        let below = try Self.means(movie, frame: 30, rect: rects[1])
        let above = try Self.means(movie, frame: 30, rect: rects[0])
        #expect(below.v > 200 && below.u < 110, "the movie's rectangle: \(below)")
        #expect(above.v < 180, "the camera's rectangle: \(above)")
    }

    /// The times (s) at which `path`'s picture turns white (mean luma over 100, each frame)
    /// and its sound starts after silence (ffmpeg's signalstats and silencedetect).
    static func flashesAndBeeps(_ path: String) throws -> (flashes: [Double], beeps: [Double]) {
        let stats = try ChildProcess.run("ffprobe", ["-v", "error", "-f", "lavfi", "-i", "movie=\(path),signalstats",
                                                     "-show_entries", "frame=pts_time:frame_tags=lavfi.signalstats.YAVG",
                                                     "-of", "csv=p=0"], timeout: 120)
        var flashes: [Double] = []
        var white = false
        for line in stats.stdoutText.split(separator: "\n") {
            let fields = line.split(separator: ",").compactMap { Double($0) }
            guard fields.count == 2 else { continue }
            if fields[1] > 100, !white { flashes.append(fields[0]) }
            white = fields[1] > 100
        }
        let silence = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "info", "-i", path, "-af", "silencedetect=n=-30dB:d=0.05",
                                                      "-f", "null", "-"], timeout: 120)
        let beeps = silence.stderr.split(separator: "\n").compactMap { line -> Double? in
            guard let range = line.range(of: "silence_end: ") else { return nil }
            return Double(line[range.upperBound...].prefix { $0 == "." || $0.isNumber })
        }
        return (flashes, beeps)
    }

    @Test("--audio file: the movie's sound is the recording's, in step with its picture, also across --loop")
    func theMovieSoundInStep() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A white flash and a 1 kHz beep together at 1.5 s of 4 s.
        let source = folder.path("flash.mp4")
        try Self.make(source, inputs: ["color=black:size=320x240:rate=30:duration=4,drawbox=x=0:y=0:w=iw:h=ih:color=white:t=fill:enable='between(t,1.5,1.6)'",
                                       "aevalsrc='if(between(t,1.5,1.6),0.5*sin(2*PI*1000*t),0)':s=48000:d=4"],
                      ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac"])
        let movie = folder.path("heard.mkv")
        let run = try CamrecBinary.run(["--device", "file:" + source, "--audio", "file", "--loop", "--max-duration", "7", "--json", movie],
                                       timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let started = try #require(JSONLines.parse(run).first { $0["type"] as? String == "started" })
        let audio = try #require(started["audio"] as? [String: Any], "\(started)")
        #expect(audio["device"] as? String == "file:" + source, "\(audio)")
        #expect(try Self.frameCount(movie) == 210)
        let (flashes, beeps) = try Self.flashesAndBeeps(movie)
        // Each pass's flash at 1.5 s of the pass (the recording may start a frame into the
        // movie: with sound, at the first frame the sound covers), the passes 4 s apart, and
        // each beep with its flash (within a frame).
        try #require(flashes.count == 2 && beeps.count >= 2, "flashes \(flashes), beeps \(beeps)")
        #expect(abs(flashes[0] - 1.5) < 0.05, "flash at \(flashes[0]) s")
        #expect(abs(flashes[1] - flashes[0] - 4) < 0.02, "passes \(flashes[1] - flashes[0]) s apart")
        for flash in flashes {
            #expect(beeps.contains { abs($0 - flash) < 0.034 }, "no beep with the flash at \(flash) s: \(beeps)")
        }
        // --on-sound hears the movie's sound: the beep (100 ms at about -9 dBFS) at 1.5 s.
        let heard = try CamrecBinary.run(["--device", "file:" + source, "--audio", "file", "--on-sound", "-20:50ms",
                                          "--pre-roll", "1s", "--post-roll", "1s", "--json", folder.path("triggered.mkv")], timeout: 120)
        #expect(heard.status == 0, "\(heard.stderr)")
        let sounds = JSONLines.parse(heard).filter { $0["type"] as? String == "sound" }
        #expect(sounds.count == 1 && abs((sounds.first?["time"] as? Double ?? 0) - 1.5) < 0.1, "\(sounds)")
        // Refused: --audio file without a movie, or with a movie without sound.
        let silent = folder.path("silent.mp4")
        try Self.make(silent, inputs: ["testsrc2=size=160x120:rate=30:duration=1"], ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        for (device, says) in [("test", "give --device file:PATH too"), ("file:" + silent, "has no sound track")] {
            let refused = try CamrecBinary.run(["--device", device, "--audio", "file", folder.path("never.mp4")], timeout: 60)
            #expect(refused.status == 64 && refused.stderr.contains(says), "\(device): \(refused.stderr)")
        }
    }
}

import Foundation
import Testing

/// Several cameras in one run (`--device` more than once), end to end against emulated
/// cameras: each movie's frames are told apart by the stamp each camera draws on them
/// (its V4L2 sequence number), and `trace=frames` gives each sequence number's capture
/// time (the buffer's CLOCK_MONOTONIC timestamp), so that sync is measured on what the
/// cameras captured, not on what camrec reports.
///
/// Serialized: each case runs two or three cameras at once on a 2-core machine.
@Suite(.serialized) struct MultiCameraTests {
    func environment(_ devices: [String]) throws -> [String: String] {
        var environment = try VirtualCameraEnvironment.shared().environment(spec: devices.joined(separator: ";"))
        environment["CAMREC_DEVICE_PATHS"] = nil
        environment["SWIFT_BACKTRACE"] = "enable=no"
        return environment
    }

    /// An emulated camera that traces its frames; `overrun=wait` so that a loaded machine
    /// delays frames instead of losing them (each keeps its due timestamp).
    static func camera(_ index: Int, _ extra: String = "") -> String {
        "/dev/video\(index),formats=yuyv,sizes=320x240@30,trace=frames,overrun=wait" + extra
    }

    /// Capture time (seconds, CLOCK_MONOTONIC) of every frame each camera delivered, by
    /// device and sequence number, from `trace=frames` lines
    /// (`camrec VirtualCamera: /dev/video0: frame 18 at 41198.017437`). A later stream
    /// of the same device (sequence numbers start again) replaces an earlier one's.
    static func captureTimes(_ stderr: String) -> [String: [UInt32: Double]] {
        var times: [String: [UInt32: Double]] = [:]
        for line in stderr.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count >= 6, words[0] == "camrec", words[1] == "VirtualCamera:", words[3] == "frame",
                  words[5] == "at", words.count >= 7, let sequence = UInt32(words[4]), let time = Double(words[6]) else { continue }
            let device = String(words[2].dropLast())
            if sequence == 0 { times[device] = [:] }
            times[device, default: [:]][sequence] = time
        }
        return times
    }

    /// How late each camera starts streaming after it is told to (`late=`): without a
    /// common start, the movies would begin these far apart.
    static let lateness = ["", ",late=300ms", ",late=150ms"]

    @Test("two cameras for 30 s and three for 3 s: every movie has exactly its frames, all first frames within one frame interval, and they stay so",
          arguments: [(2, 30), (3, 3)])
    func camerasStartTogetherAndStayInStep(cameras: Int, seconds: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let devices = (0..<cameras).map { "/dev/video\($0)" }
        let run = try CamrecBinary.run(devices.flatMap { ["--device", $0] } + ["--max-duration", "\(seconds)", "--json", folder.path("m.mp4")],
                                       environment: environment((0..<cameras).map { Self.camera($0, Self.lateness[$0]) }),
                                       timeout: 120)
        try #require(run.status == 0, "\(run.stderr.suffix(2000))")
        let movies = (1...cameras).map { folder.path("m-\($0).mp4") }
        #expect(Set(folder.contents) == Set(movies.map { URL(fileURLWithPath: $0).lastPathComponent }))

        let lines = JSONLines.parse(run)
        let started = try #require(lines.first { $0["type"] as? String == "started" })
        let listed = try #require(started["cameras"] as? [[String: Any]])
        #expect(listed.map { $0["device"] as? String } == devices)
        #expect(listed.map { $0["path"] as? String } == movies)
        #expect(listed.map { $0["index"] as? Int } == Array(1...cameras))
        let result = try #require(lines.last)
        #expect(result["type"] as? String == "result" && result["reason"] as? String == "max-duration")
        let files = try #require(result["files"] as? [[String: Any]])
        #expect(files.map { $0["path"] as? String } == movies)
        #expect(files.map { $0["device"] as? String } == devices)

        let times = Self.captureTimes(run.stderr)
        var captured: [[Double]] = []
        for (index, movie) in movies.enumerated() {
            // Exact --max-duration per camera, counted by ffprobe.
            let probe = try MediaProbe.probe(movie)
            #expect(probe.frames == seconds * 30, "\(movie): ffprobe counted \(probe.frames) frames, want \(seconds * 30)")
            #expect(files[index]["frames"] as? Int == probe.frames)
            let stamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: movie))
            let sequences = stamps.compactMap { $0 }
            #expect(sequences.count == stamps.count, "\(movie): unreadable stamps")
            // Consecutive camera frames: nothing lost or repeated inside a movie.
            #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $1 == $0 + 1 }, "\(movie): \(sequences)")
            let deviceTimes = try #require(times[devices[index]], "no trace=frames lines for \(devices[index])")
            captured.append(try sequences.map { sequence in
                try #require(deviceTimes[sequence], "\(devices[index]) frame \(sequence) has no capture time")
            })
        }
        let interval = 1.0 / 30
        let firsts = captured.compactMap(\.first)
        if let earliest = firsts.min(), let latest = firsts.max() {
            #expect(latest - earliest < interval, "first frames captured at \(firsts)")
        }
        // The k-th frame of every movie was captured within one frame interval of the others'.
        let frames = captured.map(\.count).min() ?? 0
        let worst = (0..<frames).map { k in
            let column = captured.map { $0[k] }
            return (column.max() ?? 0) - (column.min() ?? 0)
        }.max() ?? 0
        #expect(frames == seconds * 30)
        #expect(worst < interval, "frames of the same index up to \(worst) s apart")
    }

    /// The frame number each device last delivered, from the trace=frames lines so far.
    static func delivered(_ stderr: String) -> [String: UInt32] {
        captureTimes(stderr).mapValues { $0.keys.max() ?? 0 }
    }

    @Test func oneTriggerTakesAStillFromEveryCamera() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let devices = ["/dev/video0", "/dev/video1"]
        let run = try CamrecBinary.start(devices.flatMap { ["--device", $0] } + ["--max-duration", "none", "--json", folder.path("m.mkv")],
                                         environment: environment([Self.camera(0), Self.camera(1, ",late=300ms")]))
        defer { if run.process.isRunning { run.signal(SIGKILL) } }
        func cameras(past frame: UInt32) -> Bool {
            let last = Self.delivered(run.stderrText)
            return devices.allSatisfy { (last[$0] ?? 0) >= frame }
        }
        // Both movies are under way once the late camera has delivered 30 frames.
        try #require(Wait.until(timeout: 60) { cameras(past: 30) }, "\(run.stderrText.suffix(1000))")
        run.signal(SIGUSR1)
        try #require(run.waitForLines(type: "still", count: 2), "\(run.stderrText.suffix(1000))")
        // A few frames after the stills, so that their frames lie inside the movies.
        let now = Self.delivered(run.stderrText).values.max() ?? 0
        try #require(Wait.until(timeout: 60) { cameras(past: now + 15) })
        run.signal(SIGINT)
        #expect(run.wait() == 0, "\(run.stderrText.suffix(1000))")
        let stills = run.lines(type: "still")
        #expect(stills.count == 2)
        #expect(Set(stills.compactMap { $0["device"] as? String }) == Set(devices))
        for still in stills {
            let device = try #require(still["device"] as? String)
            let index = try #require(devices.firstIndex(of: device)) + 1
            let path = try #require(still["path"] as? String)
            #expect(path == folder.path("m-\(index)-still-0001.jpg"))
            let frame = try #require(still["frame"] as? Int)
            let movieStamps = try FrameStampReader.sequences(inVideo: URL(fileURLWithPath: folder.path("m-\(index).mkv")))
            let stamp = try FrameStampReader.sequence(inImage: URL(fileURLWithPath: path))
            #expect(stamp != nil && frame < movieStamps.count && movieStamps[frame] == stamp,
                    "\(path): still stamp \(String(describing: stamp)), movie frame \(frame)")
        }
        let result = try #require(run.jsonLines.last)
        let files = try #require(result["files"] as? [[String: Any]])
        #expect(files.filter { $0["kind"] as? String == "still" }.count == 2)
        #expect(files.allSatisfy { $0["device"] is String })
    }

    @Test("--stills with several cameras: a pattern's {index}/{device} filled in, -1/-2 added before the extension without them, a folder under each movie's name",
          arguments: [("shots/cam-{device}-%03d.jpg", ["shots/cam-video0-001.jpg", "shots/cam-video1-001.jpg"]),
                      ("shots/img-%03d.png", ["shots/img-001-1.png", "shots/img-001-2.png"]),
                      ("shots/", ["shots/m-1-still-0001.jpg", "shots/m-2-still-0001.jpg"])])
    func aStillsPatternIsEachCamerasOwn(_ pattern: String, _ firsts: [String]) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("shots"), withIntermediateDirectories: true)
        let run = try CamrecBinary.run(["--device", "/dev/video0", "--device", "/dev/video1", "--max-duration", "1.2",
                                        "--still-every", "0.5", "--stills", folder.path(pattern), "--json", folder.path("m.mkv")],
                                       environment: environment([Self.camera(0), Self.camera(1)]), timeout: 120)
        try #require(run.status == 0, "\(run.stderr.suffix(2000))")
        let stills = JSONLines.parse(run).filter { $0["type"] as? String == "still" }
        for (index, first) in firsts.enumerated() {
            let own = stills.filter { $0["device"] as? String == "/dev/video\(index)" }.compactMap { $0["path"] as? String }
            #expect(own.count >= 2 && own.first == folder.path(first), "camera \(index + 1): \(own)")
            for path in own {
                #expect(FileManager.default.fileExists(atPath: path), "\(path)")
                #expect(try FrameStampReader.sequence(inImage: URL(fileURLWithPath: path)) != nil, "\(path) is not a camera frame")
            }
        }
    }

    @Test func aSignalFinalisesEveryCamerasMovie() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let devices = ["/dev/video0", "/dev/video1"]
        let run = try CamrecBinary.start(devices.flatMap { ["--device", $0] } + ["--max-duration", "none", "--json", folder.path("m.mp4")],
                                         environment: environment([Self.camera(0), Self.camera(1)]))
        defer { if run.process.isRunning { run.signal(SIGKILL) } }
        try #require(Wait.until(timeout: 60) {
            let last = Self.delivered(run.stderrText)
            return devices.allSatisfy { (last[$0] ?? 0) >= 45 }
        }, "\(run.stderrText.suffix(1000))")
        run.signal(SIGINT)
        #expect(run.wait() == 0, "\(run.stderrText.suffix(1000))")
        #expect(folder.contents == ["m-1.mp4", "m-2.mp4"])
        let result = try #require(run.jsonLines.last)
        #expect(result["reason"] as? String == "signal")
        let files = try #require(result["files"] as? [[String: Any]])
        for (index, file) in files.enumerated() {
            let probe = try MediaProbe.probe(folder.path("m-\(index + 1).mp4"))
            #expect(probe.frames > 0 && file["frames"] as? Int == probe.frames, "\(file)")
            #expect(try MediaProbe.topLevelBoxes(folder.path("m-\(index + 1).mp4")).contains("moov"))
        }
    }

    @Test func aCameraLostMidRunEndsItsMovieAndTheOthersGoOn() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.run(["--device", "/dev/video0", "--device", "/dev/video1", "--max-duration", "3", "--json",
                                        folder.path("m.mp4")],
                                       environment: environment([Self.camera(0), Self.camera(1, ",fault=unplug@45")]), timeout: 120)
        #expect(run.status == 79, "\(run.stderr.suffix(2000))")
        let result = try #require(JSONLines.parse(run).last)
        #expect(result["reason"] as? String == "camera-lost")
        let files = try #require(result["files"] as? [[String: Any]])
        #expect(files.map { $0["device"] as? String } == ["/dev/video0", "/dev/video1"])
        #expect(try MediaProbe.probe(folder.path("m-1.mp4")).frames == 90)
        let lost = try MediaProbe.probe(folder.path("m-2.mp4"))
        #expect(lost.frames > 0 && lost.frames < 45)
        #expect(files.last?["frames"] as? Int == lost.frames)
        #expect(try MediaProbe.decodeErrors(folder.path("m-2.mp4")).isEmpty)
    }

    @Test func allOrNothingStopsEveryCameraWhenOneIsLost() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.run(["--device", "/dev/video0", "--device", "/dev/video1", "--max-duration", "10",
                                        "--all-or-nothing", "--json", folder.path("m.mp4")],
                                       environment: environment([Self.camera(0), Self.camera(1, ",fault=unplug@45")]), timeout: 120)
        #expect(run.status == 79, "\(run.stderr.suffix(2000))")
        let lines = JSONLines.parse(run)
        let result = try #require(lines.last)
        #expect(result["reason"] as? String == "camera-lost")
        #expect(lines.contains { $0["type"] as? String == "warning" && ($0["message"] as? String ?? "").contains("--all-or-nothing") },
                "\(run.stdout)")
        // Both movies finalised; the first camera's stopped soon after the second was lost,
        // long before its 10-s limit (300 frames).
        let files = try #require(result["files"] as? [[String: Any]])
        #expect(files.map { $0["device"] as? String } == ["/dev/video0", "/dev/video1"])
        let first = try MediaProbe.probe(folder.path("m-1.mp4"))
        #expect(first.frames >= 40 && first.frames < 300, "\(first)")
        #expect(files.first?["frames"] as? Int == first.frames)
        for index in 1...2 {
            #expect(try MediaProbe.topLevelBoxes(folder.path("m-\(index).mp4")).contains("moov"))
            #expect(try MediaProbe.decodeErrors(folder.path("m-\(index).mp4")).isEmpty)
        }
    }

    @Test func allOrNothingNeedsSeveralCameras() throws {
        let run = try CamrecBinary.run(["--device", "test", "--all-or-nothing", "--max-duration", "1", "/tmp/never-made.mp4"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--all-or-nothing is about several cameras"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-made.mp4"))
    }

    @Test func soundGoesWithTheFirstMovie() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.run(["--device", "/dev/video0", "--device", "/dev/video1", "--max-duration", "2",
                                        "--audio", "test", "--json", folder.path("s.mkv")],
                                       environment: environment([Self.camera(0), Self.camera(1)]), timeout: 120)
        try #require(run.status == 0, "\(run.stderr.suffix(2000))")
        func soundCodecs(_ path: String) throws -> String {
            let probe = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "a", "-show_entries", "stream=codec_name",
                                                         "-of", "csv=p=0", path])
            return probe.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try soundCodecs(folder.path("s-1.mkv")) == "opus")
        #expect(try soundCodecs(folder.path("s-2.mkv")) == "")
        #expect(try MediaProbe.probe(folder.path("s-2.mkv")).frames == 60)
        let started = try #require(JSONLines.parse(run).first { $0["type"] as? String == "started" })
        #expect((started["audio"] as? [String: Any])?["device"] as? String == "test")
    }

    struct StartFault: CustomStringConvertible, Sendable {
        let second: String
        let status: Int32
        let mentions: String
        var description: String { second }
    }

    @Test("a second camera that cannot be opened: one line naming it, nothing recorded, the exit code for one camera",
          arguments: [
            StartFault(second: "/dev/video1,fault=ebusy", status: 75, mentions: "another program"),
            StartFault(second: "/dev/video1,fault=eacces", status: 77, mentions: "video group"),
            StartFault(second: "/dev/video1,fault=enoent", status: 66, mentions: "no camera"),
          ])
    func failingSecondCameraRecordsNothing(_ fault: StartFault) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.run(["--device", "/dev/video0", "--device", "/dev/video1", "--max-duration", "2", folder.path("m.mp4")],
                                       environment: environment([Self.camera(0), fault.second]), timeout: 120)
        #expect(run.status == fault.status, "\(run.stderr)")
        let errors = run.stderr.split(separator: "\n").filter { !$0.contains("VirtualCamera:") }
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.contains("/dev/video1") == true, "\(errors)")
        #expect(errors.first?.contains(fault.mentions) == true, "\(errors)")
        #expect(folder.contents.isEmpty, "\(folder.contents)")
    }

    @Test func aSecondCameraThatFailsAsItStartsStreamingRecordsNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Opened and negotiated, then lost before its first frame: the first camera has
        // frames by then, held at the start barrier.
        let args = ["--device", "/dev/video0", "--device", "/dev/video1", "--max-duration", "2", folder.path("m.mp4")]
        let single = try CamrecBinary.run(["--max-duration", "2", folder.path("one.mp4")],
                                          environment: environment([Self.camera(0, ",fault=unplug@0")]))
        let run = try CamrecBinary.run(args, environment: environment([Self.camera(0), Self.camera(1, ",fault=unplug@0")]), timeout: 120)
        #expect(run.status == single.status && run.status != 0, "\(run.stderr)")
        // The run's last line says what failed (the lines before it say what started).
        let last = run.stderr.split(separator: "\n").last { !$0.contains("VirtualCamera:") && !$0.contains("warning:") }
        #expect(last?.contains("camera 2 (/dev/video1): src: Could not read from resource") == true, "\(run.stderr)")
        #expect(!run.stderr.contains("CRITICAL"), "\(run.stderr)")
        #expect(folder.contents.isEmpty, "\(folder.contents)")
    }

    @Test func aCameraNotThereIsNamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.run(["--device", "/dev/video0", "--device", "/dev/video4", "--max-duration", "1", folder.path("m.mp4")],
                                       environment: environment([Self.camera(0)]))
        #expect(run.status == 66, "\(run.stderr)")
        let errors = run.stderr.split(separator: "\n").filter { !$0.contains("VirtualCamera:") }
        #expect(errors.count == 1 && errors.first?.contains("/dev/video4") == true, "\(errors)")
        #expect(folder.contents.isEmpty)
    }

    @Test func outputPerDeviceFillsInEachCamerasIndexAndNode() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.run(["--device", "/dev/video0", "--device", "/dev/video1", "--output-per-device",
                                        "--max-duration", "1", "--json", folder.path("cam{index}-{device}.mkv")],
                                       environment: environment([Self.camera(0), Self.camera(1)]), timeout: 120)
        try #require(run.status == 0, "\(run.stderr.suffix(2000))")
        #expect(folder.contents == ["cam1-video0.mkv", "cam2-video1.mkv"])
        let result = try #require(JSONLines.parse(run).last)
        let files = try #require(result["files"] as? [[String: Any]])
        #expect(files.map { $0["path"] as? String } == [folder.path("cam1-video0.mkv"), folder.path("cam2-video1.mkv")])
        for name in ["cam1-video0.mkv", "cam2-video1.mkv"] { #expect(try MediaProbe.probe(folder.path(name)).frames == 30) }
    }

    @Test(arguments: [
        (["--device", "/dev/video0", "--device", "/dev/video1", "--output-per-device"], "same.mp4", "neither {index} nor {device}"),
        (["--device", "/dev/video0", "--output-per-device"], "cam-{index}.mp4", "several cameras"),
    ])
    func outputPerDeviceNeedsAPatternAndCameras(_ arguments: [String], _ output: String, _ mentions: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.run(arguments + [folder.path(output)], environment: environment([Self.camera(0), Self.camera(1)]))
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains(mentions), "\(run.stderr)")
        #expect(folder.contents.isEmpty)
    }

    @Test(arguments: [["/dev/video0", "/dev/video0"], ["0", "/dev/video0"]])
    func theSameCameraTwiceIsRefused(_ devices: [String]) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.run(devices.flatMap { ["--device", $0] } + ["--max-duration", "1", folder.path("m.mp4")],
                                       environment: environment([Self.camera(0), Self.camera(1)]))
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("give each camera once"), "\(run.stderr)")
        #expect(folder.contents.isEmpty)
    }

    @Test(arguments: [(["--layout", "grid", "--codec", "copy"], "--layout draws every camera's picture onto one canvas")])
    func optionsImpossibleWithSeveralCamerasAreRefused(_ options: [String], _ named: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try CamrecBinary.run(["--device", "/dev/video0", "--device", "/dev/video1"] + options + [folder.path("m.mp4")],
                                       environment: environment([Self.camera(0), Self.camera(1)]))
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains(named), "\(run.stderr)")
        #expect(folder.contents.isEmpty)
    }
}

import Foundation
import Testing

/// Two emulated 320x240@30 YUYV cameras for a canvas (`extra`: more of each camera's spec).
enum CanvasCameras {
    static let devices = ["/dev/video0", "/dev/video1"]

    static func environment(extra: String = "", base: [String: String] = ProcessInfo.processInfo.environment) throws -> [String: String] {
        var environment = try VirtualCameraEnvironment.shared().environment(
            spec: devices.map { "\($0),formats=yuyv,sizes=320x240@30\(extra)" }.joined(separator: ";"), base: base)
        environment["CAMREC_DEVICE_PATHS"] = nil
        environment["SWIFT_BACKTRACE"] = "enable=no"
        return environment
    }
}

/// Issue 31 item 7: `--control` and `--set` with `--layout`. A canvas is one run like a single
/// camera's, driven by the same control (`RunControls`, `ControlAnswers`): status, still,
/// set (on every camera) and stop over the socket, end to end on two emulated cameras.
@Suite(.serialized) struct ComposedControlTests {
    @Test("--set on every camera of a canvas; ctl status, still, set and stop drive it (--layout with --control); all put back at the end")
    func controlSocketDrivesACanvas() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let log = folder.url.appendingPathComponent("log")
        let socket = folder.path("control")
        let devices = CanvasCameras.devices
        let environment = try CanvasCameras.environment(extra: ",trace=controls")
        let movie = folder.path("both.mp4")
        let arguments = devices.flatMap { ["--device", $0] }
            + ["--layout", "side-by-side", "--canvas", "640x240", "--set", "brightness=20", "--max-duration", "none",
               "--control", socket, "--json", movie]
        let run = try CamrecBinary.start(arguments, environment: environment)
        defer { if run.process.isRunning { run.signal(SIGKILL) } }
        try #require(RecordingWait.frames(15, socket: socket), "\(run.stderrText.suffix(1000))")
        let started = try #require(run.lines(type: "started").first)
        let controls = try #require(started["controls"] as? [[String: Any]], "\(started)")
        #expect(controls.first?["name"] as? String == "brightness" && controls.first?["value"] as? String == "20", "\(controls)")

        let status = try MultiCameraClipTests.ctl(socket, ["status"], log: log)
        #expect(status["ok"] as? Bool == true && status["state"] as? String == "recording", "\(status)")
        #expect(status["path"] as? String == movie, "\(status)")

        // The composed still is the reply; each camera's own still comes as a line of its own.
        let still = try MultiCameraClipTests.ctl(socket, ["still"], log: log)
        #expect(still["ok"] as? Bool == true && still["path"] as? String == folder.path("both-still-0001.jpg"), "\(still)")
        try #require(run.waitForLines(type: "still", count: 3), "\(run.stderrText.suffix(1000))")
        let size = try MediaProbe.probe(folder.path("both-still-0001.jpg"))
        #expect(size.width == 640 && size.height == 240, "\(size.width)x\(size.height)")

        // set goes to every camera, and is put back at the end.
        let set = try MultiCameraClipTests.ctl(socket, ["set", "brightness=30"], log: log)
        #expect(set["ok"] as? Bool == true, "\(set)")
        let each = try #require(set["cameras"] as? [[String: Any]], "\(set)")
        #expect(each.map { $0["device"] as? String } == devices)

        // split needs segments, which a canvas has not: a clear refusal, the run goes on.
        let split = try MultiCameraClipTests.ctl(socket, ["split"], log: log)
        #expect(split["ok"] as? Bool == false && (split["error"] as? String ?? "").contains("--segment"), "\(split)")

        #expect(try MultiCameraClipTests.ctl(socket, ["stop"], log: log)["ok"] as? Bool == true)
        #expect(run.wait() == 0, "\(run.stderrText.suffix(1000))")
        let probe = try MediaProbe.probe(movie)
        #expect(probe.width == 640 && probe.height == 240 && probe.frames >= 15, "\(probe.width)x\(probe.height), \(probe.frames)")
        #expect(try MediaProbe.decodeErrors(movie).isEmpty)
        let writes = run.stderrText.split(separator: "\n").filter { $0.contains("VirtualCamera:") && $0.contains(": set Brightness") }
        for device in devices {
            let own = writes.filter { $0.contains("\(device): set ") }.map { String($0.split(separator: ": set ").last ?? "") }
            #expect(own == ["Brightness = 20", "Brightness = 30", "Brightness = 0"], "\(device): \(writes)")
        }
        JSONLog.write(arguments: arguments, stdout: run.stdoutData, to: log)
        if SchemaTests.unusable == nil {
            let checked = try ChildProcess.run(SchemaTests.checker, [log.path], timeout: 120)
            #expect(checked.status == 0, "\(checked.stderr)")
        }
    }

    /// Issue 31 item 7: `--stills PATTERN` with `--layout`: the canvas's stills and each
    /// camera's own, named as several cameras name them (`{index}`/`{device}` filled in, the
    /// canvas's read as "canvas"; without them `-1`, `-2` before the extension).
    @Test("--stills PATTERN with --layout: a still of the canvas and one per camera, each named from the pattern",
          arguments: [("cam-{device}-%03d.jpg", ["cam-canvas-001.jpg", "cam-video0-001.jpg", "cam-video1-001.jpg"]),
                      ("img-%03d.png", ["img-001.png", "img-001-1.png", "img-001-2.png"])])
    func stillsPatternOnACanvas(_ pattern: String, _ names: [String]) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let devices = CanvasCameras.devices
        let environment = try CanvasCameras.environment()
        let shots = folder.path("shots")
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let run = try CamrecBinary.run(devices.flatMap { ["--device", $0] }
                                       + ["--layout", "side-by-side", "--canvas", "640x240", "--stills", shots + "/" + pattern,
                                          "--still-every", "0.5", "-t", "0.8", "--json", folder.path("both.mkv")],
                                       environment: environment, timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let stills = JSONLines.parse(run).filter { $0["type"] as? String == "still" }
        let paths = Set(stills.compactMap { $0["path"] as? String })
        for name in names { #expect(paths.contains(shots + "/" + name), "\(name) not among \(paths.sorted())") }
        // The canvas's still is the canvas; each camera's is its own frame, with its device and rectangle.
        let canvas = try MediaProbe.probe(shots + "/" + names[0])
        #expect(canvas.width == 640 && canvas.height == 240, "\(canvas.width)x\(canvas.height)")
        for (index, name) in names.dropFirst().enumerated() {
            let own = try MediaProbe.probe(shots + "/" + name)
            #expect(own.width == 320 && own.height == 240, "\(name): \(own.width)x\(own.height)")
            let line = stills.first { $0["path"] as? String == shots + "/" + name }
            #expect(line?["device"] as? String == devices[index] && line?["rect"] != nil, "\(String(describing: line))")
        }
    }
}

/// Issue 31 item 7: event clips with `--layout`: cut from the canvas's encoded stream,
/// named after OUTPUT, triggered as for one camera.
@Suite(.serialized) struct ComposedClipTests {
    @Test("ctl clip and SIGUSR2 on a canvas: clips of the canvas, from its pre-roll, named after OUTPUT")
    func clipsOfACanvas() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("control")
        let devices = CanvasCameras.devices
        let environment = try CanvasCameras.environment()
        let movie = folder.path("both.mp4")
        let run = try CamrecBinary.start(devices.flatMap { ["--device", $0] }
                                         + ["--layout", "side-by-side", "--canvas", "640x240", "--pre-roll", "1s", "--post-roll", "1s", "--clip-start", "exact",
                                            "--max-duration", "none", "--control", socket, "--json", movie],
                                         environment: environment)
        defer { if run.process.isRunning { run.signal(SIGKILL) } }
        // Past the pre-roll.
        try #require(RecordingWait.frames(45, socket: socket), "\(run.stderrText.suffix(1000))")
        let reply = try MultiCameraClipTests.ctl(socket, ["clip"], log: folder.url.appendingPathComponent("log"))
        #expect(reply["ok"] as? Bool == true && reply["path"] as? String == folder.path("both-clip-0001.mp4"), "\(reply)")
        try #require(run.waitForLines(type: "clip", count: 1), "\(run.stderrText.suffix(1000))")
        run.signal(SIGUSR2)
        try #require(run.waitForLines(type: "clip", count: 2), "\(run.stderrText.suffix(1000))")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText.suffix(1000))")
        for number in 1...2 {
            let clip = folder.path("both-clip-000\(number).mp4")
            let probe = try MediaProbe.probe(clip)
            #expect(probe.width == 640 && probe.height == 240, "\(clip): \(probe.width)x\(probe.height)")
            #expect(probe.frames == 60, "\(clip): \(probe.frames) frames, want 60 (1 s before the trigger, 1 s after)")
            #expect(try MediaProbe.decodeErrors(clip).isEmpty)
        }
        let result = try #require(run.jsonLines.last)
        let files = try #require(result["files"] as? [[String: Any]])
        #expect(files.filter { $0["kind"] as? String == "clip" }.count == 2, "\(files)")
    }
}

/// Issue 31 item 7: `--segment` and retention with `--layout`: the canvas's own series,
/// named from OUTPUT as one camera's, each movie exactly its slot of frames.
@Suite(.serialized) struct ComposedSegmentTests {
    @Test("--layout --segment 1 --keep 2: movies of exactly 30 canvas frames, the oldest deleted, each published whole")
    func segmentsOfACanvas() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let devices = CanvasCameras.devices
        let environment = try CanvasCameras.environment(extra: ",overrun=wait")
        let run = try CamrecBinary.run(devices.flatMap { ["--device", $0] }
                                       + ["--layout", "side-by-side", "--canvas", "640x240", "--segment", "1", "--keep", "2",
                                          "-t", "3.5", "--json", folder.path("both.mkv")],
                                       environment: environment, timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = JSONLines.parse(run)
        let segments = lines.filter { $0["type"] as? String == "segment" }.compactMap { $0["path"] as? String }
        #expect(segments == (1...4).map { folder.path(String(format: "both-%04d.mkv", $0)) }, "\(segments)")
        let deleted = lines.filter { $0["type"] as? String == "deleted" }.compactMap { $0["path"] as? String }
        #expect(deleted == [folder.path("both-0001.mkv"), folder.path("both-0002.mkv")], "\(deleted)")
        #expect(folder.contents.sorted() == ["both-0003.mkv", "both-0004.mkv"], "\(folder.contents)")
        for (name, frames) in [("both-0003.mkv", 30), ("both-0004.mkv", 15)] {
            let probe = try MediaProbe.probe(folder.path(name))
            #expect(probe.width == 640 && probe.height == 240 && probe.frames == frames, "\(name): \(probe.width)x\(probe.height), \(probe.frames)")
            #expect(try MediaProbe.decodeErrors(folder.path(name)).isEmpty)
        }
        let result = try #require(lines.last)
        let movies = (result["files"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "movie" }
        #expect(movies.compactMap { $0["path"] as? String } == [folder.path("both-0003.mkv"), folder.path("both-0004.mkv")], "\(result)")
        #expect(result["layout"] != nil, "\(result)")
    }
}

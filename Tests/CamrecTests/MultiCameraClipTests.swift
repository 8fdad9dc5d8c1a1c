import Foundation
import Testing

/// Event clips, the control socket and camera controls with several cameras (`--device`
/// more than once, a movie each), end to end against emulated cameras. A clip's frames are
/// told apart by the stamp each camera draws (its V4L2 sequence number), and `trace=frames`
/// gives every sequence number's capture time, so "the same instant" is measured on what
/// the cameras captured, not on what camrec reports.
///
/// Serialized: each case runs two cameras at once on a 2-core machine.
@Suite(.serialized) struct MultiCameraClipTests {
    static let devices = ["/dev/video0", "/dev/video1"]
    static let interval = 1.0 / 30

    func environment(_ specs: [String]) throws -> [String: String] {
        var environment = try VirtualCameraEnvironment.shared().environment(spec: specs.joined(separator: ";"))
        environment["CAMREC_DEVICE_PATHS"] = nil
        environment["SWIFT_BACKTRACE"] = "enable=no"
        return environment
    }

    /// `camrec ctl SOCKET COMMAND…`'s JSON reply, recorded in `log` for the schema check.
    static func ctl(_ socket: String, _ command: [String], log: URL) throws -> [String: Any] {
        let arguments = ["ctl", socket] + command
        let run = try CamrecBinary.run(arguments, timeout: 30)
        JSONLog.write(arguments: arguments, stdout: run.stdout, to: log)
        return ((try? JSONSerialization.jsonObject(with: run.stdout)) as? [String: Any]) ?? ["ok": false, "stderr": run.stderr]
    }

    /// Waits until every camera of the run behind `socket` has recorded `frames` frames
    /// (`ctl status`'s `cameras`).
    static func allCameras(past frames: Int, socket: String) -> Bool {
        Wait.until(timeout: 60) {
            guard let cameras = RecordingWait.status(socket: socket)?["cameras"] as? [[String: Any]], cameras.count == devices.count else {
                return false
            }
            return cameras.allSatisfy { ($0["frames"] as? Int ?? 0) >= frames }
        }
    }

    /// The capture times (CLOCK_MONOTONIC seconds) of a clip's frames, by its stamps and its
    /// camera's `trace=frames` lines; also checks the clip is a run of camera frames.
    static func captureTimes(of clip: String, device: String, stderr: String) throws -> [Double] {
        let stamps = try EventClipTests.stamps(clip)
        #expect(EventClipTests.contiguous(stamps), "\(clip) is not a run of camera frames: \(stamps)")
        let times = try #require(MultiCameraTests.captureTimes(stderr)[device], "no trace=frames lines for \(device)")
        return try stamps.map { try #require(times[$0], "\(device) frame \($0) has no capture time") }
    }

    /// The clips of one trigger, one per camera (by `device`), cover the same capture-time
    /// window: their first frames, and so each k-th frame, within one frame interval.
    static func expectSameWindow(_ clips: [[String: Any]], stderr: String, frames: Int,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws {
        var captured: [[Double]] = []
        for device in devices {
            let line = try #require(clips.first { $0["device"] as? String == device }, "no clip of \(device): \(clips)",
                                    sourceLocation: sourceLocation)
            let path = try #require(line["path"] as? String)
            let probe = try MediaProbe.probe(path)
            #expect(probe.frames == frames && line["frames"] as? Int == frames, "\(path): ffprobe \(probe.frames), line \(line)",
                    sourceLocation: sourceLocation)
            #expect(try MediaProbe.decodeErrors(path).isEmpty, sourceLocation: sourceLocation)
            captured.append(try captureTimes(of: path, device: device, stderr: stderr))
        }
        let count = captured.map(\.count).min() ?? 0
        #expect(count == frames, sourceLocation: sourceLocation)
        let worst = (0..<count).map { k in
            let column = captured.map { $0[k] }
            return (column.max() ?? 0) - (column.min() ?? 0)
        }.max() ?? .infinity
        #expect(worst < interval, "the cameras' clips are up to \(worst) s apart in capture time", sourceLocation: sourceLocation)
    }

    @Test("one trigger (ctl clip, then SIGUSR2) makes a clip per camera from its own pre-roll, all of the same capture-time window; ctl status, still and stop go to every camera")
    func oneTriggerMakesAClipPerCamera() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let log = folder.url.appendingPathComponent("log")
        let socket = folder.path("control")
        // The second camera starts streaming 300 ms late: its pre-roll and timeline differ.
        let cameras = [MultiCameraTests.camera(0), MultiCameraTests.camera(1, ",late=300ms")]
        let arguments = Self.devices.flatMap { ["--device", $0] }
            + ["--max-duration", "none", "--pre-roll", "1s", "--post-roll", "1s", "--clip-start", "exact", "--control", socket, "--json", folder.path("m.mp4")]
        let run = try CamrecBinary.start(arguments, environment: environment(cameras))
        defer { if run.process.isRunning { run.signal(SIGKILL) } }
        // Past the pre-roll on both cameras.
        try #require(Self.allCameras(past: 45, socket: socket), "\(run.stderrText.suffix(1000))")

        let status = try Self.ctl(socket, ["status"], log: log)
        #expect(status["ok"] as? Bool == true && status["device"] as? String == Self.devices[0], "\(status)")
        #expect(status["path"] as? String == folder.path("m-1.mp4") && (status["frames"] as? Int ?? 0) >= 45, "\(status)")
        let listed = try #require(status["cameras"] as? [[String: Any]])
        #expect(listed.map { $0["device"] as? String } == Self.devices)
        #expect(listed.map { $0["path"] as? String } == [folder.path("m-1.mp4"), folder.path("m-2.mp4")])
        #expect(listed.allSatisfy { $0["state"] as? String == "recording" && ($0["pre_roll_bytes"] as? Int ?? 0) > 0 }, "\(listed)")

        let reply = try Self.ctl(socket, ["clip"], log: log)
        #expect(reply["ok"] as? Bool == true && reply["path"] as? String == folder.path("m-1-clip-0001.mp4"), "\(reply)")
        let taken = try #require(reply["cameras"] as? [[String: Any]], "\(reply)")
        #expect(taken.map { $0["path"] as? String } == [folder.path("m-1-clip-0001.mp4"), folder.path("m-2-clip-0001.mp4")])
        #expect(taken.map { $0["device"] as? String } == Self.devices)
        #expect(taken.allSatisfy { $0["clip"] as? Int == 1 && $0["extended"] as? Bool == false })
        try #require(run.waitForLines(type: "clip", count: 2), "\(run.stderrText.suffix(1000))")
        // The second trigger, by signal, after the first clips ended.
        run.signal(SIGUSR2)
        try #require(run.waitForLines(type: "clip", count: 4), "\(run.stderrText.suffix(1000))")

        let still = try Self.ctl(socket, ["still"], log: log)
        let stills = try #require(still["cameras"] as? [[String: Any]], "\(still)")
        #expect(stills.map { $0["path"] as? String } == [folder.path("m-1-still-0001.jpg"), folder.path("m-2-still-0001.jpg")])
        #expect(stills.map { $0["device"] as? String } == Self.devices)
        #expect(still["path"] as? String == folder.path("m-1-still-0001.jpg"))
        #expect(try Self.ctl(socket, ["stop"], log: log)["ok"] as? Bool == true)
        #expect(run.wait() == 0, "\(run.stderrText.suffix(1000))")

        let clips = run.lines(type: "clip")
        #expect(Set(clips.compactMap { $0["path"] as? String }) == Set(["m-1-clip-0001.mp4", "m-2-clip-0001.mp4", "m-1-clip-0002.mp4",
                                                                     "m-2-clip-0002.mp4"].map(folder.path)))
        for number in [1, 2] {
            let trigger = clips.filter { $0["index"] as? Int == number }
            try Self.expectSameWindow(trigger, stderr: run.stderrText, frames: 60)
            // Each camera's clip is a run of its own movie's frames, from the frame its line names.
            for line in trigger {
                let device = try #require(line["device"] as? String)
                let index = try #require(Self.devices.firstIndex(of: device)) + 1
                let movie = try EventClipTests.stamps(folder.path("m-\(index).mp4"))
                let stamps = try EventClipTests.stamps(try #require(line["path"] as? String))
                let frame = try #require(line["frame"] as? Int)
                #expect(frame + stamps.count <= movie.count && Array(movie[frame..<(frame + stamps.count)]) == stamps, "\(line)")
                #expect(line["pre_roll_short"] as? Bool == false && line["trigger_frame"] as? Int == 30, "\(line)")
            }
        }
        let result = try #require(run.jsonLines.last)
        #expect(result["reason"] as? String == "control")
        let files = try #require(result["files"] as? [[String: Any]])
        #expect(files.filter { $0["kind"] as? String == "clip" }.count == 4)
        #expect(files.filter { $0["kind"] as? String == "movie" }.map { $0["device"] as? String } == Self.devices)
        #expect(files.allSatisfy { $0["device"] is String }, "\(files)")
        for index in 1...2 { #expect(try MediaProbe.topLevelBoxes(folder.path("m-\(index).mp4")).contains("moov")) }

        // Every line and reply of the run, against docs/events.schema.json.
        JSONLog.write(arguments: arguments, stdout: run.stdoutData, to: log)
        if SchemaTests.unusable == nil {
            let checked = try ChildProcess.run(SchemaTests.checker, [log.path], timeout: 120)
            #expect(checked.status == 0, "\(checked.stderr)")
        }
    }

    @Test("ctl status while the first camera is lost and the other records: the run is recording, the lost camera ended with its last counts")
    func statusNamesAnEndedCamera() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let log = folder.url.appendingPathComponent("log")
        let socket = folder.path("control")
        let run = try CamrecBinary.start(Self.devices.flatMap { ["--device", $0] }
                                             + ["--max-duration", "none", "--control", socket, "--json", folder.path("m.mkv")],
                                         environment: environment([MultiCameraTests.camera(0, ",fault=unplug@60"), MultiCameraTests.camera(1)]))
        defer { if run.process.isRunning { run.signal(SIGKILL) } }
        // Seen recording first (its counts are kept), then lost.
        try #require(Self.allCameras(past: 20, socket: socket), "\(run.stderrText.suffix(1000))")
        try #require(run.waitUntil { lines in
            lines.contains { $0["type"] as? String == "warning" && ($0["message"] as? String ?? "").contains("camera lost") }
        }, "\(run.stderrText.suffix(1000))")
        // The lost camera's recording has ended once its result is in: its status is gone.
        try #require(Wait.until(timeout: 60) {
            (RecordingWait.status(socket: socket)?["cameras"] as? [[String: Any]])?.first?["state"] as? String == "ended"
        }, "\(run.stderrText.suffix(1000))")
        let status = try Self.ctl(socket, ["status"], log: log)
        #expect(status["state"] as? String == "recording" && status["device"] as? String == Self.devices[0], "\(status)")
        let cameras = try #require(status["cameras"] as? [[String: Any]], "\(status)")
        #expect(cameras.map { $0["state"] as? String } == ["ended", "recording"], "\(cameras)")
        // The top level keeps the first camera's fields (its last counts), with the run's state.
        #expect((cameras.first?["frames"] as? Int ?? 0) >= 20 && status["frames"] as? Int == cameras.first?["frames"] as? Int, "\(cameras)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 79, "\(run.stderrText.suffix(1000))")
        if SchemaTests.unusable == nil {
            let checked = try ChildProcess.run(SchemaTests.checker, [log.path], timeout: 120)
            #expect(checked.status == 0, "\(checked.stderr)")
        }
    }

    @Test("--on-motion with an object in one camera's picture only: one motion line naming it, a clip of the same instant on every camera; --standby writes no movie; --clips {device}")
    func motionOnOneCameraMakesAClipOnEvery() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let log = folder.url.appendingPathComponent("log")
        // Camera 1: a still scene with noise; camera 2: the same, and an object in frames
        // 90-119 (after the detector's 2 s of learning).
        let cameras = [MultiCameraTests.camera(0, ",objects=none,noise=6"), MultiCameraTests.camera(1, ",objects=90:30,noise=6")]
        let arguments = Self.devices.flatMap { ["--device", $0] }
            + ["--max-duration", "6", "--standby", "--on-motion", "--pre-roll", "1s", "--post-roll", "1s", "--clip-start", "exact",
               "--clips", folder.path("door-{device}-%04d.mp4"), "--json", folder.path("m.mp4")]
        let run = try CamrecBinary.run(arguments, environment: environment(cameras), timeout: 120)
        JSONLog.write(arguments: arguments, stdout: run.stdout, to: log)
        try #require(run.status == 0, "\(run.stderr.suffix(2000))")
        let lines = JSONLines.parse(run)
        let motions = lines.filter { $0["type"] as? String == "motion" }
        #expect(motions.count == 1 && motions.first?["device"] as? String == Self.devices[1], "\(motions)")
        let clips = lines.filter { $0["type"] as? String == "clip" }
        #expect(Set(clips.compactMap { $0["path"] as? String }) == Set([folder.path("door-video0-0001.mp4"), folder.path("door-video1-0001.mp4")]),
                "\(clips)")
        #expect(motions.first?["clip"] as? Int == 1)
        try Self.expectSameWindow(clips, stderr: run.stderr, frames: 60)
        // The object's entry is in the clip of the camera that saw it.
        let seen = try #require(clips.first { $0["device"] as? String == Self.devices[1] }?["path"] as? String)
        #expect(try EventClipTests.stamps(seen).contains(90))
        // Standby: no movie, only the clips.
        #expect(folder.contents.filter { $0.hasSuffix(".mp4") }.sorted() == ["door-video0-0001.mp4", "door-video1-0001.mp4"], "\(folder.contents)")
        #expect((JSONLines.parse(run).last?["files"] as? [[String: Any]])?.compactMap { $0["kind"] as? String } == ["clip", "clip"])
        if SchemaTests.unusable == nil {
            let checked = try ChildProcess.run(SchemaTests.checker, [log.path], timeout: 120)
            #expect(checked.status == 0, "\(checked.stderr)")
        }
    }

    @Test("--clips without {index} or {device}: each camera's clips get -1, -2 before the extension, as the movies do")
    func clipsPatternWithoutFieldsIsNumberedPerCamera() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("control")
        let run = try CamrecBinary.start(Self.devices.flatMap { ["--device", $0] }
                                             + ["--max-duration", "none", "--post-roll", "0.5s", "--clip-start", "exact", "--clips", folder.path("door-%04d.mkv"),
                                                "--control", socket, "--json", folder.path("m.mkv")],
                                         environment: environment([MultiCameraTests.camera(0), MultiCameraTests.camera(1)]))
        defer { if run.process.isRunning { run.signal(SIGKILL) } }
        try #require(Self.allCameras(past: 10, socket: socket), "\(run.stderrText.suffix(1000))")
        run.signal(SIGUSR2)
        try #require(run.waitForLines(type: "clip", count: 2), "\(run.stderrText.suffix(1000))")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText.suffix(1000))")
        #expect(folder.contents.filter { $0.hasPrefix("door") }.sorted() == ["door-0001-1.mkv", "door-0001-2.mkv"], "\(folder.contents)")
        try Self.expectSameWindow(run.lines(type: "clip"), stderr: run.stderrText, frames: 15)
    }

    @Test("--keep N with clips of several cameras keeps each camera's newest N clips")
    func keepCountsEachCamerasClips() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("control")
        let run = try CamrecBinary.start(Self.devices.flatMap { ["--device", $0] }
                                             + ["--max-duration", "none", "--standby", "--post-roll", "0.3s", "--keep", "1",
                                                "--control", socket, "--json", folder.path("m.mp4")],
                                         environment: environment(Self.devices.map { "\($0),formats=yuyv,sizes=320x240@30" }))
        defer { if run.process.isRunning { run.signal(SIGKILL) } }
        try #require(Self.allCameras(past: 10, socket: socket), "\(run.stderrText.suffix(1000))")
        for count in [2, 4] {
            run.signal(SIGUSR2)
            try #require(run.waitForLines(type: "clip", count: count), "\(run.stderrText.suffix(1000))")
        }
        try #require(run.waitForLines(type: "deleted", count: 2), "\(run.stderrText.suffix(1000))")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText.suffix(1000))")
        #expect(folder.contents.filter { $0.hasSuffix(".mp4") }.sorted() == ["m-1-clip-0002.mp4", "m-2-clip-0002.mp4"], "\(folder.contents)")
        #expect(Set(run.lines(type: "deleted").compactMap { $0["path"] as? String }) == Set([folder.path("m-1-clip-0001.mp4"), folder.path("m-2-clip-0001.mp4")]))
    }

    @Test("on a terminal, the key c makes a clip on every camera and q stops them all")
    func keyMakesAClipPerCamera() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let typescript = folder.path("typescript")
        let keys = Pipe()
        let terminal = try PseudoTerminal.start(camrec: Self.devices.flatMap { ["--device", $0] }
                                                    + ["--max-duration", "none", "--post-roll", "0.3s", "--clip-start", "exact", folder.path("keys.mp4")],
                                                typescript: typescript, input: keys,
                                                environment: environment(Self.devices.map { "\($0),formats=yuyv,sizes=320x240@30" }))
        defer { if terminal.isRunning { kill(terminal.processIdentifier, SIGKILL) } }
        let shown = { (try? String(contentsOfFile: typescript, encoding: .utf8)) ?? "" }
        // The progress line: the keys are read by then.
        try #require(Wait.until(timeout: 30) { shown().contains(" KB ") }, "no progress line on the terminal: \(shown().suffix(1000))")
        keys.fileHandleForWriting.write(Data("c".utf8))
        let clips = ["keys-1-clip-0001.mp4", "keys-2-clip-0001.mp4"]
        try #require(Wait.until(timeout: 30) { clips.allSatisfy(folder.contents.contains) }, "\(folder.contents) \(shown().suffix(1000))")
        keys.fileHandleForWriting.write(Data("q".utf8))
        try #require(Wait.until(timeout: 60) { !terminal.isRunning }, "q did not stop camrec: \(shown().suffix(1000))")
        #expect(folder.contents.filter { $0.hasPrefix("keys-") }.sorted() == (clips + ["keys-1.mp4", "keys-2.mp4"]).sorted(), "\(folder.contents)")
        for clip in clips { #expect(try MediaProbe.probe(folder.path(clip)).frames == 9) }
    }

    @Test("--live-photo with several cameras: each camera's own Live Photo, its still the frame at its clip's trigger_frame (camera stamps)")
    func livePhotoPerCamera() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("control")
        let run = try CamrecBinary.start(Self.devices.flatMap { ["--device", $0] }
                                             + ["--max-duration", "none", "--pre-roll", "1s", "--post-roll", "1s", "--clip-start", "exact", "--live-photo",
                                                "--control", socket, "--json", folder.path("m.mp4")],
                                         environment: environment([MultiCameraTests.camera(0), MultiCameraTests.camera(1, ",late=300ms")]))
        defer { if run.process.isRunning { run.signal(SIGKILL) } }
        try #require(Self.allCameras(past: 45, socket: socket), "\(run.stderrText.suffix(1000))")
        run.signal(SIGUSR2)
        try #require(run.waitForLines(type: "clip", count: 2), "\(run.stderrText.suffix(1000))")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText.suffix(1000))")
        let stills = run.lines(type: "still")
        #expect(stills.count == 2 && stills.allSatisfy { $0["trigger"] as? String == "clip" }, "\(stills)")
        for (index, device) in Self.devices.enumerated() {
            let line = try #require(run.lines(type: "clip").first { $0["device"] as? String == device })
            #expect(line["path"] as? String == folder.path("m-\(index + 1)-clip-0001.mp4"))
            let stillPath = try #require(line["still"] as? String, "\(line)")
            #expect(stillPath == folder.path("m-\(index + 1)-still-0001.jpg"))
            #expect(stills.contains { $0["path"] as? String == stillPath && $0["device"] as? String == device })
            let frame = try #require(line["trigger_frame"] as? Int)
            let clipStamps = try EventClipTests.stamps(try #require(line["path"] as? String))
            let stamp = try FrameStampReader.sequence(inImage: URL(fileURLWithPath: stillPath))
            try #require(frame < clipStamps.count)
            #expect(frame == 30 && stamp == clipStamps[frame], "\(device): still stamp \(String(describing: stamp)), clip frame \(frame) stamp \(clipStamps[frame])")
            #expect(clipStamps.count == 60 && EventClipTests.contiguous(clipStamps))
        }
    }

    @Test("--set and --flash are set on every camera and put back on every camera at the end (trace=controls)")
    func controlsOnEveryCamera() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cameras = Self.devices.map { "\($0),formats=yuyv,sizes=320x240@30,trace=controls" }
        let run = try CamrecBinary.run(Self.devices.flatMap { ["--device", $0] }
                                           + ["--max-duration", "1", "--set", "brightness=20", "--flash", "on", "--json", folder.path("m.mp4")],
                                       environment: environment(cameras), timeout: 120)
        try #require(run.status == 0, "\(run.stderr.suffix(2000))")
        let writes = run.stderr.split(separator: "\n").filter { $0.contains("VirtualCamera:") && $0.contains(": set ") }
        for device in Self.devices {
            let own = writes.filter { $0.contains("\(device): set ") }.map { String($0.split(separator: ": set ").last ?? "") }
            // Set before the first frame, put back (to the defaults) at the end, in that order.
            let brightness = own.filter { $0.hasPrefix("Brightness") }
            #expect(brightness == ["Brightness = 20", "Brightness = 0"], "\(device): \(own)")
            let led = own.filter { $0.hasPrefix("LED1 Mode") }
            #expect(led.count == 2 && led.first != led.last, "\(device): \(own)")
        }
        for index in 1...2 { #expect(try MediaProbe.probe(folder.path("m-\(index).mp4")).frames == 30) }
        // The started line names what was set on each camera.
        let started = try #require(JSONLines.parse(run).first { $0["type"] as? String == "started" })
        let listed = try #require(started["cameras"] as? [[String: Any]])
        for camera in listed {
            let names = (camera["controls"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(names.contains("brightness") && names.contains("flash"), "\(camera)")
        }
    }

    @Test("ctl set sets every camera (put back at the end); a control one camera lacks: an error naming it, nothing written to any camera")
    func ctlSetGoesToEveryCamera() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let log = folder.url.appendingPathComponent("log")
        let socket = folder.path("control")
        // The second camera has no LED (no led1_mode control).
        let cameras = ["/dev/video0,formats=yuyv,sizes=320x240@30,trace=controls", "/dev/video1,formats=yuyv,sizes=320x240@30,trace=controls,flash=none"]
        let arguments = Self.devices.flatMap { ["--device", $0] } + ["--max-duration", "none", "--control", socket, "--json", folder.path("m.mkv")]
        let run = try CamrecBinary.start(arguments, environment: environment(cameras))
        defer { if run.process.isRunning { run.signal(SIGKILL) } }
        try #require(Self.allCameras(past: 5, socket: socket), "\(run.stderrText.suffix(1000))")
        let set = try Self.ctl(socket, ["set", "brightness=30"], log: log)
        #expect(set["ok"] as? Bool == true, "\(set)")
        let each = try #require(set["cameras"] as? [[String: Any]], "\(set)")
        #expect(each.map { $0["device"] as? String } == Self.devices)
        #expect(each.allSatisfy { (($0["controls"] as? [[String: Any]])?.first?["value"] as? String) == "30" }, "\(each)")
        let refused = try Self.ctl(socket, ["set", "led1_mode=on"], log: log)
        #expect(refused["ok"] as? Bool == false && (refused["error"] as? String ?? "").hasPrefix("camera 2 (/dev/video1): "), "\(refused)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText.suffix(1000))")
        let writes = run.stderrText.split(separator: "\n").filter { $0.contains("VirtualCamera:") && $0.contains(": set ") }
        #expect(!writes.contains { $0.contains("LED1") }, "the refused set wrote: \(writes)")
        for device in Self.devices {
            let brightness = writes.filter { $0.contains("\(device): set Brightness") }.map { String($0.split(separator: ": set ").last ?? "") }
            #expect(brightness == ["Brightness = 30", "Brightness = 0"], "\(device): \(writes)")
        }
        JSONLog.write(arguments: arguments, stdout: run.stdoutData, to: log)
        if SchemaTests.unusable == nil {
            let checked = try ChildProcess.run(SchemaTests.checker, [log.path], timeout: 120)
            #expect(checked.status == 0, "\(checked.stderr)")
        }
    }

    @Test("a camera without the control asked for: one line naming it, exit 64, nothing recorded and nothing set on any camera")
    func aCameraLackingTheControlIsNamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cameras = ["/dev/video0,formats=yuyv,sizes=320x240@30,trace=controls", "/dev/video1,formats=yuyv,sizes=320x240@30,trace=controls,flash=none"]
        let run = try CamrecBinary.run(Self.devices.flatMap { ["--device", $0] } + ["--max-duration", "1", "--flash", "on", folder.path("m.mp4")],
                                       environment: environment(cameras), timeout: 120)
        #expect(run.status == 64, "\(run.stderr)")
        let errors = run.stderr.split(separator: "\n").filter { !$0.contains("VirtualCamera:") }
        #expect(errors.count == 1 && errors.first?.contains("camera 2 (/dev/video1)") == true && errors.first?.contains("flash") == true,
                "\(errors)")
        #expect(!run.stderr.contains(": set "), "a control was written: \(run.stderr)")
        #expect(folder.contents.isEmpty, "\(folder.contents)")
    }
}

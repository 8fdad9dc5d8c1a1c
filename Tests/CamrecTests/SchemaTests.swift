import Foundation
import Testing

/// docs/events.schema.json against what camrec prints. This suite runs one command for
/// every kind of line the schema describes (each `type`, each result shape, each ctl reply,
/// the devices document) and has scripts/check-json-lines (python3-jsonschema) validate
/// them all with every object closed, requiring every kind to appear: the schema can
/// neither miss a field camrec prints nor describe a line camrec never prints. scripts/test
/// then validates every line all the other end-to-end tests printed (CAMREC_TEST_JSON_LOG),
/// after the suite, so that no order between tests matters.
@Suite struct SchemaTests {
    static let root = VirtualCameraEnvironment.packageRoot
    static let checker = root.appendingPathComponent("scripts/check-json-lines").path


    /// Why the schema cannot be checked here, nil when it can.
    static let unusable: String? = {
        guard let result = try? ChildProcess.run("/usr/bin/python3", ["-c", "import jsonschema"]), result.status == 0 else {
            return "python3-jsonschema is not installed (scripts/deps installs it)"
        }
        return nil
    }()

    /// Runs camrec like CamrecBinary.run, and records the run in `log`.
    func run(_ arguments: [String], log: URL, environment: [String: String]? = nil, timeout: TimeInterval = 60) throws -> ChildProcessResult {
        let result = try CamrecBinary.run(arguments, environment: environment, timeout: timeout)
        JSONLog.write(arguments: arguments, stdout: result.stdout, to: log)
        return result
    }

    func checkLog(_ log: URL, extra: [String] = []) throws -> ChildProcessResult {
        try ChildProcess.run(Self.checker, extra + [log.path], timeout: 120)
    }

    @Test(.enabled(if: unusable == nil, "\(unusable ?? "")"))
    func everyKindOfLineCamrecPrintsMatchesTheSchema() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let log = folder.url.appendingPathComponent("log")
        let camera = try VirtualCameraEnvironment.shared().environment(spec: "/dev/video0,card=Schema Cam,formats=mjpeg,sizes=640x480@30")

        // started (with controls), settled, still (periodic), warning (--still-quality with an MJPEG camera), result.
        var result = try run(["--device", "/dev/video0", "--max-duration", "1", "--still-every", "0.5", "--still-quality", "80",
                              "--set", "brightness=10", "--settle", "1s", "--json", folder.path("movie.mp4")], log: log, environment: camera)
        #expect(result.status == 0, "\(result.stderr)")
        // sheet: a contact sheet of that movie.
        result = try run(["sheet", "--count", "2", "--json", "-o", folder.path("sheet.jpg"), folder.path("movie.mp4")], log: log)
        #expect(result.status == 0, "\(result.stderr)")
        // text: the words of a rendered label.
        let label = folder.path("label.png")
        let draw = "drawtext=fontfile=\(TextTests.font):text='Gate 7':fontsize=40:fontcolor=black:x=40:y=40"
        _ = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=white:s=320x240", "-vf", draw,
                                            "-frames:v", "1", label])
        result = try run(["text", "--json", "--region", "0,0,320,200", label], log: log)
        #expect(result.status == 0 && result.stdoutText.contains("Gate 7"), "\(result.stderr)")
        // text while recording: periodic readings (frame, trigger, skipped), a still's
        // (text_file) and ctl text's reply. Each waited for (the reader runs at the lowest
        // priority: on a busy machine its lines come when they come).
        let textSocket = folder.path("text-control")
        let reading = try CamrecBinary.start(["--device", "test", "--size", "640x360", "--max-duration", "none", "--overlay-image",
                                              label, "--text", "--text-every", "1s", "--control", textSocket,
                                              "--json", folder.path("text.mp4")])
        defer { reading.signal(SIGKILL) }
        #expect(reading.waitUntil(timeout: 180) { lines in lines.contains { $0["trigger"] as? String == "periodic" } },
                "\(String(decoding: reading.stdoutData, as: UTF8.self)) \(reading.stderrText)")
        result = try run(["ctl", textSocket, "still"], log: log)
        #expect(result.status == 0, "\(result.stdoutText) \(result.stderr)")
        #expect(reading.waitUntil(timeout: 180) { lines in lines.contains { $0["text_file"] != nil } },
                "\(String(decoding: reading.stdoutData, as: UTF8.self)) \(reading.stderrText)")
        result = try run(["ctl", textSocket, "text", "--timeout", "120s"], log: log, timeout: 180)
        #expect(result.status == 0 && result.stdoutText.contains("\"lines\""), "\(result.stdoutText) \(result.stderr)")
        #expect(RecordingWait.stop(socket: textSocket))
        #expect(reading.wait(timeout: 120) == 0, "\(reading.stderrText)")
        JSONLog.write(arguments: ["--text-every", "1s", "--text"], stdout: reading.stdoutData, to: log)
        // segment, deleted and hook (a command that fails and says why).
        result = try run(["--device", "test", "--size", "320x240", "--max-duration", "1.5", "--segment", "0.5", "--keep", "1",
                          "--on-file", "sh -c 'echo cannot upload >&2; exit 3'", "--json", folder.path("seg.mp4")], log: log)
        #expect(result.status == 0 && result.stdoutText.contains("\"type\":\"hook\""), "\(result.stderr)")
        // A time-lapse: its started line and result.
        result = try run(["--device", "test", "--size", "320x240", "--max-duration", "1", "--timelapse", "100ms",
                          "--json", folder.path("lapse.mp4")], log: log)
        #expect(result.status == 0 && result.stdoutText.contains("\"frames_kept\""), "\(result.stderr)")
        // A photo: still (command) and result (completed).
        result = try run(["still", "--device", "test", "--size", "320x240", "--settle", "0", "--json", folder.path("photo.jpg")], log: log)
        #expect(result.status == 0, "\(result.stderr)")
        // error.
        result = try run(["--json", folder.path("missing/movie.mp4")], log: log)
        #expect(result.status == 73)
        // progress and trim's result: a re-encode long enough to report progress.
        let input = try TrimMedia.h264(folder.path("in.mp4"), seconds: 12, size: "1280x720")
        result = try run(["trim", "--start", "1", "--mode", "reencode", "--json", "-o", folder.path("cut.mp4"), input],
                         log: log, timeout: 300)
        #expect(result.status == 0, "\(result.stderr)")
        // camera-lost and camera-back: the camera is unplugged after 20 frames and comes back.
        var lost = try VirtualCameraEnvironment.shared().environment(
            spec: "/dev/video0,formats=yuyv,sizes=320x240@30,fault=unplug@20,replug=300,byid=usb-Schema_Cam-video-index0")
        lost["CAMREC_DEVICE_PATHS"] = nil
        result = try run(["--device", "/dev/v4l/by-id/usb-Schema_Cam-video-index0", "--size", "320x240", "-t", "1.5",
                          "--reconnect", "--json", folder.path("lost.mp4")], log: log, environment: lost)
        #expect(result.status == 0, "\(result.stderr)")
        // recover's results: a killed recording's partial file (recovered), a finished movie
        // (complete), and a file that is not a movie (refused).
        let killed = try CamrecBinary.start(["--device", "test", "--size", "320x240", "-t", "none", "--json", folder.path("killed.mp4")])
        #expect(killed.waitUntil { _ in ((try? FileManager.default.attributesOfItem(atPath: folder.path("killed.partial.mp4")))?[.size] as? Int ?? 0) > 30_000 })
        killed.signal(SIGKILL)
        _ = killed.wait()
        try Data("not a movie".utf8).write(to: folder.url.appendingPathComponent("junk.mp4"))
        result = try run(["recover", "--json", "-o", folder.path("recovered.mp4"), folder.path("killed.partial.mp4")], log: log)
        #expect(result.status == 0, "\(result.stderr)")
        result = try run(["recover", "--json", folder.path("movie.mp4"), folder.path("junk.mp4")], log: log)
        #expect(result.status == 65, "\(result.stderr)")
        // ls: library-file lines (movies, segments, a still, an unreadable junk.mp4) and library-series lines.
        result = try run(["ls", "--json", folder.url.path], log: log)
        #expect(result.status == 0, "\(result.stderr)")
        // export: a range of the segmented series (its one kept segment).
        result = try run(["export", "--from", "0.2", "--to", "0.8", "--json", "-o", folder.path("export.mp4"), folder.path("seg.mp4")], log: log)
        #expect(result.status == 0, "\(result.stderr)")
        // check and doctor's result; the devices document.
        result = try run(["doctor", "--json", folder.url.path], log: log, environment: camera)
        #expect(result.status == 0, "\(result.stdoutText)")
        result = try run(["devices", "--json"], log: log, environment: camera)
        #expect(result.status == 0, "\(result.stderr)")
        // encoder lines: one that works, one that does not (with its reason), auto's choice.
        result = try run(["encoders", "--json"], log: log, environment: FakeHardwareEncoder.environment(), timeout: 180)
        #expect(result.status == 0, "\(result.stderr)")
        // motion, clip-started and disk-low lines, and an event's hook line: an object enters
        // the emulated camera's still scene (standby: clips only; a --min-free no disk has).
        let scene = try VirtualCameraEnvironment.shared().environment(spec: "/dev/video0,formats=yuyv,sizes=320x240@30,objects=105:20")
        result = try run(["--size", "320x240", "-t", "5", "--on-motion", "--standby", "--post-roll", "0.5s", "--min-free", "9000T",
                          "--on-event", "sh -c 'exit 1'", "--json", folder.path("motion.mkv")], log: log, environment: scene)
        #expect(result.status == 0 && ["\"motion\"", "\"clip-started\"", "\"disk-low\"", "\"event\":\"motion\""].allSatisfy(result.stdoutText.contains),
                "\(result.stdoutText) \(result.stderr)")
        // A sound line: the test tone is louder than -30 dBFS from its start.
        result = try run(["--device", "test", "--size", "320x240", "--audio", "test", "-t", "2", "--on-sound", "-30", "--standby",
                          "--post-roll", "0.5s", "--json", folder.path("sound.mkv")], log: log)
        #expect(result.status == 0 && result.stdoutText.contains("\"type\":\"sound\""), "\(result.stdoutText) \(result.stderr)")
        // ctl replies: status, still, clip, refused, done; the clip line.
        let socket = folder.path("ctl.sock")
        let clipping = ["--device", "test", "--size", "320x240", "--max-duration", "none",
                        "--post-roll", "0.5s", "--control", socket, "--json", folder.path("ctl.mp4")]
        let recording = try CamrecBinary.start(clipping)
        #expect(recording.waitForLine(type: "started"))
        #expect(RecordingWait.frames(5, socket: socket))
        // `set` on the test pattern (no camera) is refused by the recorder: the refused reply.
        for command in [["status"], ["still"], ["clip"], ["set", "zoom=150"]] {
            result = try run(["ctl", socket] + command, log: log)
            #expect(result.status == (command[0] == "set" ? 1 : 0), "\(command): \(result.stdoutText) \(result.stderr)")
        }
        #expect(recording.waitForLine(type: "clip"), "\(recording.stderrText)")
        result = try run(["ctl", socket, "stop"], log: log)
        #expect(recording.wait() == 0)
        JSONLog.write(arguments: clipping, stdout: recording.stdoutData, to: log)
        // ctl set: a recording from a camera.
        let cameraSocket = folder.path("ctl-camera.sock")
        let fromCamera = try CamrecBinary.start(["--device", "/dev/video0", "--max-duration", "none",
                                                 "--control", cameraSocket, "--json", folder.path("ctl-camera.mp4")],
                                                environment: camera)
        #expect(fromCamera.waitForLine(type: "started"))
        result = try run(["ctl", cameraSocket, "set", "zoom=150"], log: log)
        #expect(result.status == 0, "\(result.stdoutText) \(result.stderr)")
        result = try run(["ctl", cameraSocket, "stop"], log: log)
        #expect(fromCamera.wait() == 0)

        // schedule: waiting for a window two hours away, then stopped (a normal stop, no file).
        let scheduled = ["--device", "test", "--schedule", "daily 00:00-00:01, daily 12:00-12:01", "--utc", "--json", folder.path("sched.mp4")]
        let waiting = try CamrecBinary.start(scheduled)
        #expect(waiting.waitForLine(type: "schedule"), "\(waiting.stderrText)")
        waiting.signal(SIGINT)
        #expect(waiting.wait() == 0, "\(waiting.stderrText)")
        JSONLog.write(arguments: scheduled, stdout: waiting.stdoutData, to: log)

        // react --separate: the camera's own movie and where the video started in it.
        let video = folder.path("react-video.mp4")
        let made = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30:duration=1",
                                                   "-pix_fmt", "yuv420p", video])
        #expect(made.status == 0, "\(made.stderr)")
        result = try run(["react", "--separate", "--device", "/dev/video0", "--audio", "none", "--no-preview", "--json", video,
                          folder.path("react.mp4")], log: log, environment: camera)
        #expect(result.status == 0, "\(result.stderr)")

        let check = try checkLog(log, extra: ["--require-all"])
        #expect(check.status == 0, "\(check.stderr)\n\(check.stdoutText)")
    }

    @Test(.enabled(if: unusable == nil, "\(unusable ?? "")"))
    func aRenamedMissingOrUndescribedFieldFails() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let log = folder.url.appendingPathComponent("log")
        let good = #"{"type":"warning","message":"m"}"#
        let cases = [
            (#"{"type":"warning","text":"m"}"#, "'message' is a required property"),
            (#"{"type":"warning","message":"m","extra":1}"#, "'extra' was unexpected"),
            (#"{"type":"segment","bytes":"12","kind":"movie","path":"a.mp4"}"#, "is not of type 'integer'"),
            (#"{"type":"news","message":"m"}"#, "is not one of"),
            (#"{"type":"result","reason":"max-duration","files":[{"path":"a.mp4","kind":"movie","bytes":1,"size":2}],"dropped_frames":0,"corrupt_frames":0}"#, "'size' was unexpected"),
            (#"{"type":"result","reason":"max-duration","files":[],"dropped_frames":0,"corrupt_frames":0,"timelapse":{"interval":1,"speedup":30,"frames":3}}"#, "'frames' was unexpected"),
        ]
        JSONLog.write(arguments: ["--json", "ok.mp4"], stdout: Data((good + "\n").utf8), to: log)
        let fine = try checkLog(log)
        #expect(fine.status == 0, "\(fine.stderr)")
        for (line, message) in cases {
            let single = folder.url.appendingPathComponent("log-\(UUID().uuidString)")
            JSONLog.write(arguments: ["--json", "x.mp4"], stdout: Data((line + "\n").utf8), to: single)
            let bad = try checkLog(single)
            #expect(bad.status == 1, "\(line) passed: \(bad.stdoutText)")
            #expect(bad.stderr.contains(message), "\(line): \(bad.stderr)")
        }
        // A line cut short by a kill (no newline) is left out; text on stdout of a --json run is not.
        let cut = folder.url.appendingPathComponent("log-cut")
        JSONLog.write(arguments: ["--json", "x.mp4"], stdout: Data((good + "\n{\"type\":\"sti").utf8), to: cut)
        #expect(try checkLog(cut).status == 0)
        let text = folder.url.appendingPathComponent("log-text")
        JSONLog.write(arguments: ["--json", "x.mp4"], stdout: Data("recording…\n".utf8), to: text)
        #expect(try checkLog(text).stderr.contains("not JSON"))
    }

    @Test(.enabled(if: unusable == nil, "\(unusable ?? "")"))
    func theSchemaIsValidDraft2020_12() throws {
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            names = schema["$defs"]["event"]["properties"]["type"]["enum"]
            branches = [entry["if"]["properties"]["type"]["const"] for entry in schema["$defs"]["event"]["allOf"]]
            assert sorted(names) == sorted(branches), (names, branches)
            for name in names:
                assert name == "result" or name in schema["$defs"], name
            """
        let result = try ChildProcess.run("/usr/bin/python3", ["-c", script, Self.root.appendingPathComponent("docs/events.schema.json").path])
        #expect(result.status == 0, "\(result.stderr)")
    }
}

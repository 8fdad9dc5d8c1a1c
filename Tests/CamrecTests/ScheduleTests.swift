import Foundation
import Testing

/// `--schedule` end to end on the emulated camera, with a window of a few seconds worked
/// out from the current UTC time (`--utc`): the schedule line comes first, the camera opens
/// a moment before the window, the movie holds the window to the frame, and a stop while
/// waiting ends the run as a normal stop with no file. (What happens across changes of
/// the clocks and clock steps is tested with a test clock: `ScheduleMachineTests`,
/// `ScheduledRunTests`.)
@Suite(.serialized) struct ScheduleTests {
    static let camera = "/dev/video0,formats=yuyv,sizes=320x240@30"

    func environment() throws -> [String: String] {
        var environment = try VirtualCameraEnvironment.shared().environment(spec: Self.camera)
        environment["SWIFT_BACKTRACE"] = "enable=no"
        return environment
    }

    /// `daily HH:MM:SS-HH:MM:SS` (UTC) for a window from `start` lasting `length` seconds.
    static func spec(start: Int, length: Int) -> String {
        let format = { (seconds: Int) -> String in
            let second = seconds % 86_400
            return String(format: "%02d:%02d:%02d", second / 3600, second / 60 % 60, second % 60)
        }
        return "daily \(format(start))-\(format(start + length))"
    }

    static func milliseconds(_ iso: String) -> Double? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: iso).map { $0.timeIntervalSince1970 * 1000 }
    }

    @Test func aWindowsMovieHoldsTheWindowToTheFrame() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A window of 3 s starting 7 s from now (the camera opens 3 s before it).
        let start = Int(Date().timeIntervalSince1970.rounded(.up)) + 7
        let spec = Self.spec(start: start, length: 3)
        let run = try CamrecBinary.start(["--device", "/dev/video0", "--size", "320x240", "--fps", "30", "--schedule", spec, "--utc",
                                          "--json", folder.path("shop.mp4")], environment: environment())
        defer { if run.process.isRunning { run.signal(SIGKILL) } }
        try #require(run.waitForLine(type: "segment", timeout: 120), "\(run.stderrText)")
        // Then it waits for tomorrow's window: stopped there.
        #expect(run.waitUntil { lines in lines.count { $0["type"] as? String == "schedule" } >= 3 }, "\(run.stderrText)")
        run.signal(SIGINT)
        #expect(run.wait() == 0, "\(run.stderrText)")
        let lines = run.jsonLines
        let kinds = lines.compactMap { line in (line["type"] as? String).map { $0 + ((line["state"] as? String).map { " " + $0 } ?? "") } }
            .filter { $0 != "warning" }
        #expect(kinds == ["schedule waiting", "schedule recording", "started", "segment", "schedule waiting", "result"], "\(kinds)")
        let first = try #require(lines.first)
        #expect(first["start_ms"] as? Int == start * 1000 && first["end_ms"] as? Int == (start + 3) * 1000, "\(first)")

        // The movie, by ffprobe: the window's 90 frames, its first captured at the start
        // (the segment line's start: the first frame's capture time), within half a frame.
        #expect(folder.contents == ["shop-0001.mp4"])
        let movie = try MediaProbe.probe(folder.path("shop-0001.mp4"))
        #expect(movie.frames == 90, "\(movie)")
        #expect(abs(movie.duration - 3) <= 1.0 / 30 + 0.001, "\(movie)")
        #expect(try MediaProbe.decodeErrors(folder.path("shop-0001.mp4")).isEmpty)
        let segment = try #require(run.lines(type: "segment").first)
        let firstFrame = try #require(Self.milliseconds(segment["start"] as? String ?? ""), "\(segment)")
        #expect(abs(firstFrame - Double(start * 1000)) <= 1000.0 / 60 + 1, "first frame at \(firstFrame), window at \(start * 1000)")
        let result = try #require(lines.last)
        #expect(result["reason"] as? String == "signal")
        #expect((result["files"] as? [[String: Any]])?.map { $0["path"] as? String } == [folder.path("shop-0001.mp4")])
    }

    @Test func betweenWindowsStandbyMakesClipsWithTheCameraOpen() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A window of 3 s, 12 s from now: before it, about 9 s of standby (until the camera
        // is needed for the window, 3 s before it), where the test tone (louder than -30
        // dBFS from its start) makes a clip.
        let start = Int(Date().timeIntervalSince1970.rounded(.up)) + 12
        let run = try CamrecBinary.start(["--device", "/dev/video0", "--size", "320x240", "--fps", "30", "--audio", "test",
                                          "--schedule", Self.spec(start: start, length: 3), "--utc", "--between-windows", "standby",
                                          "--on-sound", "-30", "--post-roll", "0.5s", "--json", folder.path("shop.mkv")],
                                         environment: environment())
        defer { if run.process.isRunning { run.signal(SIGKILL) } }
        try #require(run.waitForLine(type: "segment", timeout: 120), "\(run.stderrText)")
        // After the window: standby again, until tomorrow's; stopped there.
        #expect(run.waitUntil { lines in lines.count { $0["type"] as? String == "started" } >= 3 }, "\(run.stderrText)")
        run.signal(SIGINT)
        #expect(run.wait() == 0, "\(run.stderrText)")
        let lines = run.jsonLines
        let kinds = lines.compactMap { line -> String? in
            guard let type = line["type"] as? String, ["schedule", "started", "segment"].contains(type) else { return nil }
            return type + ((line["state"] as? String).map { " " + $0 } ?? "") + (line["standby"] as? Bool == true ? " standby" : "")
        }
        #expect(kinds == ["schedule waiting", "started standby", "schedule recording", "started", "segment", "schedule waiting",
                          "started standby"], "\(kinds)")
        // The standby's clip ended before the camera was needed for the window; the window's
        // movie is its 3 s to the frame; every clip is numbered on.
        let clips = lines.filter { $0["type"] as? String == "clip" }
        #expect(clips.compactMap { $0["index"] as? Int } == Array(1...clips.count) && clips.count >= 2, "\(clips)")
        let first = try #require(clips.first)
        let began = try #require(Self.milliseconds(first["start"] as? String ?? ""), "\(first)")
        let length = try #require(first["duration"] as? Double)
        #expect(length > 2 && began + length * 1000 <= Double(start * 1000) - 2500, "clip from \(began) for \(length) s, window at \(start * 1000)")
        #expect(try MediaProbe.probe(first["path"] as? String ?? "").duration > 2)
        #expect(try MediaProbe.probe(folder.path("shop-0001.mkv")).frames == 90)
        #expect(lines.last?["reason"] as? String == "signal")
    }

    @Test func betweenWindowsIsCheckedBeforeAnyCameraOpens() throws {
        for (arguments, said) in [(["--between-windows", "standby", "--on-motion"], "needs --schedule"),
                                  (["--schedule", "daily 09:00-10:00", "--between-windows", "standby"], "give what triggers them"),
                                  (["--schedule", "daily 09:00-10:00", "--between-windows", "open", "--on-motion"], "give closed"),
                                  (["--schedule", "daily 09:00-10:00", "--between-windows", "standby", "--standby", "--on-motion"], "leave out --between-windows")] {
            let result = try CamrecBinary.run(["help", "--check-args"] + arguments + ["shop.mp4"])
            #expect(result.status == 64 && result.stderr.contains(said), "\(arguments): \(result.stderr)")
        }
    }

    @Test func aStopWhileWaitingEndsCleanlyWithNoFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // A window two hours from now: camrec waits with the camera closed.
        let start = Int(Date().timeIntervalSince1970) + 7200
        let run = try CamrecBinary.start(["--device", "/dev/video0", "--schedule", Self.spec(start: start, length: 60), "--utc",
                                          "--json", folder.path("shop.mp4")], environment: environment())
        defer { if run.process.isRunning { run.signal(SIGKILL) } }
        try #require(run.waitForLine(type: "schedule"), "\(run.stderrText)")
        run.signal(SIGINT)
        #expect(run.wait() == 0, "\(run.stderrText)")
        let lines = run.jsonLines
        #expect(lines.compactMap { $0["type"] as? String } == ["schedule", "result"])
        #expect(lines.first?["state"] as? String == "waiting")
        #expect(lines.last?["reason"] as? String == "signal" && (lines.last?["files"] as? [Any])?.isEmpty == true)
        #expect(folder.contents.isEmpty, "\(folder.contents)")
        #expect(run.stderrText.contains("camera is closed until the next window"))
    }

    /// A bad SPEC is a usage error before any camera is looked at: one line, exit 64.
    @Test func aBadScheduleIsRefusedWithAnExample() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try CamrecBinary.run(["--device", "/dev/video9", "--schedule", "mon-fri 07:30-18:60", folder.path("shop.mp4")])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--schedule: '18:60' in '07:30-18:60' is not a time of day"), "\(result.stderr)")
        #expect(result.stderr.contains("e.g. --schedule \"mon-fri 07:30-18:00, sat 09:00-13:00\""), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(folder.contents.isEmpty)
    }
}

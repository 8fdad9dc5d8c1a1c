import Foundation
import Testing
import TestSupport

/// Issue 35, `--on-event`, end to end: a command for each event of a run (motion, a clip
/// started, the camera lost and back, the disk low), with the event's variables and its
/// JSON line on standard input, each ending in a hook line.
@Suite(.serialized) struct OnEventTests {
    @Test func everyEventOfARunRunsTheCommandWithItsLine() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let log = folder.path("events")
        // An object enters the still scene at frame 105 (a clip); the camera is unplugged at
        // frame 160 and comes back; a --min-free no disk has leaves clips going on, short.
        var camera = try VirtualCameraEnvironment.shared().environment(
            spec: "/dev/video0,formats=yuyv,sizes=320x240@30,objects=105:20,fault=unplug@160,replug=300")
        camera["CAMREC_DEVICE_PATHS"] = nil
        let command = "sh -c 'echo \"$1|$CAMREC_EVENT|$CAMREC_CAMERA|$CAMREC_CLIP|$CAMREC_SERIES|$CAMREC_TIME|$(cat)\" >> \(log)' sh {event}"
        let result = try CamrecBinary.run(["--size", "320x240", "-t", "8", "--on-motion", "--standby", "--post-roll", "0.5s",
                                           "--reconnect", "--min-free", "9000T", "--on-event", command, "--json",
                                           folder.path("door.mkv")], environment: camera, timeout: 180)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = JSONLines.parse(result)
        let raw = result.stdoutText.split(separator: "\n").map(String.init)
        let ran = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        for event in ["motion", "clip-started", "camera-lost", "camera-back", "disk-low"] {
            // The command ran once per line of that type, given exactly that line.
            let printed = raw.filter { $0.hasPrefix("{\"type\":\"\(event)\"") }
            let given = ran.filter { $0.first == event }
            #expect(!printed.isEmpty, "no \(event) line: \(result.stdoutText)")
            #expect(given.map { $0.last ?? "" } == printed, "\(event): \(given) vs \(printed)")
            #expect(given.allSatisfy { $0.count == 7 && $0[1] == event && $0[2] == "/dev/video0" && $0[4] == folder.path("door.mkv")
                && (Int64($0[5]) ?? 0) > 1_600_000_000_000 }, "\(given)")
            let hooks = lines.filter { $0["type"] as? String == "hook" && $0["event"] as? String == event }
            #expect(hooks.count == printed.count && hooks.allSatisfy { $0["exit_status"] as? Int == 0 && $0["kind"] as? String == "event"
                && $0["file"] == nil }, "\(hooks)")
        }
        // clip-started names the clip that its clip line then reports, before it.
        let started = lines.first { $0["type"] as? String == "clip-started" }
        let clip = lines.first { $0["type"] as? String == "clip" }
        #expect(started?["path"] as? String != nil && started?["path"] as? String == clip?["path"] as? String)
        #expect(ran.first { $0.first == "clip-started" }?[3] == started?["path"] as? String)
        let types = lines.compactMap { $0["type"] as? String }
        #expect((types.firstIndex(of: "clip-started") ?? .max) < (types.firstIndex(of: "clip") ?? -1))
        #expect(lines.last?["type"] as? String == "result")
    }

    @Test func anEventsCommandCannotAskForAFile() throws {
        let result = try CamrecBinary.run(["help", "--check-args", "--on-event", "cp {file} /tmp/", "out.mp4"])
        #expect(result.status == 64 && result.stderr.contains("{event}"), "\(result.stderr)")
        let fine = try CamrecBinary.run(["help", "--check-args", "--on-event", "logger camrec {event}", "--on-event-jobs", "4", "out.mp4"])
        #expect(fine.status == 0, "\(fine.stderr)")
    }
}

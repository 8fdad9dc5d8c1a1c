import Foundation
import Synchronization
import Testing
import TestSupport
@testable import CamrecKit
@testable import Hooks
@testable import CamrecCore

/// `--on-event`: which events run a command, with what environment and input, the options'
/// checks, and the queue's bound (a burst of events never grows it without end).
@Suite struct EventHookTests {
    private static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-events-\(UUID().uuidString)").path

    @Test func eventsOfARunAreHookedWithTheirLinesAndOthersAreNot() throws {
        let motion = HookedEvent(.motion(MotionLine(time: 3.8, area: 0.06, clip: 1, device: nil)), time: 1_700_000_000_123,
                                 camera: "/dev/video0", series: "cam.mp4")
        #expect(motion?.name == "motion")
        #expect(motion?.environment == ["CAMREC_EVENT=motion", "CAMREC_TIME=1700000000123", "CAMREC_CAMERA=/dev/video0", "CAMREC_SERIES=cam.mp4"])
        #expect(motion?.line == #"{"type":"motion","area":0.06,"clip":1,"time":3.8}"#)
        let clip = HookedEvent(.clipStarted(ClipStartLine(clip: 2, path: "c-clip-0002.mp4", time: 5, start: 3, device: "/dev/video2")),
                               time: 1, camera: "/dev/video0", series: nil)
        // Several cameras: the event's own camera, not the run's first.
        #expect(clip?.environment == ["CAMREC_EVENT=clip-started", "CAMREC_TIME=1", "CAMREC_CAMERA=/dev/video2", "CAMREC_CLIP=c-clip-0002.mp4"])
        let lost = HookedEvent(.cameraLost("camera lost", camera: RunCamera(index: 2, device: "/dev/video4")), time: 1, camera: nil, series: nil)
        #expect(lost?.name == "camera-lost" && lost?.camera == "/dev/video4")
        #expect(lost?.line.contains(#""camera":2"#) == true)
        let back = HookedEvent(.cameraBack(device: "/dev/video1", gap: 2.5, camera: nil), time: 1, camera: "/dev/video0", series: nil)
        #expect(back?.name == "camera-back" && back?.line.contains(#""gap":2.5"#) == true)
        let sound = HookedEvent(.sound(SoundLine(time: 2.5, level: -12.5, clip: 3)), time: 1, camera: "/dev/video0", series: nil)
        #expect(sound?.name == "sound" && sound?.line == #"{"type":"sound","clip":3,"level":-12.5,"time":2.5}"#)
        let low = HookedEvent(.diskLow(DiskLowLine(folder: "/rec", free: 10, minFree: 20, action: "stopping")), time: 1, camera: nil, series: nil)
        #expect(low?.line == #"{"type":"disk-low","action":"stopping","folder":"/rec","free":10,"min_free":20}"#)
        // Files and everything else are not events.
        #expect(HookedEvent(.warning("w"), time: 1, camera: nil, series: nil) == nil)
        #expect(HookedEvent(.clip(ResultFile(path: "c.mp4", kind: "clip", duration: 1, frames: 30, bytes: 10)), time: 1, camera: nil, series: nil) == nil)
        #expect(HookedEvent(.stopping(.signal), time: 1, camera: nil, series: nil) == nil)
    }

    @Test func theEventOptionsAreCheckedAsTheFileOnesAre() throws {
        let path = "/usr/bin:/bin"
        #expect(try HookSettings.resolve("--on-event", command: "echo {event}", jobs: "3", timeout: "30s", path: path)
                == HookSettings(command: HookCommand.parse("echo {event}", option: "--on-event"), jobs: 3, timeout: .seconds(30)))
        #expect(try HookSettings.resolve("--on-event", command: nil, jobs: nil, timeout: nil, path: path) == nil)
        for (command, jobs, timeout, said) in [("cp {file} /x", nil, nil, "no file"), (nil, "2", nil, "--on-event-jobs needs --on-event"),
                                              (nil, nil, "1m", "--on-event-timeout needs --on-event"), ("echo", "0", nil, "1 to 64"),
                                              ("no-such-program-here", nil, nil, "no-such-program-here")] as [(String?, String?, String?, String)] {
            #expect {
                try HookSettings.resolve("--on-event", command: command, jobs: jobs, timeout: timeout, path: path)
            } throws: { error in
                (error as? CamrecError)?.kind == .usage && (error as? CamrecError)?.message.contains(said) == true
            }
        }
    }

    @Test func aCommandGetsTheEventAndABurstBeyondTheBoundIsDropped() throws {
        StandardStream.ignoreBrokenPipe()
        try FileManager.default.createDirectory(atPath: Self.folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: Self.folder) }
        let gate = Self.folder + "/gate"
        let ran = Self.folder + "/ran"
        // Each command writes its word, variable and input, then waits for the gate.
        let command = try HookCommand.parse("sh -c 'echo \"$1 $CAMREC_EVENT $(cat)\" >> \(ran); while [ ! -e \(gate) ]; do sleep 0.05; done' sh {event}",
                                            option: "--on-event")
        let lines = Mutex<[HookLine]>([])
        let warnings = Mutex<[String]>([])
        let hooks = HookQueue(settings: HookSettings(command: command, jobs: 1, timeout: .seconds(120)), ledgerFor: nil,
                              holds: FileHolds(), report: { line in lines.withLock { $0.append(line) } },
                              warn: { text in warnings.withLock { $0.append(text) } })
        let burst = HookQueue.maxQueuedEvents + 50
        for number in 1...burst {
            hooks.enqueue(HookedEvent(name: "motion", time: Int64(number), line: "{\"n\":\(number)}"))
        }
        // The first runs (its input and variable seen); at most maxQueuedEvents wait behind it.
        #expect(Wait.until { ((try? String(contentsOfFile: ran, encoding: .utf8)) ?? "").hasPrefix("motion motion {\"n\":1}\n") })
        #expect(warnings.withLock { $0.contains { $0.contains("dropped until the commands catch up") } })
        FileManager.default.createFile(atPath: gate, contents: Data())
        hooks.finish()
        let reported = lines.withLock { $0 }
        // 100 waiting, plus the first if it was taken before the queue filled.
        #expect((HookQueue.maxQueuedEvents...HookQueue.maxQueuedEvents + 1).contains(reported.count), "\(reported.count)")
        #expect(reported.allSatisfy { $0.succeeded && $0.file == nil && $0.event == "motion" && $0.kind == "event" })
        let dropped = burst - reported.count
        #expect(warnings.withLock { $0.contains { $0.contains("\(dropped) events dropped in all") } }, "\(warnings.withLock { $0 })")
        // In the order they came.
        let order = try String(contentsOfFile: ran, encoding: .utf8).split(separator: "\n")
        #expect(order.count == reported.count && order.first == "motion motion {\"n\":1}")
    }
}

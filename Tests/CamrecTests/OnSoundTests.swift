import Foundation
import Testing
import TestSupport

/// Issue 35 item 3, end to end: `--on-sound LEVEL[:T]` makes a clip of each loud sound that
/// lasts T, from tone bursts played into the test's own sound server.
@Suite(.serialized) struct OnSoundTests {
    /// 48 kHz mono 16-bit samples: silence and 1 kHz tone bursts at half scale (about -9 dBFS RMS).
    private struct Bursts {
        var samples: [Int16] = []
        mutating func silence(_ seconds: Double) { samples += Array(repeating: 0, count: Int(seconds * 48000)) }
        mutating func tone(_ seconds: Double) {
            for index in 0..<Int(seconds * 48000) { samples.append(Int16(16384 * sin(2 * Double.pi * 1000 * Double(index) / 48000))) }
        }
        var data: Data { samples.withUnsafeBufferPointer { Data(buffer: $0) } }
    }

    @Test func eachLongToneBurstMakesOneClipThatHoldsItAndABlipMakesNone() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let server = try TestSoundServer()
        defer { server.stop() }
        var bursts = Bursts()
        bursts.silence(0.5)
        bursts.tone(0.8)
        bursts.silence(2.5)
        bursts.tone(0.08)   // shorter than T: no clip
        bursts.silence(2.5)
        bursts.tone(0.8)
        bursts.silence(1)
        let raw = folder.path("bursts.raw")
        try bursts.data.write(to: URL(fileURLWithPath: raw))
        let socket = folder.path("ctl.sock")
        let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "-t", "none", "--audio", "vsink.monitor",
                                          "--on-sound", "-30:200ms", "--standby", "--post-roll", "0.3s", "--clip-start", "exact", "--control", socket,
                                          "--json", folder.path("door.mkv")], environment: server.environment())
        defer { run.signal(SIGKILL) }
        #expect(run.waitForLine(type: "started"), "\(run.stderrText)")
        #expect(RecordingWait.frames(10, socket: socket))
        let played = try ChildProcess.run("pacat", ["--raw", "--format=s16le", "--rate=48000", "--channels=1", "--device=vsink", raw],
                                          environment: server.environment(), timeout: 120)
        #expect(played.status == 0, "\(played.stderr)")
        #expect(run.waitForLines(type: "clip", count: 2, timeout: 120), "\(run.stderrText)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait(timeout: 120) == 0, "\(run.stderrText)")
        let lines = run.jsonLines
        let sounds = lines.filter { $0["type"] as? String == "sound" }
        #expect(sounds.count == 2, "\(sounds)")
        // The onsets are 0.8 + 2.5 + 0.08 + 2.5 s of sound apart; each at the tone's level.
        if sounds.count == 2, let first = sounds[0]["time"] as? Double, let second = sounds[1]["time"] as? Double {
            #expect(abs(second - first - 5.88) < 0.1, "\(first) \(second)")
        }
        #expect(sounds.allSatisfy { ($0["level"] as? Double).map { $0 > -12 && $0 < -6 } ?? false }, "\(sounds)")
        #expect(sounds.map { $0["clip"] as? Int } == [1, 2])
        let clips = lines.filter { $0["type"] as? String == "clip" }
        #expect(clips.count == 2)
        for (clip, sound) in zip(clips, sounds) {
            // It starts at the sound's onset (the pre-roll is 0), to the frame: the frames
            // from before the trigger was known were kept.
            #expect(clip["pre_roll_short"] as? Bool == false, "\(clip)")
            if let start = clip["first_frame_time"] as? Double, let onset = sound["time"] as? Double {
                #expect(abs(start - onset) <= 0.035, "clip from \(start), sound at \(onset)")
            }
            guard let path = clip["path"] as? String else { continue }
            // The clip holds the whole burst (0.8 s) and the post-roll, and the tone is in its sound.
            let probe = try MediaProbe.probe(path)
            #expect(probe.duration >= 1.0, "\(path): \(probe.duration)")
            let volume = try ChildProcess.run("ffmpeg", ["-hide_banner", "-nostats", "-i", path, "-vn", "-af", "volumedetect", "-f", "null", "-"])
            let peak = volume.stderr.split(separator: "\n").first { $0.contains("max_volume:") }
                .flatMap { Double($0.split(separator: " ").dropLast().last ?? "") }
            #expect((peak ?? -100) > -10, "\(path): \(volume.stderr.suffix(400))")
        }
    }

    @Test func withSeveralCamerasTheRunsSoundMakesOneClipOnEveryCamera() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var environment = try VirtualCameraEnvironment.shared().environment(spec: [MultiCameraTests.camera(0), MultiCameraTests.camera(1)].joined(separator: ";"))
        environment["CAMREC_DEVICE_PATHS"] = nil
        // The test tone is loud from its start to the end: one trigger, one clip per camera
        // that goes on as long as the sound (it is never cut into pieces).
        let result = try CamrecBinary.run(["-d", "/dev/video0", "-d", "/dev/video1", "--size", "320x240", "--audio", "test", "-t", "3",
                                           "--on-sound", "-30", "--standby", "--post-roll", "0.3s", "--json", folder.path("both.mkv")],
                                          environment: environment, timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = JSONLines.parse(result)
        #expect(lines.filter { $0["type"] as? String == "sound" }.count == 1, "\(result.stdoutText)")
        let clips = lines.filter { $0["type"] as? String == "clip" }
        #expect(Set(clips.compactMap { $0["device"] as? String }) == ["/dev/video0", "/dev/video1"] && clips.count == 2, "\(clips)")
        for clip in clips {
            guard let path = clip["path"] as? String else { continue }
            #expect(try MediaProbe.probe(path).duration >= 2.5, "\(path)")
        }
    }
}

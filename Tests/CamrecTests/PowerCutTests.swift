import Foundation
import Testing

/// A power cut, simulated: camrec runs with an `LD_PRELOAD` shim (Tests/Shims/synclog.c)
/// that logs each file's size whenever its data is flushed to disk. camrec is killed at
/// random moments; a copy of its file cut to the last flushed size is what a power cut
/// would have left, and it must play with at most 2 s lost.
@Suite(.serialized) struct PowerCutTests {
    /// The shim, compiled once per test process.
    static let shim: Result<String, ChildProcess.LaunchFailure> = {
        let source = VirtualCameraEnvironment.packageRoot.appendingPathComponent("Tests/Shims/synclog.c").path
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-synclog-\(getpid()).so").path
        do {
            let result = try ChildProcess.run("/usr/bin/env", ["cc", "-std=gnu11", "-O2", "-fPIC", "-shared", source, "-o", output, "-ldl"],
                                              timeout: 120)
            guard result.status == 0 else { return .failure(.init(description: "cannot compile \(source): \(result.stderr)")) }
            return .success(output)
        } catch {
            return .failure(.init(description: "cannot run cc: \(error)"))
        }
    }()

    /// The last size of `path` that the log says was flushed to disk (0 if none).
    func durableSize(of path: String, log: String) -> Int {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        var size = 0
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2, String(parts[1]) == path, let bytes = Int(parts[0]) { size = max(size, bytes) }
        }
        return size
    }

    /// Seconds the disk had been busy, at `killed` (CLOCK_MONOTONIC ns), with a flush of
    /// `path` that had not returned then (0 if none): a power cut also loses what that flush
    /// was writing, however long a loaded disk takes over it, which is not camrec's to bound.
    func flushInFlight(of path: String, log: String, at killed: UInt64) -> Double {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        var begun: UInt64?
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 2)
            guard parts.count == 3, String(parts[2]) == path, let time = UInt64(parts[1]), time <= killed else { continue }
            if parts[0] == ">" { begun = time } else if parts[0] == "<" { begun = nil }
        }
        return begun.map { Double(killed - $0) / 1e9 } ?? 0
    }

    @Test(arguments: [("mp4", false), ("mkv", false), ("mp4", true)])
    func whatAPowerCutLeavesPlaysWithAtMostTwoSecondsLost(_ ext: String, _ segmented: Bool) throws {
        let shim = try Self.shim.get()
        var generator = SystemRandomNumberGenerator()
        for round in 0..<2 {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let socket = folder.path("control")
            let log = folder.path("sync.log")
            var environment = ProcessInfo.processInfo.environment
            environment["LD_PRELOAD"] = shim
            environment["CAMREC_SYNC_LOG"] = log
            let output = folder.path("movie.\(ext)")
            let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--fps", "30", "--max-duration", "none",
                                              "--control", socket, "--json"] + (segmented ? ["--segment", "1h"] : []) + [output],
                                             environment: environment)
            defer { if run.process.isRunning { run.signal(SIGKILL) } }
            // A random moment between 2 and 6 s of video.
            let target = Int.random(in: 60...180, using: &generator)
            try #require(RecordingWait.frames(target, socket: socket), "round \(round): \(run.stderrText)")
            let reported = try #require(RecordingWait.currentFrames(socket: socket))
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let killed = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
            run.signal(SIGKILL)
            #expect(run.wait() == -SIGKILL)
            let partial = try #require(run.lines(type: "started").first?["partial_path"] as? String)
            let durable = durableSize(of: partial, log: log)
            #expect(durable > 0, "nothing of \(partial) was ever flushed to disk")
            // What a power cut leaves: the file as far as it was flushed.
            let copy = folder.path("cut.\(ext)")
            let data = try Data(contentsOf: URL(fileURLWithPath: partial))
            try #require(data.count >= durable)
            try data.prefix(durable).write(to: URL(fileURLWithPath: copy))
            let probe = try MediaProbe.probe(copy)
            // At most 2 s lost (a half-second fragment, a quarter second not yet flushed,
            // frames on their way). Segments: splitmuxsink also holds back one GOP to find its
            // cuts, which is why segmented runs default to a half-second GOP. A flush the disk
            // had not finished at the cut (a loaded machine's disk can take seconds) loses its
            // time's frames too: camrec cannot make the disk faster, only keep flushing.
            let busy = flushInFlight(of: partial, log: log, at: killed)
            let allowed = 60 + Int((busy * 30).rounded(.up))
            #expect(probe.frames >= reported - allowed,
                    "round \(round) (\(ext)\(segmented ? ", segments" : "")): \(probe.frames) frames survive of \(reported); \(durable) of \(data.count) bytes flushed; a flush in flight for \(busy) s")
            // The flushed prefix may end inside a block (the movie's sink writes as frames
            // come): what a user does after a power cut, `camrec recover`, cuts that torn
            // tail, and the movie it makes decodes cleanly.
            let recovered = folder.path("recovered.\(ext)")
            let recover = try CamrecBinary.run(["recover", "-o", recovered, copy])
            #expect(recover.status == 0, "round \(round): \(recover.stderr)")
            #expect(try MediaProbe.probe(recovered).frames >= reported - allowed)
            #expect(try MediaProbe.decodeErrors(recovered).isEmpty)
        }
    }
}

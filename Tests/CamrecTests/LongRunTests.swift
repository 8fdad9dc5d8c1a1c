import Foundation
import Testing

/// A run of a few hundred short segments: open files, threads and memory stay flat (each
/// finished movie's muxer, sink and thread are released).
@Suite(.serialized) struct LongRunTests {
    /// (open fds, threads, resident kB) of a process, from /proc.
    func usage(of pid: Int32) -> (fds: Int, threads: Int, rssKB: Int)? {
        guard let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"),
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func field(_ name: String) -> Int? {
            status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                .flatMap { Int($0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") }
        }
        guard let threads = field("Threads"), let rss = field("VmRSS") else { return nil }
        return (fds.count, threads, rss)
    }

    @Test func threeHundredSegmentsLeaveNothingBehind() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // 0.05 s segments at 240 fps: 12 frames each, 300 segments in about 15 s. (The test
        // pattern's frames are timed by their count, never dropped: a loaded machine makes
        // the run slower, not the segments shorter.)
        let run = try CamrecBinary.start(["--device", "test", "--size", "160x120", "--fps", "240", "-t", "15",
                                          "--segment", "0.05", "--keep", "20", "--json", folder.path("l.mkv")])
        defer { if run.process.isRunning { run.signal(SIGKILL) } }
        try #require(run.waitForLines(type: "segment", count: 50, timeout: 120), "\(run.stderrText)")
        let early = try #require(usage(of: run.pid))
        try #require(run.waitForLines(type: "segment", count: 280, timeout: 300), "\(run.stderrText)")
        let late = try #require(usage(of: run.pid))
        #expect(run.wait(timeout: 120) == 0, "\(run.stderrText)")
        #expect(late.fds <= early.fds + 2, "open files grew from \(early.fds) to \(late.fds)")
        #expect(late.threads <= early.threads + 2, "threads grew from \(early.threads) to \(late.threads)")
        #expect(late.rssKB <= early.rssKB + 8_192, "memory grew from \(early.rssKB) kB to \(late.rssKB) kB")
        let segments = run.lines(type: "segment")
        #expect(segments.count == 300)
        #expect(segments.allSatisfy { $0["frames"] as? Int == 12 }, "\(segments.compactMap { $0["frames"] as? Int })")
        #expect(folder.contents.count == 20)
    }
}

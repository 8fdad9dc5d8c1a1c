import Foundation
import Testing

/// Issue 29 item 7, end to end: when another process fills the disk, --min-free deletes the
/// older segments while recording; once camrec says "stopping (disk-full)", it deletes
/// nothing more (it used to delete each older movie as the last ones were committed,
/// keeping only the very last).
@Suite(.serialized) struct RetentionStoppingEndToEndTests {
    @Test(.enabled(if: getuid() == 0, "needs root to mount a small tmpfs"))
    func item7_nothingIsDeletedOnceStopping() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let mount = folder.path("disk")
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        try #require(try ChildProcess.run("mount", ["-t", "tmpfs", "-o", "size=16m", "tmpfs", mount]).status == 0)
        defer { _ = try? ChildProcess.run("umount", [mount]) }
        let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--fps", "30", "--max-duration", "none",
                                          "--segment", "0.5", "--min-free", "8M", "--json", mount + "/cam.mp4"])
        try #require(run.waitForLines(type: "segment", count: 3), "no 3 segments: \(run.stderrText)")
        // Another process leaves 4 MB free: below --min-free, enough for the last movie.
        var info = statvfs()
        try #require(statvfs(mount, &info) == 0)
        let free = Int(info.f_bavail) * Int(info.f_frsize)
        let fill = try ChildProcess.run("dd", ["if=/dev/zero", "of=\(mount)/other", "bs=1M", "count=\(max(free / (1 << 20) - 4, 1))"])
        #expect(fill.status == 0, "\(fill.stderr)")
        let status = run.wait(timeout: 120)
        #expect(status == 74, "exit \(String(describing: status)): \(run.stderrText)")
        #expect(run.stderrText.contains("stopping (disk-full)"), "\(run.stderrText)")
        // --min-free left the newest movie when it found it could not make room, and the run
        // stopped; the movie still being written is then committed. Deleting on (as before)
        // left only that last one.
        let lines = run.jsonLines
        let kept = (lines.last?["files"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "movie" }
            .compactMap { $0["path"] as? String }
        #expect(kept.count >= 2, "only \(kept) kept; lines: \(lines.map { $0["type"] as? String ?? "" })")
        for path in kept { #expect((try? MediaProbe.probe(path).frames) ?? 0 > 0, "\(path)") }
    }
}

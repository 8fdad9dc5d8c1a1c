import Foundation
import Testing

/// Issue 29 item 5: leftover partial files are recovered under names that never collide
/// (with each other, or with the newer recording that took OUTPUT since), the advice camrec
/// gives for them is safe to follow, empty ones are removed with a line, and
/// `record --recover-partials` handles the leftovers of its own series at start.
extension RecoverCommandTests {
    /// Two leftovers of `cam.mp4` (`cam.partial.mp4`, `cam.partial-1.mp4`) and a newer
    /// finished `cam.mp4`: the advice of the next run's warning, followed as printed,
    /// recovers both into two new names, removes the partial files, and leaves `cam.mp4` be.
    @Test func item5_theStalePartialAdviceIsSafeToFollow() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (first, _, _) = try killedRecording("mp4", frames: 45, in: folder, name: "cam")
        let (second, _, _) = try killedRecording("mp4", frames: 45, in: folder, name: "cam")
        #expect(first != second)
        let newer = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--fps", "30", "-t", "1", "--json",
                                          folder.path("cam.mp4")])
        try #require(newer.status == 0, "\(newer.stderr)")
        let warning = try #require(JSONLines.parse(newer).first { ($0["message"] as? String ?? "").contains("unfinished") })
        let message = warning["message"] as? String ?? ""
        let advice = try #require(message.range(of: "camrec recover").map { String(message[$0.lowerBound...]) }, "\(message)")
        #expect(advice.contains("--in-place"), "\(advice)")
        let newerBytes = try Data(contentsOf: URL(fileURLWithPath: folder.path("cam.mp4")))
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = CamrecBinary.url.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
        let followed = try ChildProcess.run("/bin/sh", ["-c", advice], environment: environment, timeout: 120)
        #expect(followed.status == 0, "\(advice): \(followed.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("cam.mp4"))) == newerBytes, "the newer recording changed")
        let recovered = folder.contents.filter { $0.hasPrefix("cam-recovered-") }
        #expect(recovered.count == 2, "\(folder.contents)")
        #expect(!folder.contents.contains { $0.contains(".partial") }, "partial files left: \(folder.contents)")
        for name in recovered { #expect(frames(folder.path(name)) > 0, "\(name)") }
    }

    /// A partial file with no frame (empty: killed before the first frame) is removed by
    /// recover, with a line saying so, and exit 0; any other empty file is refused and kept.
    @Test func item5_emptyPartialIsRemovedWithALine() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let empty = folder.path("cam.partial-3.mp4")
        let other = folder.path("notes.mp4")
        FileManager.default.createFile(atPath: empty, contents: Data())
        FileManager.default.createFile(atPath: other, contents: Data())
        let run = try recover(["--json", empty])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.lines.first?["status"] as? String == "removed")
        #expect((run.lines.first?["message"] as? String ?? "").contains("removed"))
        #expect(!FileManager.default.fileExists(atPath: empty))
        let said = try CamrecBinary.run(["recover", other])
        #expect(said.status == 65, "\(said.stderr)")
        #expect(FileManager.default.fileExists(atPath: other))
    }

    /// `record --recover-partials`: the leftovers of OUTPUT's series are recovered at start
    /// (an empty one removed), another series' leftover is only mentioned, and the run records.
    @Test func item5_recordRecoversTheLeftoversOfItsSeries() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (leftover, _, _) = try killedRecording("mkv", frames: 45, in: folder, name: "door")
        let empty = folder.path("door.partial-7.mkv")
        FileManager.default.createFile(atPath: empty, contents: Data())
        let (otherSeries, _, _) = try killedRecording("mkv", frames: 45, in: folder, name: "garden")
        let run = try CamrecBinary.run(["--device", "test", "--size", "320x240", "--fps", "30", "-t", "1", "--recover-partials",
                                        "--json", folder.path("door.mkv")])
        #expect(run.status == 0, "\(run.stderr)")
        let messages = JSONLines.parse(run).compactMap { $0["type"] as? String == "warning" ? $0["message"] as? String : nil }
        #expect(messages.contains { $0.contains("recovered the unfinished \(leftover)") }, "\(messages)")
        #expect(messages.contains { $0.contains(empty) && $0.contains("removed") }, "\(messages)")
        #expect(messages.contains { $0.contains("garden.partial") && $0.contains("camrec recover --in-place") }, "\(messages)")
        #expect(!FileManager.default.fileExists(atPath: leftover) && !FileManager.default.fileExists(atPath: empty))
        #expect(FileManager.default.fileExists(atPath: otherSeries))
        let recovered = folder.contents.filter { $0.hasPrefix("door-recovered-") }
        #expect(recovered.count == 1, "\(folder.contents)")
        #expect(frames(folder.path(recovered.first ?? "")) > 0)
        #expect(frames(folder.path("door.mkv")) == 30)
    }
}

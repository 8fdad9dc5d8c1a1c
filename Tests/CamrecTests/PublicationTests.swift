import Foundation
import Testing

/// Issue 29 item 1: a finished recording is given its name on every file system (FAT and
/// exFAT have no hard links), and when it cannot be (the name was taken meanwhile) it is
/// kept where camrec says, never deleted.
@Suite(.serialized) struct PublicationTests {
    static let recording = ["--device", "test", "--size", "320x240", "--fps", "30"]

    /// A plain recording onto FAT / exFAT ends as OUTPUT, with no partial file left.
    @Test(arguments: ForeignFileSystem.Kind.allCases)
    func item1_fatOutputIsPublished(kind: ForeignFileSystem.Kind) throws {
        try Self.requireMountable(kind)
        let disk = try ForeignFileSystem(kind)
        defer { disk.unmount() }
        let output = disk.file("movie.mp4")
        let result = try CamrecBinary.run(Self.recording + ["--max-duration", "1", "--json", output])
        #expect(result.status == 0, "\(kind): \(result.stderr)")
        #expect(disk.contents.filter { !$0.hasPrefix(".") } == ["movie.mp4"], "\(kind): left \(disk.contents)")
        #expect(try MediaProbe.probe(output).frames == 30)
    }

    /// With --segment every segment on FAT / exFAT gets its final name.
    @Test(arguments: ForeignFileSystem.Kind.allCases)
    func item1_fatSegmentsArePublished(kind: ForeignFileSystem.Kind) throws {
        try Self.requireMountable(kind)
        let disk = try ForeignFileSystem(kind)
        defer { disk.unmount() }
        let result = try CamrecBinary.run(Self.recording + ["--max-duration", "3", "--segment", "1", "--json",
                                                            disk.file("seg.mp4")])
        #expect(result.status == 0, "\(kind): \(result.stderr)")
        let names = disk.contents.filter { !$0.hasPrefix(".") }
        #expect(!names.isEmpty && names.allSatisfy { !$0.contains(".partial") }, "\(kind): left \(names)")
        let frames = try names.map { try MediaProbe.probe(disk.file($0)).frames }.reduce(0, +)
        #expect(frames == 90, "\(kind): \(names) hold \(frames) frames")
    }

    /// `camrec still` writes its photo on FAT / exFAT.
    @Test(arguments: ForeignFileSystem.Kind.allCases)
    func item1_fatStillIsWritten(kind: ForeignFileSystem.Kind) throws {
        try Self.requireMountable(kind)
        let disk = try ForeignFileSystem(kind)
        defer { disk.unmount() }
        let photo = disk.file("photo.jpg")
        let result = try CamrecBinary.run(["still", "--device", "test", "--size", "320x240", "--settle", "0", photo])
        #expect(result.status == 0, "\(kind): \(result.stderr)")
        #expect(disk.contents.filter { !$0.hasPrefix(".") } == ["photo.jpg"], "\(kind): left \(disk.contents)")
        #expect(try MediaProbe.probe(photo).frames >= 1)
    }

    /// Two overlapping runs with the same OUTPUT (cron jobs that overlap): the one that
    /// finishes second cannot take the name; it keeps its movie where it says (exit 73, the
    /// result lists the file), and the first run's movie is untouched. On the local file
    /// system (link) and on FAT (check-then-rename under a lock).
    @Test(arguments: [nil] + ForeignFileSystem.Kind.allCases.map(Optional.some))
    func item1_overlappingRunKeepsItsPartialFile(kind: ForeignFileSystem.Kind?) throws {
        if let kind { try Self.requireMountable(kind) }
        let disk = try kind.map { try ForeignFileSystem($0) }
        let local = disk == nil ? try TemporaryFolder() : nil
        defer {
            disk?.unmount()
            local?.remove()
        }
        func file(_ name: String) -> String { disk?.file(name) ?? local?.path(name) ?? name }
        let output = file("same.mp4")
        let long = try CamrecBinary.start(Self.recording + ["--max-duration", "none", "--json", output])
        #expect(long.waitForLine(type: "started"), "the first run did not start: \(long.stderrText)")
        #expect(Wait.until(timeout: 60) { FileManager.default.fileExists(atPath: file("same.partial.mp4")) })
        let short = try CamrecBinary.run(Self.recording + ["--max-duration", "1", "--json", output])
        #expect(short.status == 0, "\(short.stderr)")
        long.signal(SIGINT)
        let status = long.wait()
        #expect(status == 73, "the overlapping run exited \(String(describing: status)): \(long.stderrText)")
        let results = long.lines(type: "result")
        let files = results.first?["files"] as? [[String: Any]] ?? []
        let kept = files.first { $0["kind"] as? String == "movie" }
        let keptPath = kept?["path"] as? String ?? ""
        #expect(keptPath == file("same.partial.mp4"), "result lists \(files)")
        #expect(kept?["unpublished"] as? String == output)
        #expect(long.stderrText.contains("kept in \(file("same.partial.mp4"))"), "\(long.stderrText)")
        #expect(FileManager.default.fileExists(atPath: keptPath), "the kept movie is gone")
        #expect(try MediaProbe.probe(keptPath).frames > 0)
        #expect(try MediaProbe.probe(output).frames == 30, "the first finished run's movie was replaced")
    }

    /// `doctor` tries, in the output folder, the way finished files take their names, and
    /// says it: link() on the local file system, a locked check-then-rename on FUSE FAT/exFAT.
    @Test(arguments: [nil] + ForeignFileSystem.Kind.allCases.map(Optional.some))
    func item1_doctorSaysHowFilesArePublished(kind: ForeignFileSystem.Kind?) throws {
        if let kind { try Self.requireMountable(kind) }
        let disk = try kind.map { try ForeignFileSystem($0) }
        let local = disk == nil ? try TemporaryFolder() : nil
        defer {
            disk?.unmount()
            local?.remove()
        }
        let folder = disk?.path ?? local?.url.path ?? ""
        let result = try CamrecBinary.run(["doctor", "--device", "test", "--json", folder + "/movie.mp4"])
        let check = JSONLines.parse(result).first { $0["name"] as? String == "publication" }
        let message = check?["message"] as? String ?? ""
        #expect(check?["status"] as? String == "ok", "\(String(describing: check)) \(result.stderr)")
        #expect(message.contains(disk == nil ? "link()" : "rename"), "\(message)")
        #expect(message.contains("fsync works"), "\(message)")
        #expect(!(disk?.contents ?? local?.contents ?? []).contains { $0.contains("camrec-doctor") }, "doctor left its scratch files")
    }

    /// A name longer than the file system takes is refused before anything is recorded
    /// (exit 73), not recorded and then lost when it cannot be given its name.
    @Test func item1_tooLongNameIsRefusedBeforeRecording() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path(String(repeating: "n", count: 252) + ".mp4")
        let result = try CamrecBinary.run(Self.recording + ["--max-duration", "2", "--json", output])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.contains("choose a shorter name"), "\(result.stderr)")
        #expect(!result.stdoutText.contains(#""type":"started""#), "it recorded first: \(result.stdoutText)")
        #expect(folder.contents.isEmpty, "left \(folder.contents)")
    }

    /// Skips (cancels) the test case, printing why, where `kind` cannot be mounted (no root,
    /// no FUSE, no mkfs); CI runs as root where FUSE works, so it runs there.
    static func requireMountable(_ kind: ForeignFileSystem.Kind) throws {
        guard let reason = ForeignFileSystem.unusable(kind) else { return }
        print("skipped: \(reason)")
        try Test.cancel(Comment(rawValue: reason))
    }
}

import Foundation
import Testing

/// Issue 29 items 2 and 10: a recording whose temporary file is removed (with its folder) or
/// replaced by another file under its name says the movie is lost, never that it is "kept"
/// somewhere it is not, and never touches the file that took its name.
@Suite(.serialized) struct LostOutputTests {
    /// The folder removed during a plain recording: exit 73, the movie said to be gone.
    @Test func item10_theFolderRemovedDuringARecordingIsSaidLost() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let target = folder.path("out")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        let socket = folder.path("ctl.sock")
        let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--max-duration", "none",
                                          "--control", socket, "--json", target + "/movie.mp4"])
        defer { run.signal(SIGKILL) }
        try #require(RecordingWait.frames(30, socket: socket), "\(run.stderrText)")
        try FileManager.default.removeItem(atPath: target)
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait(timeout: 60) == 73, "\(run.stderrText)")
        #expect(run.stderrText.contains("is gone"), "\(run.stderrText)")
        #expect(!run.stderrText.contains("kept in"), "\(run.stderrText)")
    }

    /// The folder removed and made again during a segmented run: the segment being written
    /// then is said lost (a warning), the run goes on into the new folder, and it ends
    /// with exit 73 and the lost segment named in `lost_movies` (never exit 0: a script
    /// must learn that a movie is missing).
    @Test func item10_aSegmentLostWithItsFolderIsSaidLostAndTheRunGoesOn() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let target = folder.path("out")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--segment", "1", "--max-duration", "6",
                                          "--json", target + "/seg.mp4"])
        defer { run.signal(SIGKILL) }
        try #require(run.waitForLine(type: "segment"), "\(run.stderrText)")
        try FileManager.default.removeItem(atPath: target)
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        let status = run.wait(timeout: 60)
        let warnings = run.lines(type: "warning").compactMap { $0["message"] as? String }
        let lost = warnings.filter { $0.contains("is gone") }
        #expect(lost.count >= 1, "\(warnings) \(run.stderrText)")
        #expect(!warnings.contains { $0.contains("kept in") }, "\(warnings)")
        // The segments made after the loss are in the new folder and play (the first one,
        // finished before, was removed with the old folder).
        let files = (run.jsonLines.last?["files"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        let present = files.filter { FileManager.default.fileExists(atPath: $0) }
        #expect(!present.isEmpty, "\(files) \(run.stderrText)")
        for file in present { #expect(try MediaProbe.decodeErrors(file).isEmpty) }
        let made = try FileManager.default.contentsOfDirectory(atPath: target).map { target + "/" + $0 }
        #expect(Set(made) == Set(present),
                "in the new folder: what the result lists, nothing else")
        #expect(status == 73, "\(String(describing: status)) \(run.stderrText)")
        let lostMovies = run.jsonLines.last?["lost_movies"] as? [String] ?? []
        #expect(lostMovies.count == lost.count && lostMovies.allSatisfy { $0.hasPrefix(target + "/seg") },
                "\(lostMovies) \(warnings)")
        #expect(Set(lostMovies).isDisjoint(with: present), "a lost movie is also listed as made: \(lostMovies) \(present)")
    }

    /// Issue 29 item 2: another program puts a file under the recording's temporary name
    /// (`trim --in-place` refuses that now; `mv` does not): camrec says so, exits 73, and
    /// leaves that file as it is.
    @Test func item2_aTemporaryFileReplacedUnderTheRecordingIsLeftAlone() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let socket = folder.path("ctl.sock")
        let output = folder.path("live.mp4")
        let run = try CamrecBinary.start(["--device", "test", "--size", "320x240", "--max-duration", "none",
                                          "--control", socket, "--json", output])
        defer { run.signal(SIGKILL) }
        try #require(RecordingWait.frames(30, socket: socket), "\(run.stderrText)")
        let partial = try #require(run.lines(type: "started").first?["partial_path"] as? String)
        let other = folder.path("other.bin")
        let content = Data("someone else's file\n".utf8)
        try content.write(to: URL(fileURLWithPath: other))
        #expect(rename(other, partial) == 0)
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait(timeout: 60) == 73, "\(run.stderrText)")
        #expect(run.stderrText.contains("was replaced by another file"), "\(run.stderrText)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: partial)) == content, "the other file was changed")
        #expect(!FileManager.default.fileExists(atPath: output), "the other file was published as the movie")
    }
}

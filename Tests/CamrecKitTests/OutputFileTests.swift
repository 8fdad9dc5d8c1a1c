@testable import CamrecKit
import Foundation
import Testing

@Suite struct OutputFileTests {
    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func claimsAPartialFileBesideTheOutputAndCommitsIt() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("movie.mp4").path
        let file = try OutputFile.claim(output, overwrite: false)
        #expect(file.partialPath == dir.appendingPathComponent("movie.partial.mp4").path)
        try Data("x".utf8).write(to: URL(fileURLWithPath: file.partialPath))
        try file.commit()
        #expect(FileManager.default.fileExists(atPath: output))
        #expect(!FileManager.default.fileExists(atPath: file.partialPath))
    }

    @Test func aStalePartialFileIsNeverClobbered() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let stale = dir.appendingPathComponent("movie.partial.mp4")
        try Data("crashed earlier".utf8).write(to: stale)
        let file = try OutputFile.claim(dir.appendingPathComponent("movie.mp4").path, overwrite: false)
        #expect(file.partialPath.hasSuffix("movie.partial-1.mp4"))
        #expect(try Data(contentsOf: stale) == Data("crashed earlier".utf8))
    }

    @Test func commitNeverReplacesAFileThatAppearedMeanwhile() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("movie.mkv").path
        let file = try OutputFile.claim(output, overwrite: false)
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: output))
        #expect(throws: CamrecError.self) { try file.commit() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data("someone else's".utf8))
        #expect(FileManager.default.fileExists(atPath: file.partialPath))
    }

    @Test func destinationChecks() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let existing = dir.appendingPathComponent("a.mp4").path
        try Data().write(to: URL(fileURLWithPath: existing))
        #expect(throws: CamrecError(.cannotCreateOutput, "\(existing) already exists: choose another name or pass --force to replace it")) {
            try OutputFile.checkDestination(existing, overwrite: false)
        }
        try OutputFile.checkDestination(existing, overwrite: true)
        #expect(throws: CamrecError.self) { try OutputFile.checkDestination(dir.appendingPathComponent("no/a.mp4").path, overwrite: false) }
        #expect(throws: CamrecError.self) { try OutputFile.checkDestination(dir.path, overwrite: true) }
        #expect(OutputFile.split("dir.d/movie") == ("dir.d/movie", ""))
        #expect(OutputFile.split(".hidden") == (".hidden", ""))
        #expect(OutputFile.folderOf("movie.mp4") == ".")
        #expect(OutputFile.folderOf("/movie.mp4") == "/")
    }
}

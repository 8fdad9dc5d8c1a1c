@testable import CamrecKit
import Foundation
import Testing

/// Issue 29 item 1, the parts that need no camera: a movie that cannot take its name is
/// kept under its temporary name (listed as such), never removed by the discard path; a
/// name longer than the file system takes is refused before anything is claimed.
@Suite struct PublicationUnitTests {
    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-publish-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func config(output: String) -> RecordConfig {
        RecordConfig(source: .testPattern, size: FrameSize(width: 320, height: 240), rate: FrameRateValue(numerator: 30, denominator: 1),
                     maxDuration: .seconds(1), outputPath: output, container: .mp4, overwrite: false, encoder: EncoderSettings())
    }

    @Test func item1_aMovieWhoseNameWasTakenIsKeptNotDiscarded() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("same.mp4").path
        let plan = try OutputPlan(config: config(output: output))
        let partial = try #require(plan.openPartialPaths.first)
        try Data("the movie".utf8).write(to: URL(fileURLWithPath: partial))
        // An overlapping run published the name meanwhile.
        try Data("the other run's".utf8).write(to: URL(fileURLWithPath: output))
        let (file, note) = try plan.commitFinalised(0, frames: 30, seconds: 1)
        #expect(file.path == partial)
        #expect(file.unpublished == output)
        #expect(note?.contains("kept in \(partial)") == true, "\(note ?? "no note")")
        // The error path of a run (Recorder's catch) discards what is open: not this.
        plan.discardOpen()
        #expect(try Data(contentsOf: URL(fileURLWithPath: partial)) == Data("the movie".utf8))
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data("the other run's".utf8))
        let result = RecordingResult(reason: .maxDuration, files: [file], droppedFrames: 0)
        #expect(result.exitStatus == .cannotCreateOutput)
    }

    @Test func item1_aNameTooLongForTheFileSystemIsRefusedBeforeTheClaim() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent(String(repeating: "n", count: 252) + ".mp4").path
        #expect(throws: CamrecError.self) { try OutputPlan(config: config(output: output)) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test func item1_placeNeverReplacesAndSaysHow() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let temporary = dir.appendingPathComponent("t").path
        let final = dir.appendingPathComponent("f").path
        try Data("new".utf8).write(to: URL(fileURLWithPath: temporary))
        try Data("old".utf8).write(to: URL(fileURLWithPath: final))
        let taken = Destination.place(temporary, as: final)
        #expect(taken.code == EEXIST)
        #expect(try Data(contentsOf: URL(fileURLWithPath: final)) == Data("old".utf8))
        try FileManager.default.removeItem(atPath: final)
        let placed = Destination.place(temporary, as: final)
        #expect(placed.code == 0 && placed.way == .link)
        #expect(!FileManager.default.fileExists(atPath: temporary))
    }
}

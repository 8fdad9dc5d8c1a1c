@testable import CamrecKit
@testable import Recover
import Foundation
import Testing

/// What a stop signal does to a recovery: the file being written goes, and nothing is
/// published after it.
@Suite struct RecoverControlTests {
    @Test func abandoningRemovesTheFileInProgressAndPublishesNothing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-control-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let temporary = folder.appendingPathComponent(".out.mp4.recover-1.part").path
        let final = folder.appendingPathComponent("out.mp4").path
        FileManager.default.createFile(atPath: temporary, contents: Data([1]))
        let control = RecoverControl()
        try control.track(temporary)
        control.abandon()
        #expect(!FileManager.default.fileExists(atPath: temporary))
        FileManager.default.createFile(atPath: temporary, contents: Data([1]))
        #expect(throws: CamrecError.self) { try control.publish(temporary, as: final, replace: false) }
        #expect(throws: CamrecError.self) { try control.track(temporary) }
        #expect(!FileManager.default.fileExists(atPath: final))
    }

    @Test func publishingMovesTheFileOnceAndOnlyItsOwn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-control-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let temporary = folder.appendingPathComponent(".out.mp4.recover-1.part").path
        let final = folder.appendingPathComponent("out.mp4").path
        FileManager.default.createFile(atPath: temporary, contents: Data([7]))
        let control = RecoverControl()
        try control.track(temporary)
        #expect(throws: CamrecError.self) { try control.publish(temporary + "x", as: final, replace: false) }
        try control.publish(temporary, as: final, replace: false)
        #expect(FileManager.default.contents(atPath: final) == Data([7]))
        #expect(!FileManager.default.fileExists(atPath: temporary))
        // Once published, a stop has nothing to remove: the output stays.
        control.abandon()
        #expect(FileManager.default.fileExists(atPath: final))
    }
}

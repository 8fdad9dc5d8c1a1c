@testable import CamrecKit
import Foundation
import Testing

/// Finding camrec's stale `.partial` files beside an OUTPUT, for the recorder's start-up
/// warning, and the command it suggests.
@Suite struct RecoverStalePartialsTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-stale-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func touch(_ names: [String]) {
        for name in names { FileManager.default.createFile(atPath: path(name), contents: Data([1, 2, 3])) }
    }

    @Test func findsCamrecsOwnPartialFilesAndNothingElse() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        touch(["b.partial.mp4", "a.partial-2.mkv", "c.mp4", "d.partial.txt", ".e.mp4.recover-12.part", "f.partial.MOV",
               "mine.partial.mp4"])
        try FileManager.default.createDirectory(atPath: path("g.partial.mp4"), withIntermediateDirectories: false)
        let output = path("new.mp4")
        let found = StalePartials.find(besideOutput: output, excluding: [path("mine.partial.mp4")])
        #expect(found == [path("a.partial-2.mkv"), path("b.partial.mp4"), path("f.partial.MOV")])
        // Finding changes nothing.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 8)
    }

    @Test func pathsAreSpelledWithTheOutputsFolderAsGiven() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        touch(["old.partial.mkv"])
        #expect(StalePartials.find(besideOutput: folder.path + "/new.mkv") == [folder.path + "/old.partial.mkv"])
        #expect(StalePartials.find(besideOutput: folder.path + "//new.mkv") == [folder.path + "//old.partial.mkv"])
        #expect(StalePartials.find(besideOutput: folder.path + "/missing-folder/new.mkv") == [])
    }

    /// A partial file that a running process has open (a recording in progress) is not stale.
    @Test func aFileSomeProcessHasOpenIsNotStale() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        touch(["live.partial.mp4", "dead.partial.mp4"])
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/tail")
        holder.arguments = ["-f", path("live.partial.mp4")]
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        defer {
            // SIGKILL: a child of the test runner may inherit its blocked SIGTERM.
            kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()
        }
        #expect(Wait.until { OpenFiles.holders(of: path("live.partial.mp4")) == [holder.processIdentifier] })
        #expect(StalePartials.find(besideOutput: path("x.mp4")) == [path("dead.partial.mp4")])
    }

    @Test func theSuggestedCommandIsOneShellLine() {
        #expect(StalePartials.recoverCommand(for: ["a.partial.mp4", "cam/b.partial-2.mkv"])
                == "camrec recover --in-place a.partial.mp4 cam/b.partial-2.mkv")
        #expect(StalePartials.recoverCommand(for: ["my cam/it's.partial.mp4", "-x.partial.mp4", "é.partial.mkv"])
                == "camrec recover --in-place 'my cam/it'\\''s.partial.mp4' ./-x.partial.mp4 'é.partial.mkv'")
        #expect(StalePartials.warning(for: []) == nil)
        let one = StalePartials.warning(for: ["cam/a.partial.mp4"]) ?? ""
        #expect(one.hasPrefix("an unfinished recording from an earlier camrec"))
        #expect(one.contains(" in cam/;") && one.hasSuffix("recover it with camrec recover --in-place cam/a.partial.mp4"))
        let two = StalePartials.warning(for: ["a.partial.mp4", "b.partial.mkv"]) ?? ""
        #expect(two.hasPrefix("2 unfinished recordings") && two.contains(" here;"))
        #expect(two.hasSuffix("recover them with camrec recover --in-place a.partial.mp4 b.partial.mkv"))
    }
}

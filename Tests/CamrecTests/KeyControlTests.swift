import Foundation
import Testing

/// The keys on an interactive terminal: `s` takes a still, `c` makes an event clip, `q`
/// stops. camrec runs on a pseudo-terminal (script(1)), whose input the test types into.
@Suite("Keys on a terminal")
struct KeyControlTests {
    @Test("s takes a still, c makes a clip, q stops and finalises")
    func keysControlTheRecording() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("keys.mp4")
        let typescript = folder.path("typescript")
        let keys = Pipe()
        let terminal = try PseudoTerminal.start(camrec: ["--device", "test", "--size", "160x120", "--max-duration", "none",
                                                         "--post-roll", "0.3s", "--clip-start", "exact", output], typescript: typescript, input: keys)
        defer { if terminal.isRunning { kill(terminal.processIdentifier, SIGKILL) } }
        let shown = { (try? String(contentsOfFile: typescript, encoding: .utf8)) ?? "" }
        try #require(Wait.until(timeout: 30) { shown().contains(" fps") }, "no progress line on the terminal: \(shown())")

        keys.fileHandleForWriting.write(Data("s".utf8))
        try #require(Wait.until(timeout: 30) { folder.contents.contains("keys-still-0001.jpg") }, "\(folder.contents) \(shown())")
        keys.fileHandleForWriting.write(Data("c".utf8))
        try #require(Wait.until(timeout: 30) { folder.contents.contains("keys-clip-0001.mp4") }, "\(folder.contents) \(shown())")
        keys.fileHandleForWriting.write(Data("q".utf8))
        try #require(Wait.until(timeout: 60) { !terminal.isRunning }, "q did not stop camrec: \(shown())")
        #expect(folder.contents.filter { $0.hasPrefix("keys") } == ["keys-clip-0001.mp4", "keys-still-0001.jpg", "keys.mp4"],
                "\(folder.contents)")
        #expect(try MediaProbe.probe(folder.path("keys-clip-0001.mp4")).frames == 9)
        #expect(try MediaProbe.probe(output).frames > 9)
    }
}

@testable import ArgumentParsing
import Testing

/// Issue 29 item 6: an argument that is not UTF-8 is refused (exit 64), never repaired.
@Suite struct RawArgumentsTests {
    @Test func item6_nonUTF8ArgumentIsRefusedWithItsBytesShown() {
        let bad: [UInt8] = Array("bad2".utf8) + [0xFF] + Array(".mp4".utf8)
        #expect(throws: UsageError.self) { try RawArguments.decode([Array("-t".utf8), bad]) }
        do {
            _ = try RawArguments.decode([bad])
        } catch {
            #expect(error.message.contains(#""bad2\xFF.mp4""#), "\(error.message)")
            #expect(error.message.contains("UTF-8"))
        }
    }

    @Test func item6_utf8ArgumentsAreKeptExactly() throws {
        let names = ["café.mp4", "日本.mkv", "a b", ""]
        #expect(try RawArguments.decode(names.map { Array($0.utf8) }) == names)
        #expect(RawArguments.escaped(Array("é".utf8) + [0xC3] + [0x01]) == #"é\xC3\x01"#)
    }
}

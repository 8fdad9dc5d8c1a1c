import ArgumentParsing
import Testing

/// Asking for an option the command does not declare is a bug in camrec, not a user
/// mistake: it stops the program instead of silently answering "not given".
@Suite("ParsedArguments: programmer errors")
struct ProgrammerErrorTests {
    @Test func undeclaredOptionStops() async {
        await #expect(processExitsWith: .failure) {
            let parsed = try Fixtures.record.parse(["out.mp4"])
            _ = parsed.flag("--frce")
        }
    }

    @Test func valueOfAFlagStops() async {
        await #expect(processExitsWith: .failure) {
            let parsed = try Fixtures.record.parse(["out.mp4"])
            _ = parsed.value("--force")
        }
    }
}

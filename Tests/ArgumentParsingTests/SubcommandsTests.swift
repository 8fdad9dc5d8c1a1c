import ArgumentParsing
import Testing

@Suite("Subcommands.select")
struct SubcommandsTests {
    static let camrec = Subcommands(["record", "trim", "devices", "still", "ctl"], default: "record")

    static let cases: [(arguments: [String], name: String, rest: [String])] = [
        (["--max-duration", "600", "out.mp4"], "record", ["--max-duration", "600", "out.mp4"]),
        (["out.mp4"], "record", ["out.mp4"]),
        ([], "record", []),
        (["--help"], "record", ["--help"]),
        (["record", "out.mp4"], "record", ["out.mp4"]),
        (["trim", "in.mp4", "out.mp4"], "trim", ["in.mp4", "out.mp4"]),
        (["devices"], "devices", []),
        (["still", "a.jpg"], "still", ["a.jpg"]),
        (["ctl", "stop"], "ctl", ["stop"]),
        // Exact match only: the first argument is a subcommand only if it equals a name.
        (["Trim", "x"], "record", ["Trim", "x"]),
        (["trim.mp4"], "record", ["trim.mp4"]),
        (["./devices"], "record", ["./devices"]),
        // Ways to record to a file named like a subcommand.
        (["record", "devices"], "record", ["devices"]),
        (["--", "devices"], "record", ["--", "devices"]),
        // Only the first argument is looked at.
        (["out.mp4", "trim"], "record", ["out.mp4", "trim"]),
        (["-d", "trim", "out.mp4"], "record", ["-d", "trim", "out.mp4"]),
    ]

    @Test(arguments: cases)
    func select(_ arguments: [String], name: String, rest: [String]) {
        let selected = Self.camrec.select(arguments)
        #expect(selected.name == name)
        #expect(selected.arguments == rest)
    }

    /// A bare word near a name is a typo; anything that could be a file or an option is not.
    @Test(arguments: [
        (["recrod", "x.mp4"], "record"), (["Trim"], "trim"), (["devcies", "--json"], "devices"), (["stil"], "still"),
        (["ctll"], "ctl"),
        (["movie"], nil), (["x"], nil), (["recrod.mp4"], nil), (["./recrod"], nil), (["-recrod"], nil), ([""], nil),
        (["trim"], nil), ([], nil), (["out.mp4", "recrod"], nil),
    ] as [([String], String?)])
    func likelyTypo(_ arguments: [String], meant: String?) {
        #expect(Self.camrec.likelyTypo(in: arguments) == meant)
    }

    @Test func defaultIsAddedToNames() {
        let subcommands = Subcommands(["trim"], default: "record")
        #expect(subcommands.names == ["trim", "record"])
        #expect(subcommands.select(["record"]).name == "record")
    }

    @Test func recordingToAFileNamedLikeASubcommandAfterDoubleDash() throws {
        let selected = Self.camrec.select(["--", "devices"])
        let parsed = try Fixtures.record.parse(selected.arguments)
        #expect(parsed.positionals == ["devices"])
    }
}

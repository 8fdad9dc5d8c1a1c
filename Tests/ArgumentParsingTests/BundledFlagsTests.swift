import ArgumentParsing
import Testing

/// `-qf` is `-q -f`: short flags bundled behind one dash.
@Suite("CommandSpec.parse: bundled short flags")
struct BundledFlagsTests {
    static let spec = CommandSpec(
        name: "camrec still", abstract: "", usage: "",
        options: [
            OptionSpec(["--quiet", "-q"], help: "Quiet."),
            OptionSpec(["--force", "-f"], help: "Replace."),
            OptionSpec(["--json", "-j"], help: "JSON."),
            OptionSpec(["--device", "-d"], value: "DEV", help: "Camera."),
        ],
        positionals: [PositionalSpec("OUTPUT", help: "Photo.")]
    )

    @Test(arguments: [["-qf", "x.jpg"], ["-fq", "x.jpg"], ["x.jpg", "-qf"], ["-q", "-f", "x.jpg"]])
    func flagsMayBeBundled(_ arguments: [String]) throws {
        let parsed = try Self.spec.parse(arguments)
        #expect(parsed.flag("--quiet") && parsed.flag("--force") && !parsed.flag("--json"))
        #expect(parsed.positionals == ["x.jpg"])
    }

    @Test func threeFlagsAndAValueOptionAfterThem() throws {
        let parsed = try Self.spec.parse(["-qfj", "-d", "test", "x.jpg"])
        #expect(parsed.flag("--quiet") && parsed.flag("--force") && parsed.flag("--json"))
        #expect(parsed.value("--device") == "test")
    }

    @Test func anAttachedValueIsStillAValue() throws {
        // `-d` takes a value, so `-dqf` is the device "qf", not a bundle.
        let parsed = try Self.spec.parse(["-dqf", "x.jpg"])
        #expect(parsed.value("--device") == "qf")
        #expect(!parsed.flag("--quiet"))
    }

    @Test func helpInABundle() throws {
        #expect(try Self.spec.parse(["-qh"]).helpRequested)
    }

    @Test(arguments: [
        (["-qd", "test", "x.jpg"], "option '-d' takes a value, so it cannot be bundled in '-qd'; write -q -d DEV"),
        (["-qfd", "test", "x.jpg"], "option '-d' takes a value, so it cannot be bundled in '-qfd'; write -qf -d DEV"),
        // Not every letter is a short option: not a bundle, the usual message.
        (["-qx", "x.jpg"], "unknown option '-qx'; did you mean '-q'? (see camrec still --help)"),
        (["-force", "x.jpg"], "unknown option '-force'; did you mean '--force'? (see camrec still --help)"),
    ])
    func mistakes(_ arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try Self.spec.parse(arguments) }
    }
}

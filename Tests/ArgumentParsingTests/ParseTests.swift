import ArgumentParsing
import Testing

/// What a successful parse should produce.
struct Expected: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String]

    var testDescription: String { arguments.joined(separator: " ") }
}

@Suite("CommandSpec.parse: valid command lines")
struct ParseTests {
    static let recordCases: [Expected] = [
        Expected(arguments: ["out.mp4"], positionals: ["out.mp4"]),
        Expected(arguments: ["--device", "/dev/video2", "out.mp4"], values: ["--device": ["/dev/video2"]], positionals: ["out.mp4"]),
        Expected(arguments: ["--device=/dev/video2", "out.mp4"], values: ["--device": ["/dev/video2"]], positionals: ["out.mp4"]),
        Expected(arguments: ["-d", "1", "out.mp4"], values: ["--device": ["1"]], positionals: ["out.mp4"]),
        Expected(arguments: ["-d=1", "out.mp4"], values: ["--device": ["1"]], positionals: ["out.mp4"]),
        Expected(arguments: ["-d1", "out.mp4"], values: ["--device": ["1"]], positionals: ["out.mp4"]),
        Expected(arguments: ["out.mp4", "--force"], flags: ["--force"], positionals: ["out.mp4"]),
        Expected(arguments: ["-f", "--json", "out.mp4"], flags: ["--force", "--json"], positionals: ["out.mp4"]),
        Expected(arguments: ["--max-duration", "600", "out.mp4"], values: ["--max-duration": ["600"]], positionals: ["out.mp4"]),
        // Last one wins for a non-repeatable option; values(_:) still shows all.
        Expected(arguments: ["-d", "0", "--device", "2", "out.mp4"], values: ["--device": ["0", "2"]], positionals: ["out.mp4"]),
        Expected(
            arguments: ["--still-at", "5", "--still-at=10s", "out.mp4", "--still-at", "1:00"],
            values: ["--still-at": ["5", "10s", "1:00"]], positionals: ["out.mp4"]
        ),
        // `--` ends options; a lone `-` is positional.
        Expected(arguments: ["--", "--force"], positionals: ["--force"]),
        Expected(arguments: ["-f", "--", "-"], flags: ["--force"], positionals: ["-"]),
        Expected(arguments: ["-"], positionals: ["-"]),
        // `-` as a value (e.g. stdout) is taken, not treated as an option.
        Expected(arguments: ["--device", "-", "x.mp4"], values: ["--device": ["-"]], positionals: ["x.mp4"]),
        // Values may contain '=' and be empty-looking strings other than "".
        Expected(arguments: ["--device=a=b", "x"], values: ["--device": ["a=b"]], positionals: ["x"]),
        Expected(arguments: ["--size", "1280x720", "x"], values: ["--size": ["1280x720"]], positionals: ["x"]),
        // A value that starts with '-' is written attached.
        Expected(arguments: ["--device=-odd", "x"], values: ["--device": ["-odd"]], positionals: ["x"]),
        Expected(arguments: ["--max-duration", "-3", "x"], values: ["--max-duration": ["-3"]], positionals: ["x"]),
        // A negative number is a positional, not an unknown option.
        Expected(arguments: ["-3"], positionals: ["-3"]),
    ]

    @Test(arguments: recordCases)
    func record(_ expected: Expected) throws {
        let parsed = try Fixtures.record.parse(expected.arguments)
        #expect(parsed.positionals == expected.positionals)
        #expect(!parsed.helpRequested)
        for flag in ["--force", "--json"] {
            #expect(parsed.flag(flag) == expected.flags.contains(flag), "\(flag)")
        }
        for option in ["--device", "--max-duration", "--size", "--still-at"] {
            let values = expected.values[option] ?? []
            #expect(parsed.values(option) == values, "\(option)")
            #expect(parsed.value(option) == values.last, "\(option)")
            #expect(parsed.isPresent(option) == !values.isEmpty, "\(option)")
        }
    }

    static let negativeValues: [(arguments: [String], start: String?, end: String?)] = [
        (["--end", "-3", "in.mp4", "out.mp4"], nil, "-3"),
        (["--end=-3", "in.mp4", "out.mp4"], nil, "-3"),
        (["--start", "-0:05", "in.mp4", "out.mp4"], "-0:05", nil),
        (["--start", "-2.5", "--end", "-1", "in.mp4", "out.mp4"], "-2.5", "-1"),
        (["--start", "-.5", "in.mp4", "out.mp4"], "-.5", nil),
        (["--start", "-1h", "in.mp4", "out.mp4"], "-1h", nil),
        (["in.mp4", "--end", "-3", "out.mp4"], nil, "-3"),
        (["in.mp4", "out.mp4", "--start=1:00", "--end=-00:00:03.5"], "1:00", "-00:00:03.5"),
    ]

    @Test("negative numbers work as option values", arguments: negativeValues)
    func negativeValue(_ arguments: [String], start: String?, end: String?) throws {
        let parsed = try Fixtures.trim.parse(arguments)
        #expect(parsed.value("--start") == start)
        #expect(parsed.value("--end") == end)
        #expect(parsed.positionals == ["in.mp4", "out.mp4"])
        #expect(parsed.positional("INPUT") == "in.mp4")
        #expect(parsed.positional("OUTPUT") == "out.mp4")
    }

    @Test func optionalPositional() throws {
        let one = try Fixtures.still.parse(["a.jpg"])
        #expect(one.positional("OUTPUT") == "a.jpg")
        #expect(one.positional("FORMAT") == nil)
        let two = try Fixtures.still.parse(["a.img", "png"])
        #expect(two.positional("FORMAT") == "png")
    }

    @Test func noArgumentsForACommandWithoutPositionals() throws {
        let parsed = try Fixtures.devices.parse([])
        #expect(parsed.positionals.isEmpty)
    }

    @Test(arguments: [["--help"], ["-h"], ["out.mp4", "--help"], ["--bogus", "-h"], ["-d", "0", "--help", "a", "b", "c"], []])
    func helpSkipsOtherChecks(_ arguments: [String]) throws {
        let expectsHelp = !arguments.isEmpty
        if expectsHelp {
            #expect(try Fixtures.record.parse(arguments).helpRequested)
        } else {
            #expect(throws: UsageError.self) { try Fixtures.record.parse(arguments) }
        }
    }

    @Test func helpAfterDoubleDashIsPositional() throws {
        let parsed = try Fixtures.record.parse(["--", "--help"])
        #expect(!parsed.helpRequested)
        #expect(parsed.positionals == ["--help"])
    }

    @Test func commandMayDeclareItsOwnShortH() throws {
        let spec = CommandSpec(
            name: "x", abstract: "", usage: "",
            options: [OptionSpec(["--height", "-h"], value: "N", help: "Height.")], positionals: []
        )
        let parsed = try spec.parse(["-h", "480"])
        #expect(!parsed.helpRequested)
        #expect(parsed.value("-h") == "480")
        #expect(parsed.value("--height") == "480")
        #expect(try spec.parse(["--help"]).helpRequested)
    }

    @Test func typedValueConversion() throws {
        let parsed = try Fixtures.trim.parse(["--start", "12", "--end", "x", "a", "b"])
        #expect(try parsed.value("--start") { (text: String) throws(UsageError) in Int(text) ?? -1 } == 12)
        struct Bad: Error, CustomStringConvertible { var description: String { "invalid time 'x'" } }
        #expect(throws: UsageError("--end: invalid time 'x'")) {
            try parsed.value("--end") { (_: String) throws(Bad) -> Int in throw Bad() }
        }
        #expect(throws: UsageError("--start: invalid time 'x'")) {
            try parsed.values("--start") { (_: String) throws(Bad) -> Int in throw Bad() }
        }
        let absent = try Fixtures.trim.parse(["a", "b"])
        #expect(try absent.value("--start") { (_: String) throws(Bad) -> Int in throw Bad() } == nil)
    }
}

import ArgumentParsing
import Testing

/// Flags that may carry a value attached with `=` (`--preview`, `--preview=auto`).
@Suite("OptionSpec(attachedValue:): a flag with an optional attached value")
struct AttachedValueTests {
    static let spec = CommandSpec(
        name: "camrec",
        abstract: "Record.",
        usage: "",
        options: [
            OptionSpec(["--preview"], attachedValue: "auto", help: "Show a window."),
            OptionSpec(["--force", "-f"], help: "Overwrite."),
        ],
        positionals: [PositionalSpec("OUTPUT", help: "The movie.")]
    )

    @Test func bareIsAFlagWithoutValue() throws {
        let parsed = try Self.spec.parse(["--preview", "out.mp4"])
        #expect(parsed.flag("--preview"))
        #expect(parsed.attachedValue("--preview") == nil)
        // The next argument is never taken as its value.
        #expect(parsed.positional("OUTPUT") == "out.mp4")
    }

    @Test func attachedValueIsKept() throws {
        let parsed = try Self.spec.parse(["--preview=auto", "out.mp4"])
        #expect(parsed.flag("--preview"))
        #expect(parsed.attachedValue("--preview") == "auto")
    }

    @Test func absentIsNeither() throws {
        let parsed = try Self.spec.parse(["out.mp4"])
        #expect(!parsed.flag("--preview"))
        #expect(parsed.attachedValue("--preview") == nil)
    }

    @Test func emptyAttachedValueIsRefused() {
        #expect(throws: UsageError.self) { try Self.spec.parse(["--preview=", "out.mp4"]) }
    }

    @Test func aPlainFlagStillRefusesAValue() {
        #expect(throws: UsageError.self) { try Self.spec.parse(["--force=yes", "out.mp4"]) }
    }

    @Test func helpShowsTheOptionalValue() {
        #expect(Self.spec.helpText.contains("--preview[=auto]"))
    }
}

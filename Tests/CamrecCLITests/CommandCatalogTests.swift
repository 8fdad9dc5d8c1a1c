import ArgumentParsing
import CamrecCLI
import CamrecKit
import Testing

/// The command line's specs, in-process: every subcommand is documented under its own name,
/// each spec builds (a spelling declared twice stops the build of a spec), and what the man
/// page, the completions and docs/cli.md are made from covers every subcommand.
@Suite struct CommandCatalogTests {
    @Test func everySubcommandButHelpHasASpecUnderItsName() {
        for name in CommandCatalog.subcommands.names {
            let spec = CommandCatalog.spec(for: name)
            if name == "help" {
                #expect(spec == nil, "help prints the others' help: it has none of its own")
            } else {
                #expect(spec?.name == (name == "record" ? "camrec" : "camrec \(name)"), "\(name): \(spec?.name ?? "no spec")")
                #expect(spec?.abstract.isEmpty == false, "\(name) says what it does")
            }
        }
        #expect(CommandCatalog.spec(for: "recrod") == nil)
        #expect(CommandCatalog.catalog.undocumented.isEmpty)
        #expect(CommandCatalog.catalog.entries.map(\.name) == CommandCatalog.subcommands.names.filter { $0 != "help" })
    }

    @Test func theRecordOptionsAreEachInOneTopic() throws {
        let spec = try #require(CommandCatalog.spec(for: "record"))
        let grouped = spec.groups.flatMap(\.options).map(\.name)
        #expect(grouped == spec.options.map(\.name))
        #expect(Set(grouped).count == grouped.count)
        #expect(spec.groups.map(\.topic) == ["camera", "output", "unattended", "encoding", "sound", "picture", "stills", "ocr", "live", "multicam"])
        // The options several subcommands share are the same declarations.
        for name in ["still", "preview", "doctor"] {
            let other = try #require(CommandCatalog.spec(for: name))
            #expect(other.option(named: "--device") == spec.option(named: "--device"), "\(name)'s --device")
        }
    }

    @Test func theExitCodeTablesListEveryStatusInOneColumn() {
        let lines = ExitCodeTable.all.split(separator: "\n")
        #expect(lines.first == "Exit codes:")
        #expect(lines.count == ExitStatus.allCases.count + 1)
        for (line, status) in zip(lines.dropFirst(), ExitStatus.allCases) {
            #expect(line.hasPrefix("  \(status.rawValue) "), "\(line)")
            #expect(line.hasSuffix(status.meaning), "\(line)")
            #expect(line.dropFirst(2).prefix(5).allSatisfy { $0.isNumber || $0 == " " } && line.dropFirst(7).first != " ", "the meanings start in one column: '\(line)'")
        }
        let trim = ExitCodeTable.of([(.success, "cut"), (.usage, "usage error")])
        #expect(trim == "Exit codes:\n  0   cut\n  64  usage error")
    }

    @Test func theParsingSpecsAcceptAnyNumberOfTheirLastArgument() throws {
        let spec = try #require(CommandCatalog.spec(for: "ls")).acceptingAnyNumber(of: "PATH")
        let paths = (1...300).map { "cam-\($0).mp4" }
        let parsed = try spec.parse(paths + ["--json"])
        #expect(parsed.positionals == paths)
        #expect(parsed.flag("--json"))
    }
}

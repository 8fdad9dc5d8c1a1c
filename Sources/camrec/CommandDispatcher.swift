import ArgumentParsing
import CamrecCLI
import CamrecKit

/// Chooses the subcommand: `record` unless the first argument names another one, so
/// `camrec --max-duration 600 out.mp4` records exactly as written.
enum CommandDispatcher {
    static let version = CamrecVersion.number

    /// The subcommands (``CommandCatalog/subcommands``).
    static let subcommands = CommandCatalog.subcommands

    /// `camrec --version`: camrec's version and the source revision it was built from, then
    /// the GStreamer it runs with.
    static var versionText: String {
        "camrec \(version) (revision \(sourceRevision))\nGStreamer \(GStreamerVersion.running)"
    }

    static func run(_ arguments: [String]) -> ExitStatus {
        if arguments == ["--version"] || arguments == ["-V"] {
            print(versionText)
            return .success
        }
        // Recording needs an OUTPUT with an extension, so a bare word near a subcommand's
        // name can only be a typo: say so rather than "cannot tell the format of 'recrod'".
        if let meant = subcommands.likelyTypo(in: arguments) {
            return unknownSubcommand(arguments[0], meant: meant)
        }
        let (name, rest) = subcommands.select(arguments)
        // `camrec --version` among recording options is still the version, in full.
        if name == "record", rest.prefix(while: { $0 != "--" }).contains("--version"),
           !rest.contains("--help"), !rest.contains("-h") {
            print(versionText)
            return .success
        }
        return run(name, rest)
    }

    private static func run(_ name: String, _ arguments: [String]) -> ExitStatus {
        guard let command = command(named: name) else { return help(arguments) }
        return command.main(arguments)
    }

    /// The subcommand called `name` (record for any other word); nil for `help`.
    static func command(named name: String) -> (any Subcommand.Type)? {
        switch name {
        case "devices": DevicesCommand.self
        case "ctl": CtlCommand.self
        case "still": StillCommand.self
        case "preview": PreviewCommand.self
        case "trim": TrimCommand.self
        case "recover": RecoverCommand.self
        case "ls": LsCommand.self
        case "doctor": DoctorCommand.self
        case "encoders": EncodersCommand.self
        case "sheet": SheetCommand.self
        case "export": ExportCommand.self
        case "text": TextCommand.self
        case "react": ReactCommand.self
        case "help": nil
        default: RecordCommand.self
        }
    }

    /// `camrec help` (camrec's help), `camrec help SUBCOMMAND|TOPIC`, `camrec help
    /// SUBCOMMAND TOPIC`, and what scripts/package and the tests ask for (`--man`,
    /// `--completion SHELL`, `--markdown`, `--check-args ARGS…`).
    private static func help(_ arguments: [String]) -> ExitStatus {
        switch HelpTopics.request(arguments) {
        case .subcommand(let name, let topic):
            return run(name, ["--help"] + (topic.map { [$0] } ?? []))
        case .generated(let generated):
            return generated.print()
        case .check(let arguments):
            return check(arguments)
        case .invalid(let message):
            return usageError(message)
        }
    }

    /// `camrec help --check-args ARGS…`: whether `camrec ARGS…` would get past parsing and
    /// validation (exit 0) or stop with a usage error (64, the message on stderr), with the
    /// parser and checks the real command uses; nothing is run.
    static func check(_ arguments: [String]) -> ExitStatus {
        if arguments == ["--version"] || arguments == ["-V"] { return .success }
        if let meant = subcommands.likelyTypo(in: arguments) {
            return unknownSubcommand(arguments[0], meant: meant)
        }
        let (name, rest) = subcommands.select(arguments)
        if let command = command(named: name) { return command.check(rest) }
        switch HelpTopics.request(rest) {
        case .subcommand(let name, let topic):
            return command(named: name)?.check(["--help"] + (topic.map { [$0] } ?? [])) ?? .success
        case .generated(let generated):
            if case .invalid(let message) = generated { return usageError(message) }
            return .success
        case .check(let arguments):
            return check(arguments)
        case .invalid(let message):
            return usageError(message)
        }
    }

    private static func unknownSubcommand(_ word: String, meant: String?) -> ExitStatus {
        let names = subcommands.names.filter { $0 != "help" }
        let hint = meant.map { ": did you mean '\($0)'?" } ?? ": the subcommands are " + names.joined(separator: ", ")
        return usageError("unknown subcommand '\(word)'\(hint) (see camrec --help)")
    }

    private static func usageError(_ message: String) -> ExitStatus {
        Console(json: false, quiet: false).fail(CamrecError(.usage, message))
        return .usage
    }
}

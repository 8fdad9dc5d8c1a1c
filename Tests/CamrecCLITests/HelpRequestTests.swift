import CamrecCLI
import Testing

/// What `camrec help ARGUMENTS` asks for (``HelpTopics/request(_:)``), decided without running
/// camrec: the end-to-end tests (HelpTopicsTests) check the texts the binary prints.
@Suite struct HelpRequestTests {
    /// A request as a comparable string.
    func described(_ arguments: [String]) -> String {
        switch HelpTopics.request(arguments) {
        case .subcommand(let name, let topic): "subcommand \(name)" + (topic.map { " topic \($0)" } ?? "")
        case .generated(.manPage): "man"
        case .generated(.markdown): "markdown"
        case .generated(.completion(let shell)): "completion \(shell)"
        case .generated(.invalid(let message)): "invalid generated: \(message)"
        case .check(let arguments): "check \(arguments.joined(separator: " "))"
        case .invalid(let message): "invalid: \(message)"
        }
    }

    @Test func eachFormOfHelpPicksItsText() {
        let table: [([String], String)] = [
            ([], "subcommand record"),
            (["--help"], "subcommand record"),
            (["-h"], "subcommand record"),
            (["trim"], "subcommand trim"),
            (["record"], "subcommand record"),
            (["encoding"], "subcommand record topic encoding"),
            (["record", "sound"], "subcommand record topic sound"),
            (["trim", "anything"], "subcommand trim topic anything"),
            (["--man"], "man"),
            (["--markdown"], "markdown"),
            (["--completion", "zsh"], "completion zsh"),
            (["--completion", "fish"], "invalid generated: camrec help --completion takes bash or zsh"),
            (["--check-args", "--device", "test", "out.mp4"], "check --device test out.mp4"),
            (["trm"], "invalid: unknown subcommand 'trm': did you mean 'trim'? (see camrec --help)"),
            (["trim", "a", "b"], "invalid: camrec help takes a subcommand or a topic, e.g. camrec help trim or camrec help encoding"),
        ]
        for (arguments, expected) in table {
            #expect(described(arguments) == expected, "camrec help \(arguments.joined(separator: " "))")
        }
    }

    @Test func anUnknownWordNamesTheSubcommandsAndTopics() {
        let said = described(["zebra"])
        #expect(said.hasPrefix("invalid: unknown subcommand or help topic 'zebra': the subcommands are record, devices, still"))
        #expect(said.contains("the topics are"))
        #expect(said.contains("camera") && said.contains("multicam"))
        #expect(!said.contains("help,"), "help is not listed as a subcommand: \(said)")
    }
}

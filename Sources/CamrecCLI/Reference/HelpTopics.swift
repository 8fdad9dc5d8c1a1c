import ArgumentParsing
import CamrecKit

/// `--help TOPIC`, `camrec help TOPIC` and `camrec help SUBCOMMAND [TOPIC]`: which help a
/// request asks for, decided once for printing it and for `camrec help --check-args`.
public enum HelpTopics {
    /// What `camrec help ARGUMENTS` asks for.
    public enum Request {
        /// A subcommand's help (`record` for camrec's), or one of its topics in full.
        case subcommand(String, topic: String?)
        /// The man page or a completion script (`--man`, `--completion SHELL`, `--markdown`).
        case generated(Generated)
        /// `--check-args ARGS…`: parse and validate ARGS as camrec would, running nothing.
        case check([String])
        /// A request that cannot be met, with its one-line message.
        case invalid(String)
    }

    /// The request `camrec help ARGUMENTS` makes.
    public static func request(_ arguments: [String]) -> Request {
        let subcommands = CommandCatalog.subcommands
        guard let first = arguments.first, arguments != ["--help"], arguments != ["-h"] else {
            return .subcommand("record", topic: nil)
        }
        if first == "--check-args" { return .check(Array(arguments.dropFirst())) }
        if let generated = Generated(arguments) { return .generated(generated) }
        let isSubcommand = first != "help" && subcommands.names.contains(first)
        if isSubcommand, arguments.count == 2 { return .subcommand(first, topic: arguments[1]) }
        guard arguments.count == 1 else {
            return .invalid("camrec help takes a subcommand or a topic, e.g. camrec help trim or camrec help encoding")
        }
        if isSubcommand { return .subcommand(first, topic: nil) }
        let spec = RecordCommand.spec
        if spec.group(topic: first) != nil { return .subcommand("record", topic: first) }
        let names = subcommands.names.filter { $0 != "help" }
        if let meant = subcommands.likelyTypo(in: [first]) {
            return .invalid("unknown subcommand '\(first)': did you mean '\(meant)'? (see camrec --help)")
        }
        if spec.likelyTopic(first) != nil { return .invalid(spec.unknownTopic(first).message) }
        return .invalid("unknown subcommand or help topic '\(first)': the subcommands are \(names.joined(separator: ", ")); "
                        + "the topics are \(spec.topicList) (see camrec --help)")
    }
}

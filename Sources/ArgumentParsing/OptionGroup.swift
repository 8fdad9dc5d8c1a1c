/// A heading under which a command's options are listed: a grouped command's short `--help`
/// shows every group's options in brief, and `help TOPIC` (or `--help TOPIC`) shows one
/// group in full. The man page, the shell completions and docs/cli.md use the same groups.
public struct OptionGroup: Sendable {
    /// The word that asks for this group, e.g. `"encoding"` in `camrec help encoding`.
    public let topic: String
    /// The heading, e.g. `"Encoding"`.
    public let title: String
    /// What the group is for, in one line: the first line of `help TOPIC`.
    public let abstract: String
    /// The group's options, in the order they are listed.
    public let options: [OptionSpec]
    /// Free text shown after the group's options in full (`help TOPIC`, the man page,
    /// docs/cli.md), as a command's discussion is.
    public let discussion: String

    /// Creates a group.
    public init(_ topic: String, title: String, abstract: String, options: [OptionSpec], discussion: String = "") {
        precondition(!topic.isEmpty && !topic.contains(" ") && !topic.hasPrefix("-"),
                     "a topic is one word that is not an option: '\(topic)'")
        self.topic = topic
        self.title = title
        self.abstract = abstract
        self.options = options
        self.discussion = discussion
    }
}

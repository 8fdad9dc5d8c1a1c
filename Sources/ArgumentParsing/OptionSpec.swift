/// Describes one option a command accepts: a flag (`--force`) or an option that
/// takes a value (`--device DEV`).
public struct OptionSpec: Sendable, Hashable {
    /// Every spelling of the option, e.g. `["--device", "-d"]`; the first one is its
    /// canonical name, used in help text and messages.
    public let names: [String]
    /// The placeholder shown for the value (`"DEV"`), or `nil` for a flag.
    public let valueName: String?
    /// One-line (or short paragraph) description: the full text, shown by a command's
    /// `--help` (or, in a grouped command, by `help TOPIC`), the man page and docs/cli.md.
    public let help: String
    /// A few words for a grouped command's short `--help`, one line of it; nil when
    /// ``help`` is short enough to be shown as it is (see ``brief``).
    public let summary: String?
    /// Whether the option may be given several times, each value kept
    /// (read them with ``ParsedArguments/values(_:)``).
    public let repeatable: Bool
    /// For a flag that may also be given a value, attached only (`--preview` or
    /// `--preview=auto`): the placeholder shown as `[=auto]`; nil for other options.
    public private(set) var attachedValueName: String?

    /// Creates an option.
    ///
    /// - Parameters:
    ///   - names: spellings such as `["--device", "-d"]`: long names start with `--`,
    ///     short names are `-` and one character.
    ///   - value: the value placeholder (`"DEV"`) when the option takes a value, `nil` for a flag.
    ///   - help: the description shown by `--help`.
    ///   - repeatable: whether every occurrence is kept rather than the last one winning.
    ///   - summary: the short form of `help` for a grouped command's short `--help`.
    public init(_ names: [String], value: String? = nil, help: String, repeatable: Bool = false, summary: String? = nil) {
        precondition(!names.isEmpty, "an option needs at least one name")
        for name in names {
            precondition(
                OptionSpec.isWellFormed(name),
                "option name '\(name)' must look like '--name' or '-n'"
            )
        }
        self.names = names
        self.valueName = value
        self.help = help
        self.summary = summary
        self.repeatable = repeatable
        self.attachedValueName = nil
    }

    /// Creates a flag that may also carry a value, attached with `=` only (`--preview`,
    /// `--preview=auto`): a value in the next argument would be ambiguous with a positional.
    /// Read it with ``ParsedArguments/flag(_:)`` (given at all) and
    /// ``ParsedArguments/attachedValue(_:)`` (its value, nil when bare).
    public init(_ names: [String], attachedValue: String, help: String, summary: String? = nil) {
        self.init(names, help: help, summary: summary)
        self.attachedValueName = attachedValue
    }

    /// The text of the option's line in a grouped command's short `--help`: ``summary``,
    /// else ``help``.
    public var brief: String { summary ?? help }

    /// The same option with `summary` as its short text (for specs declared elsewhere).
    public func summarized(_ summary: String) -> OptionSpec {
        var copy = OptionSpec(names, value: valueName, help: help, repeatable: repeatable, summary: summary)
        copy.attachedValueName = attachedValueName
        return copy
    }

    /// The canonical (first) name, e.g. `"--device"`.
    public var name: String { names[0] }

    /// Whether the option is followed by a value.
    public var takesValue: Bool { valueName != nil }

    /// `--name` with at least one character, or `-x` with exactly one non-dash character.
    static func isWellFormed(_ name: String) -> Bool {
        if name.hasPrefix("--") {
            return name.count > 2 && !name.contains("=")
        }
        return name.count == 2 && name.hasPrefix("-") && name != "--"
            && !(name.last?.isNumber ?? false)  // "-3" must stay a negative number
    }
}

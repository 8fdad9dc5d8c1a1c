/// Describes one command (or subcommand): its options, positional arguments and help.
///
/// Parsing rules, in the order they apply:
/// - `--help` or `-h` anywhere before `--` sets ``ParsedArguments/helpRequested`` and
///   nothing else is checked (unless the command declares its own `-h`).
/// - `--` ends the options: everything after it is positional.
/// - A lone `-` is positional (conventionally standard input or output).
/// - `-3`, `-2.5`, `-0:05`, `-.5` (a dash then a digit or a dot) are negative numbers,
///   not options: positionals, or values of the option before them (`--end -3`).
/// - Short flags may be bundled: `-qf` is `-q -f` (`-h` included). A bundle is only
///   flags: an option with a value is written on its own (`-q -d DEV`), and `-nvalue`
///   stays a value when `-n` takes one.
/// - `--name=value`, `--name value`, `-n value`, `-n=value` and `-nvalue` give a value.
///   A separate value is taken only if it does not itself look like an option, so
///   `--device --force` reports a missing value instead of swallowing `--force`;
///   a value that starts with `-` is written attached: `--output=-odd.mp4`.
/// - A flag given a value (`--force=yes`) is an error.
/// - A non-repeatable option given several times is not an error: the last value wins,
///   so a wrapper script's defaults can be overridden by appending options.
public struct CommandSpec: Sendable {
    /// The command as the user types it, e.g. `"camrec"` or `"camrec trim"`;
    /// messages point at `"<name> --help"`.
    public let name: String
    /// One sentence saying what the command does.
    public let abstract: String
    /// The usage line after `USAGE: `; when empty one is generated from the name,
    /// `[options]` and the positionals.
    public let usage: String
    /// The options, in the order `--help` lists them (a grouped command's: group by group).
    public let options: [OptionSpec]
    /// The groups its options are listed under; empty for a command whose options are
    /// one list. Each option is in exactly one group.
    public private(set) var groups: [OptionGroup]
    /// The positional arguments, required ones first.
    public let positionals: [PositionalSpec]
    /// Free text shown at the end of `--help` (examples, exit codes); lines longer than
    /// 80 columns are wrapped, shorter lines are kept as written.
    public let discussion: String

    /// Creates a command description.
    public init(
        name: String, abstract: String, usage: String, options: [OptionSpec],
        positionals: [PositionalSpec], discussion: String = ""
    ) {
        var seen: Set<String> = []
        for option in options {
            for optionName in option.names {
                precondition(seen.insert(optionName).inserted, "option '\(optionName)' is declared twice")
            }
        }
        if let firstOptional = positionals.firstIndex(where: \.optional) {
            precondition(
                positionals[firstOptional...].allSatisfy(\.optional),
                "optional positional arguments must come after the required ones"
            )
        }
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.options = options
        self.groups = []
        self.positionals = positionals
        self.discussion = discussion
    }

    /// Creates a command whose options are listed under headings: its short `--help` lists
    /// each group's options in brief (``OptionSpec/brief``), and `--help TOPIC` one group
    /// in full (``helpText(topic:)``).
    public init(
        name: String, abstract: String, usage: String, groups: [OptionGroup],
        positionals: [PositionalSpec], discussion: String = ""
    ) {
        var topics: Set<String> = []
        for group in groups {
            precondition(topics.insert(group.topic).inserted, "topic '\(group.topic)' is declared twice")
        }
        self.init(name: name, abstract: abstract, usage: usage, options: groups.flatMap(\.options),
                  positionals: positionals, discussion: discussion)
        self.groups = groups
    }

    /// The group `topic` names, if any.
    public func group(topic: String) -> OptionGroup? {
        groups.first { $0.topic == topic }
    }

    /// The topic a mistyped word probably means (`encodng` → `encoding`), if one is close.
    public func likelyTopic(_ word: String) -> String? {
        EditDistance.closest(to: word.lowercased(), among: groups.map(\.topic))
    }

    /// The usage line (without `USAGE: `): ``usage``, or one generated from the spec.
    public var usageLine: String {
        if !usage.isEmpty { return usage }
        var parts = [name]
        if !options.isEmpty { parts.append("[options]") }
        for positional in positionals {
            parts.append(positional.optional ? "[\(positional.name)]" : positional.name)
        }
        return parts.joined(separator: " ")
    }

    /// The option declared with `name` among its spellings, if any.
    public func option(named name: String) -> OptionSpec? {
        options.first { $0.names.contains(name) }
    }

    /// Whether `--help` / `-h` are handled by the parser rather than declared by the command.
    var handlesHelp: (long: Bool, short: Bool) {
        (option(named: "--help") == nil, option(named: "-h") == nil)
    }

    /// Parses the arguments that follow the command name.
    ///
    /// - Throws: ``UsageError`` for an unknown option (with a suggestion when one is
    ///   close), a missing value, a value given to a flag, or the wrong number of
    ///   positional arguments.
    public func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments(command: self)
        if let help = helpIndex(in: arguments) {
            result.helpRequested = true
            result.helpTopic = Self.topic(after: help, in: arguments)
            return result
        }
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !Self.looksLikeOption(argument) {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            switch try bundle(argument) {
            case .flags(let flags)?:
                for flag in flags { result.occurrences[flag.name, default: []].append("") }
                continue
            case .help?:
                result.helpRequested = true
                result.helpTopic = Self.topic(after: index - 1, in: arguments)
                return result
            case nil:
                break
            }
            let (spec, attached) = try resolve(argument)
            guard spec.takesValue else {
                if let attached {
                    guard let placeholder = spec.attachedValueName else {
                        throw UsageError(
                            "option '\(spec.name)' does not take a value; write '\(spec.name)' without '\(attached)'"
                        )
                    }
                    guard !attached.isEmpty else {
                        throw UsageError("option '\(spec.name)=' needs a value after '=': write '\(spec.name)' or '\(spec.name)=\(placeholder)'")
                    }
                }
                result.occurrences[spec.name, default: []].append(attached ?? "")
                continue
            }
            let value: String
            if let attached {
                guard !attached.isEmpty else { throw missingValue(spec, next: nil) }
                value = attached
            } else if index < arguments.count, !Self.looksLikeOption(arguments[index]) {
                value = arguments[index]
                index += 1
            } else {
                throw missingValue(spec, next: index < arguments.count ? arguments[index] : nil)
            }
            result.occurrences[spec.name, default: []].append(value)
        }
        try checkPositionalCount(result.positionals)
        return result
    }

    /// Whether the argument is an option (or `--`) rather than a positional or value.
    static func looksLikeOption(_ argument: String) -> Bool {
        guard argument.hasPrefix("-"), argument != "-" else { return false }
        return !isNegativeNumber(argument)
    }

    /// `-3`, `-2.5`, `-.5`, `-0:05`, `-1h`: a dash followed by a digit, or by a dot and a digit.
    static func isNegativeNumber(_ argument: String) -> Bool {
        let rest = argument.dropFirst()
        guard let first = rest.first else { return false }
        if first.isASCII && first.isNumber { return true }
        if first == ".", let second = rest.dropFirst().first { return second.isASCII && second.isNumber }
        return false
    }

    /// Where `--help` or `-h` is among the arguments (before `--`), if it is.
    private func helpIndex(in arguments: [String]) -> Int? {
        let handles = handlesHelp
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { return nil }
            if (handles.long && argument == "--help") || (handles.short && argument == "-h") { return index }
        }
        return nil
    }

    /// The word after the help option at `index` when it is not an option: the TOPIC of
    /// `--help TOPIC`.
    private static func topic(after index: Int, in arguments: [String]) -> String? {
        let next = index + 1
        guard next < arguments.count, !looksLikeOption(arguments[next]) else { return nil }
        return arguments[next]
    }

    /// What a bundle of short flags like `-qf` holds.
    private enum Bundle {
        case flags([OptionSpec])
        /// `-h` was among them.
        case help
    }

    /// The bundle `argument` is: nil unless it is `-` and two or more letters that are all
    /// declared short options (or `-h`), the first a flag (`-d0` is `-d` with the value 0).
    /// An option that takes a value cannot be bundled.
    private func bundle(_ argument: String) throws(UsageError) -> Bundle? {
        guard !argument.hasPrefix("--"), argument.count > 2 else { return nil }
        let letters = argument.dropFirst().map { "-" + String($0) }
        guard let first = letters.first, let firstSpec = option(named: first), !firstSpec.takesValue else { return nil }
        let handlesShortHelp = handlesHelp.short
        guard letters.allSatisfy({ option(named: $0) != nil || ($0 == "-h" && handlesShortHelp) }) else { return nil }
        var flags: [OptionSpec] = []
        for letter in letters {
            guard let spec = option(named: letter) else { return .help }
            if let valueName = spec.valueName {
                let others = letters.filter { $0 != letter }.map { $0.dropFirst() }.joined()
                throw UsageError("option '\(letter)' takes a value, so it cannot be bundled in '\(argument)'; write -\(others) \(letter) \(valueName)")
            }
            flags.append(spec)
        }
        return .flags(flags)
    }

    /// Finds the option an argument names and the value attached to it
    /// (`--name=value`, `-n=value`, `-nvalue`), if any.
    private func resolve(_ argument: String) throws(UsageError) -> (OptionSpec, String?) {
        if argument.hasPrefix("--") {
            let name: String
            let attached: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                attached = String(argument[argument.index(after: equals)...])
            } else {
                name = argument
                attached = nil
            }
            guard let spec = option(named: name) else {
                if name == "--help", let attached, handlesHelp.long {
                    throw UsageError("option '--help' does not take a value; write '--help' without '\(attached)'")
                }
                throw unknownOption(name)
            }
            return (spec, attached)
        }
        let short = String(argument.prefix(2))
        if let spec = option(named: short) {
            if argument.count == 2 { return (spec, nil) }
            let rest = argument.dropFirst(2)
            if rest.hasPrefix("=") { return (spec, String(rest.dropFirst())) }
            if spec.takesValue { return (spec, String(rest)) }
        }
        let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
        throw unknownOption(name)
    }

    private func unknownOption(_ name: String) -> UsageError {
        let handles = handlesHelp
        let allNames = options.flatMap(\.names) + (handles.long ? ["--help"] : []) + (handles.short ? ["-h"] : [])
        let suggestion: String?
        if let close = EditDistance.closest(to: name, among: allNames) {
            suggestion = close
        } else if name.hasPrefix("--") {
            // An abbreviation of exactly one long option: `--max` → `--max-duration`.
            let extensions = allNames.filter { $0.hasPrefix(name) }
            suggestion = extensions.count == 1 ? extensions.first : nil
        } else {
            suggestion = nil
        }
        let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
        return UsageError("unknown option '\(name)'\(hint) (see \(self.name) --help)")
    }

    private func missingValue(_ spec: OptionSpec, next: String?) -> UsageError {
        let placeholder = spec.valueName ?? "VALUE"
        var message = "option '\(spec.name)' needs a value (\(placeholder))"
        if let next, next != "--" {
            message += "; to pass a value starting with '-', write '\(spec.name)=\(next)'"
        }
        return UsageError(message)
    }

    private func checkPositionalCount(_ given: [String]) throws(UsageError) {
        let required = positionals.filter { !$0.optional }
        if given.count < required.count {
            let missing = required[given.count...].map(\.name)
            let list = missing.count == 1
                ? missing[0]
                : missing.dropLast().joined(separator: ", ") + " and " + (missing.last ?? "")
            throw UsageError("missing \(list) (usage: \(usageLine); see \(name) --help)")
        }
        if given.count > positionals.count {
            let extra = given[positionals.count]
            let expected = positionals.isEmpty
                ? "\(name) takes no arguments"
                : "\(name) takes " + positionals.map { $0.optional ? "[\($0.name)]" : $0.name }.joined(separator: " ")
            throw UsageError("unexpected argument '\(extra)': \(expected) (see \(name) --help)")
        }
    }
}

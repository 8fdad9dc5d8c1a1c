/// The result of ``CommandSpec/parse(_:)``: which options were given, with what
/// values, and the positional arguments in order.
///
/// Options are looked up by any of their names (`"--device"` or `"-d"`). Asking for a
/// name the command does not declare, or asking for the value of a flag, is a
/// programmer error and stops the program with a message naming the option.
public struct ParsedArguments: Sendable {
    let command: CommandSpec
    /// Values given for each option, keyed by canonical name, in command-line order.
    /// A flag that was given maps to an empty array per occurrence.
    var occurrences: [String: [String]]

    /// The positional arguments, in order (everything after `--` included).
    public var positionals: [String]

    /// Whether `--help` or `-h` was given; when it is, positional counts were not
    /// checked, so show ``CommandSpec/helpText`` and exit successfully.
    public internal(set) var helpRequested: Bool
    /// With ``helpRequested``: the word right after `--help` or `-h` when it is not an
    /// option, the TOPIC of `--help TOPIC` (see ``CommandSpec/groups``); nil otherwise.
    public internal(set) var helpTopic: String?

    init(command: CommandSpec) {
        self.command = command
        self.occurrences = [:]
        self.positionals = []
        self.helpRequested = false
        self.helpTopic = nil
    }

    /// Whether the flag `name` (e.g. `"--force"`) was given.
    public func flag(_ name: String) -> Bool {
        let spec = option(name)
        precondition(!spec.takesValue, "'\(name)' takes a value; read it with value(_:)")
        return occurrences[spec.name] != nil
    }

    /// The value attached to the flag `name` (`--preview=auto` gives "auto"); nil when it
    /// was not given or given bare (see ``OptionSpec/init(_:attachedValue:help:)``). The last
    /// occurrence wins.
    public func attachedValue(_ name: String) -> String? {
        let spec = option(name)
        precondition(spec.attachedValueName != nil, "'\(name)' takes no attached value; read it with flag(_:)")
        guard let last = occurrences[spec.name]?.last, !last.isEmpty else { return nil }
        return last
    }

    /// The value of option `name` (e.g. `"--device"`), or `nil` if it was not given.
    /// When a non-repeatable option is given several times the last value wins.
    public func value(_ name: String) -> String? {
        values(name).last
    }

    /// Every value given for option `name`, in command-line order.
    public func values(_ name: String) -> [String] {
        let spec = option(name)
        precondition(spec.takesValue, "'\(name)' is a flag; read it with flag(_:)")
        return occurrences[spec.name] ?? []
    }

    /// Whether option `name` (a flag or an option with a value) was given at all.
    public func isPresent(_ name: String) -> Bool {
        occurrences[option(name).name] != nil
    }

    /// The positional argument declared as `name` (e.g. `"OUTPUT"`), or `nil` if an
    /// optional positional was left out.
    public func positional(_ name: String) -> String? {
        guard let index = command.positionals.firstIndex(where: { $0.name == name }) else {
            preconditionFailure("the command does not declare a positional argument '\(name)'")
        }
        return index < positionals.count ? positionals[index] : nil
    }

    /// The value of option `name` turned into a typed value by `transform`, or `nil` if
    /// the option was not given. A failure becomes a ``UsageError`` that names the
    /// option and repeats the transform's message, e.g.
    /// `--max-duration: invalid duration '10q': use seconds (600), …`.
    public func value<T, E: Error>(
        _ name: String, _ transform: (String) throws(E) -> T
    ) throws(UsageError) -> T? {
        guard let text = value(name) else { return nil }
        do {
            return try transform(text)
        } catch {
            throw UsageError("\(option(name).name): \(error)")
        }
    }

    /// Every value of option `name`, each turned into a typed value by `transform`.
    public func values<T, E: Error>(
        _ name: String, _ transform: (String) throws(E) -> T
    ) throws(UsageError) -> [T] {
        var result: [T] = []
        for text in values(name) {
            do {
                result.append(try transform(text))
            } catch {
                throw UsageError("\(option(name).name): \(error)")
            }
        }
        return result
    }

    /// The declared option called `name`; an undeclared name is a programmer error.
    private func option(_ name: String) -> OptionSpec {
        guard let spec = command.option(named: name) else {
            preconditionFailure("the command '\(command.name)' does not declare the option '\(name)'")
        }
        return spec
    }
}

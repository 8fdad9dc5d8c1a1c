/// Describes one positional argument, e.g. `INPUT` or `OUTPUT`.
public struct PositionalSpec: Sendable, Hashable {
    /// The placeholder shown in usage and help, e.g. `"OUTPUT"`.
    public let name: String
    /// The description shown by `--help`.
    public let help: String
    /// Whether the argument may be left out; optional positionals must come last.
    public let optional: Bool

    /// Creates a positional argument.
    public init(_ name: String, help: String, optional: Bool = false) {
        self.name = name
        self.help = help
        self.optional = optional
    }
}

import ArgumentParsing

extension CommandSpec {
    /// This spec taking any number (up to 4,096) of its last positional argument, for parsing:
    /// the spec itself shows one, for help (`camrec ls PATH...`).
    public func acceptingAnyNumber(of name: String) -> CommandSpec {
        CommandSpec(
            name: self.name, abstract: abstract, usage: usage, options: options,
            positionals: positionals + Array(repeating: PositionalSpec(name, help: "", optional: true), count: 4095)
        )
    }
}

/// A program's subcommands as its generated documents describe them: the man page
/// (``ManPageWriter``), the shell completion scripts (``CompletionScript``) and the Markdown
/// reference (``MarkdownReference``) are all made from one catalog, whose specs are the
/// ones `--help` prints, so none of them can disagree with the help.
///
/// The catalog holds what is the program's own: its name, version, subcommands and how
/// their values complete. The writers hold the layout of each document.
public struct ProgramCatalog: Sendable {
    /// A subcommand and the spec its `--help` prints.
    public struct Entry: Sendable {
        /// The word that selects it, e.g. `"trim"`.
        public let name: String
        /// Its options, positionals and texts.
        public let spec: CommandSpec

        /// Creates an entry.
        public init(name: String, spec: CommandSpec) {
            self.name = name
            self.spec = spec
        }
    }

    /// The program's name as the user types it, e.g. `"camrec"`.
    public let program: String
    /// The version the man page names.
    public let version: String
    /// Every subcommand name in the order the documents list them, and the one run when
    /// the first argument names none (documented as `program [name]`).
    public let subcommands: Subcommands
    /// The subcommands with a spec, in the order the documents describe them.
    public let entries: [Entry]
    /// The subcommand that prints help (`help`), if there is one: it has no spec of its
    /// own and takes a subcommand's name or a topic of the default subcommand.
    public let help: String?
    /// How the value typed in a slot completes in the shell.
    public let completion: @Sendable (ValueSlot) -> ValueCompletion

    /// Creates a catalog.
    ///
    /// - Parameters:
    ///   - program: the program's name, e.g. `"camrec"`; the completion scripts name
    ///     their shell functions after it (`_camrec`), so it is a word of letters, digits
    ///     and `_`.
    ///   - version: the version the man page names.
    ///   - subcommands: every subcommand name (the help subcommand's included) and the default.
    ///   - entries: the subcommands with a spec, in the order the documents describe them.
    ///   - help: the name of the subcommand that prints help, nil if there is none.
    ///   - completion: how an option's value or a positional argument completes.
    public init(
        program: String, version: String, subcommands: Subcommands, entries: [Entry], help: String?,
        completion: @escaping @Sendable (ValueSlot) -> ValueCompletion
    ) {
        precondition(!program.isEmpty && program.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") },
                     "a program's name names shell functions: letters, digits and _ only, not '\(program)'")
        self.program = program
        self.version = version
        self.subcommands = subcommands
        self.entries = entries
        self.help = help
        self.completion = completion
    }

    /// The entry of the subcommand run when no subcommand is named, if it has a spec.
    public var defaultEntry: Entry? {
        entries.first { $0.name == subcommands.defaultName }
    }

    /// Subcommand names (other than ``help``) that have no entry: a subcommand the
    /// program runs but the documents would leave out. A program refuses to write its
    /// documents while this is not empty.
    public var undocumented: [String] {
        subcommands.names.filter { name in name != help && !entries.contains { $0.name == name } }
    }

    /// What the help subcommand takes: every other subcommand's name, then the topics of
    /// the default subcommand's option groups.
    public var helpArguments: [String] {
        subcommands.names.filter { $0 != help } + (defaultEntry?.spec.groups.map(\.topic) ?? [])
    }

    /// `camrec [record]` for the default subcommand, else the spec's name (`camrec trim`):
    /// the heading the documents give a subcommand.
    public func title(of entry: Entry) -> String {
        entry.name == subcommands.defaultName ? "\(program) [\(entry.name)]" : entry.spec.name
    }
}

/// Where a value is typed on a command line: after an option, or as a positional argument.
public enum ValueSlot: Sendable {
    /// The value of `option` (which takes one) of the subcommand named `subcommand`.
    case option(OptionSpec, subcommand: String)
    /// The positional argument `positional` of the subcommand named `subcommand`.
    case positional(PositionalSpec, subcommand: String)
}

/// What a shell offers when the user presses Tab in a ``ValueSlot``.
public enum ValueCompletion: Sendable, Hashable {
    /// Nothing: the value cannot be guessed (a time, a number).
    case none
    /// Any file name (and folders, to get to one).
    case files
    /// File names ending in `.EXT` for one of these extensions (given without the dot),
    /// and folders, to get to one.
    case filesWithExtensions([String])
    /// Folder names only.
    case folders
    /// One of these words (each without spaces or quotes).
    case words([String])
    /// What a shell function of the program's offers, e.g. the cameras a command lists.
    case function(ShellFunction)
}

/// A shell function that a completion script defines for ``ValueCompletion/function(_:)``,
/// once, before the program's completion function, whatever number of slots use it.
///
/// In bash the function prints the candidates, one a line (they are matched against the
/// word being completed); in zsh it adds them itself, with `compadd`. Both see the
/// shell's completion variables (`COMP_WORDS`; `words`).
public struct ShellFunction: Sendable, Hashable {
    /// The function's name, e.g. `_camrec_devices`.
    public let name: String
    /// A one-line comment written above it, without `#`.
    public let comment: String
    /// The bash body, lines without their indentation.
    public let bash: [String]
    /// The zsh body, lines without their indentation.
    public let zsh: [String]

    /// Creates a function.
    public init(name: String, comment: String, bash: [String], zsh: [String]) {
        self.name = name
        self.comment = comment
        self.bash = bash
        self.zsh = zsh
    }
}

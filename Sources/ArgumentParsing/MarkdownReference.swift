/// A program's command-line reference in Markdown, made from its ``ProgramCatalog``: a
/// list of contents, then every subcommand with its abstract, usage, arguments and every
/// option in full (a grouped command's under its groups' headings, with the command that
/// prints each group), and each discussion as `--help` wraps it. The program gives the
/// title, the introduction and any sections of its own, which go last.
public struct MarkdownReference: Sendable {
    /// A section the program writes itself: a `##` heading and its Markdown lines.
    public struct Section: Sendable {
        /// The heading, e.g. `"camrec help"`; the contents link to it.
        public let title: String
        /// The Markdown under the heading.
        public let lines: [String]

        /// Creates a section.
        public init(title: String, lines: [String]) {
            self.title = title
            self.lines = lines
        }
    }

    /// The program's subcommands.
    public let catalog: ProgramCatalog
    /// The page's `#` heading.
    public let title: String
    /// Markdown lines between the heading and the contents.
    public let introduction: [String]
    /// The program's own sections, after the subcommands'.
    public let sections: [Section]

    /// Creates a writer.
    ///
    /// - Parameters:
    ///   - catalog: the program's subcommands.
    ///   - title: the page's heading, e.g. `"camrec command-line reference"`.
    ///   - introduction: Markdown lines between the heading and the contents.
    ///   - sections: the program's own sections, listed in the contents after the subcommands.
    public init(catalog: ProgramCatalog, title: String, introduction: [String], sections: [Section] = []) {
        self.catalog = catalog
        self.title = title
        self.introduction = introduction
        self.sections = sections
    }

    /// The page's Markdown, ending with a newline.
    public var text: String {
        var page = ["# \(title)", ""] + introduction + [""]
        for entry in catalog.entries {
            let title = catalog.title(of: entry)
            page.append("- [\(title)](#\(Self.anchor(title))): \(Self.inline(entry.spec.abstract))")
            for group in entry.spec.groups {
                page.append("  - [\(group.title)](#\(Self.anchor(group.title))) (`\(entry.spec.helpCommand(topic: group.topic))`)")
            }
        }
        for section in sections {
            page.append("- [\(section.title)](#\(Self.anchor(section.title)))")
        }
        for entry in catalog.entries {
            page += self.section(entry)
        }
        for section in sections {
            page += ["", "## \(section.title)", ""] + section.lines
        }
        return page.joined(separator: "\n") + "\n"
    }

    /// One subcommand: heading, abstract, usage, arguments, options (by group), discussion.
    private func section(_ entry: ProgramCatalog.Entry) -> [String] {
        let spec = entry.spec
        var lines = ["", "## \(catalog.title(of: entry))", "", Self.inline(spec.abstract), "", "```text", spec.usageLine, "```"]
        if !spec.positionals.isEmpty {
            lines += ["", "Arguments:", ""]
            for positional in spec.positionals {
                lines.append("- `\(positional.name)`" + (positional.optional ? " (optional)" : "") + ": " + Self.inline(positional.help))
            }
        }
        if spec.groups.isEmpty {
            lines += ["", "Options:", ""] + spec.options.map(Self.item)
            if spec.option(named: "--help") == nil { lines.append("- `-h`, `--help`: Show this help.") }
        } else {
            for group in spec.groups {
                lines += ["", "### \(group.title)", "", Self.inline(group.abstract) + " (`\(spec.helpCommand(topic: group.topic))`)", ""]
                lines += group.options.map(Self.item)
                lines += Self.textBlock(group.discussionLines)
            }
            lines += ["", "### Help", "", "- `-h`, `--help [TOPIC]`: Show this help, or one topic's options in full."]
        }
        let discussion = spec.discussionLines
        if !discussion.isEmpty {
            lines += spec.groups.isEmpty ? [] : ["", "### More"]
            lines += Self.textBlock(discussion)
        }
        return lines
    }

    /// `- `-d`, `--device DEV`: help (repeatable)`.
    private static func item(_ option: OptionSpec) -> String {
        let short = option.names.filter { !$0.hasPrefix("--") }
        let long = option.names.filter { $0.hasPrefix("--") }
        var names = (short + long).map { "`\($0)`" }
        if let value = option.valueName, let last = names.popLast() {
            names.append(String(last.dropLast()) + " \(value)`")
        }
        if let value = option.attachedValueName, let last = names.popLast() {
            names.append(String(last.dropLast()) + "[=\(value)]`")
        }
        return "- " + names.joined(separator: ", ") + ": " + inline(CommandSpec.fullHelp(option))
    }

    /// Preformatted lines, as `--help` wraps them.
    private static func textBlock(_ lines: [String]) -> [String] {
        lines.isEmpty ? [] : ["", "```text"] + lines + ["```"]
    }

    /// Text for a Markdown paragraph: `*`, `_`, `<`, `>`, `[`, `]`, `|` and `\` escaped
    /// outside the `code` spans the help texts already mark.
    public static func inline(_ text: String) -> String {
        var out = ""
        var inCode = false
        for character in text {
            if character == "`" {
                inCode.toggle()
                out.append(character)
            } else if !inCode, "\\*_<>[]|".contains(character) {
                out += "\\" + String(character)
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// GitHub's anchor for a heading: lower case, spaces as dashes, punctuation dropped.
    public static func anchor(_ heading: String) -> String {
        String(heading.lowercased().compactMap { character -> Character? in
            if character == " " { return "-" }
            return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
        })
    }
}

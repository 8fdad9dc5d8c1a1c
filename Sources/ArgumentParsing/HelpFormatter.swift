/// Lays out `--help` text in 80 columns.
enum HelpFormatter {
    static let width = 80
    /// Names wider than this push their description onto the next line.
    static let maxNameColumn = 26

    /// The column descriptions start at, for rows whose names are `lefts`; shared by the
    /// arguments and options tables so they line up.
    static func descriptionColumn(for lefts: [String], maxNameColumn: Int = maxNameColumn) -> Int {
        2 + min(lefts.map(\.count).max() ?? 0, maxNameColumn) + 2
    }

    /// Two-column rows: `  -d, --device DEV  Camera to record from.`
    static func table(_ rows: [(left: String, right: String)], descriptionColumn: Int) -> [String] {
        var lines: [String] = []
        for row in rows {
            let left = "  " + row.left
            let wrapped = wrap(row.right, width: width - descriptionColumn)
            let indent = String(repeating: " ", count: descriptionColumn)
            if left.count + 2 > descriptionColumn || wrapped.isEmpty {
                lines.append(left)
                lines += wrapped.map { indent + $0 }
            } else {
                let padding = String(repeating: " ", count: descriptionColumn - left.count)
                lines.append(left + padding + wrapped[0])
                lines += wrapped.dropFirst().map { indent + $0 }
            }
        }
        return lines
    }

    /// Greedy word wrap; a word longer than `width` gets a line of its own.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        // No word alone on the last line ("… the movie goes on without\n  it"): the line
        // before gives it its last word (which fits: the last line holds one short word).
        if lines.count >= 2, !lines[lines.count - 1].contains(" "),
           let space = lines[lines.count - 2].lastIndex(of: " "),
           lines[lines.count - 2][..<space].contains(" ") {
            let moved = lines[lines.count - 2][lines[lines.count - 2].index(after: space)...]
            if moved.count + 1 + lines[lines.count - 1].count <= width {
                lines[lines.count - 1] = moved + " " + lines[lines.count - 1]
                lines[lines.count - 2] = String(lines[lines.count - 2][..<space])
            }
        }
        return lines
    }

    /// Keeps lines that fit as written (tables, examples) and wraps longer ones: prose
    /// continues at the same indentation, an indented table row (`  69   meaning…`, a
    /// first column then two or more spaces) under its second column.
    static func reflow(_ text: String) -> [String] {
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.count <= width {
                lines.append(String(line))
                continue
            }
            let indent = line.prefix { $0 == " " }.count
            let hanging = indent > 0 ? secondColumn(of: line) : nil
            let head = hanging ?? indent
            let available = max(width - head, 20)
            let first = String(line.prefix(head))
            let wrapped = wrap(String(line.dropFirst(head)), width: available)
            let continuation = String(repeating: " ", count: head)
            lines += wrapped.enumerated().map { ($0.offset == 0 ? first : continuation) + $0.element }
        }
        return lines
    }

    /// As ``reflow(_:)``, but a paragraph of prose (no line indented) with a line too long
    /// is wrapped as a whole, so that its hand-made line breaks do not leave short lines
    /// between wrapped ones.
    static func reflowParagraphs(_ text: String) -> [String] {
        var lines: [String] = []
        var paragraph: [Substring] = []
        func flush() {
            if paragraph.contains(where: { $0.count > width }), !paragraph.contains(where: { $0.hasPrefix(" ") }) {
                lines += wrap(paragraph.joined(separator: " "), width: width)
            } else if !paragraph.isEmpty {
                lines += reflow(paragraph.joined(separator: "\n"))
            }
            paragraph = []
        }
        for row in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if row.isEmpty {
                flush()
                lines.append("")
            } else {
                paragraph.append(row)
            }
        }
        flush()
        return lines
    }

    /// Where the text after the first run of two or more spaces past the indentation
    /// starts, if there is such a run (a table row's second column).
    private static func secondColumn(of line: Substring) -> Int? {
        let characters = Array(line)
        var index = characters.firstIndex { $0 != " " } ?? characters.count
        while index + 1 < characters.count {
            if characters[index] == " " && characters[index + 1] == " " {
                var end = index
                while end < characters.count && characters[end] == " " { end += 1 }
                return end < characters.count ? end : nil
            }
            index += 1
        }
        return nil
    }
}

extension CommandSpec {
    /// The `--help` text: the abstract (what the command does, first), the usage line, the
    /// arguments and options tables (aligned, wrapped to 80 columns), then the discussion.
    /// A grouped command lists its options under their groups' headings, one line each
    /// (``OptionSpec/brief``). Ends with a newline.
    public var helpText: String {
        var lines = headLines
        let argumentRows = positionals.map { (left: $0.name, right: $0.help) }
        let handles = handlesHelp
        let helpNames = [handles.short ? "-h" : nil, handles.long ? "--help" : nil].compactMap { $0 }.joined(separator: ", ")
        if groups.isEmpty {
            var rows = options.map { (left: Self.displayNames($0), right: Self.fullHelp($0)) }
            if !helpNames.isEmpty { rows.append((helpNames, "Show this help.")) }
            let column = HelpFormatter.descriptionColumn(for: (argumentRows + rows).map(\.left))
            lines += argumentLines(argumentRows, column: column)
            lines += ["", "OPTIONS:"]
            lines += HelpFormatter.table(rows, descriptionColumn: column)
        } else {
            let helpRow = helpNames.isEmpty ? [] : [(left: helpNames + " [TOPIC]", right: "show this help, or one topic's options in full")]
            let optionRows = groups.flatMap(\.options).map { (left: Self.displayNames($0), right: $0.brief) } + helpRow
            let column = HelpFormatter.descriptionColumn(for: (argumentRows + optionRows).map(\.left))
            lines += argumentLines(argumentRows, column: column)
            lines += ["", "OPTIONS: (in brief; \(helpCommand(topic: "TOPIC")) shows a topic's options in full)"]
            lines += HelpFormatter.table(helpRow, descriptionColumn: column)
            for group in groups {
                lines += ["", "\(group.title) (\(helpCommand(topic: group.topic))):"]
                lines += HelpFormatter.table(group.options.map { (left: Self.displayNames($0), right: $0.brief) }, descriptionColumn: column)
            }
        }
        lines += Self.discussionBlock(discussion)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The text of `--help TOPIC`: the group's abstract, the usage line, the group's options
    /// in full, then its discussion; nil for an unknown topic. Ends with a newline.
    public func helpText(topic: String) -> String? {
        guard let group = group(topic: topic) else { return nil }
        var lines = HelpFormatter.wrap(group.abstract, width: HelpFormatter.width)
        lines += [""] + HelpFormatter.reflow("USAGE: " + usageLine)
        let rows = group.options.map { (left: Self.displayNames($0), right: Self.fullHelp($0)) }
        lines += ["", "\(group.title.uppercased()) OPTIONS:"]
        lines += HelpFormatter.table(rows, descriptionColumn: HelpFormatter.descriptionColumn(for: rows.map(\.left)))
        lines += group.discussionLines.isEmpty ? [] : [""] + group.discussionLines
        let others = groups.map(\.topic).filter { $0 != topic }
        lines += ["", "Other topics: " + others.joined(separator: ", ") + " (\(helpCommand(topic: "TOPIC"))); \(name) --help lists them all in brief."]
            .flatMap { HelpFormatter.reflow($0) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// How the user asks for `topic`: `camrec help encoding`, `camrec trim --help encoding`.
    public func helpCommand(topic: String) -> String {
        name.contains(" ") ? "\(name) --help \(topic)" : "\(name) help \(topic)"
    }

    /// The discussion as `--help` prints it: wrapped to 80 columns where lines are longer.
    public var discussionLines: [String] {
        let text = discussion.trimmingTrailingNewlines()
        return text.isEmpty ? [] : HelpFormatter.reflow(text)
    }

    /// An option's full description as `--help` shows it.
    public static func fullHelp(_ option: OptionSpec) -> String {
        option.help + (option.repeatable ? " (repeatable)" : "")
    }

    /// The abstract then the usage line.
    private var headLines: [String] {
        var lines: [String] = []
        if !abstract.isEmpty {
            lines += HelpFormatter.wrap(abstract, width: HelpFormatter.width) + [""]
        }
        return lines + HelpFormatter.reflow("USAGE: " + usageLine)
    }

    private func argumentLines(_ rows: [(left: String, right: String)], column: Int) -> [String] {
        guard !rows.isEmpty else { return [] }
        return ["", "ARGUMENTS:"] + HelpFormatter.table(rows, descriptionColumn: column)
    }

    private static func discussionBlock(_ text: String) -> [String] {
        let text = text.trimmingTrailingNewlines()
        return text.isEmpty ? [] : [""] + HelpFormatter.reflow(text)
    }

    /// `-d, --device DEV`: short spellings first, then long ones, then the placeholder.
    static func displayNames(_ option: OptionSpec) -> String {
        let short = option.names.filter { !$0.hasPrefix("--") }
        let long = option.names.filter { $0.hasPrefix("--") }
        var text = (short + long).joined(separator: ", ")
        if let valueName = option.valueName { text += " " + valueName }
        if let attached = option.attachedValueName { text += "[=" + attached + "]" }
        return text
    }
}

extension OptionGroup {
    /// The group's discussion as `help TOPIC` prints it: a paragraph of prose with a line
    /// over 80 columns wrapped as a whole, other lines kept as written or wrapped alone.
    public var discussionLines: [String] {
        let text = discussion.trimmingTrailingNewlines()
        return text.isEmpty ? [] : HelpFormatter.reflowParagraphs(text)
    }
}

extension String {
    fileprivate func trimmingTrailingNewlines() -> String {
        var text = Substring(self)
        while text.last == "\n" { text = text.dropLast() }
        while text.first == "\n" { text = text.dropFirst() }
        return String(text)
    }
}

/// Lays out `--help` text in 80 columns.
enum HelpFormatter {
    static let width = 80
    /// Names wider than this push their description onto the next line.
    static let maxNameColumn = 26

    /// The column descriptions start at, for rows whose names are `lefts`; shared by the
    /// arguments and options tables so they line up.
    static func descriptionColumn(for lefts: [String]) -> Int {
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
    /// The full `--help` text: usage line, abstract, arguments and options tables
    /// (aligned, wrapped to 80 columns), then the discussion. Ends with a newline.
    public var helpText: String {
        var lines = HelpFormatter.reflow("USAGE: " + usageLine)
        if !abstract.isEmpty {
            lines.append("")
            lines += HelpFormatter.wrap(abstract, width: HelpFormatter.width)
        }
        let argumentRows = positionals.map { (left: $0.name, right: $0.help) }
        var rows = options.map { option in
            (left: Self.displayNames(option), right: option.help + (option.repeatable ? " (repeatable)" : ""))
        }
        let handles = handlesHelp
        if handles.long || handles.short {
            let names = [handles.short ? "-h" : nil, handles.long ? "--help" : nil].compactMap { $0 }
            rows.append((names.joined(separator: ", "), "Show this help."))
        }
        let column = HelpFormatter.descriptionColumn(for: (argumentRows + rows).map(\.left))
        if !argumentRows.isEmpty {
            lines += ["", "ARGUMENTS:"]
            lines += HelpFormatter.table(argumentRows, descriptionColumn: column)
        }
        lines += ["", "OPTIONS:"]
        lines += HelpFormatter.table(rows, descriptionColumn: column)
        let discussion = discussion.trimmingTrailingNewlines()
        if !discussion.isEmpty {
            lines.append("")
            lines += HelpFormatter.reflow(discussion)
        }
        return lines.joined(separator: "\n") + "\n"
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

extension String {
    fileprivate func trimmingTrailingNewlines() -> String {
        var text = Substring(self)
        while text.last == "\n" { text = text.dropLast() }
        while text.first == "\n" { text = text.dropFirst() }
        return String(text)
    }
}

import Foundation
import Testing

/// Issue 32 items 2 and 4: `camrec --help` groups the record options under topics and fits
/// on a couple of screens, `camrec help TOPIC` prints one topic in full, every subcommand's
/// help starts with what it does, docs/cli.md is what `camrec help --markdown` makes, and the
/// command lines of README.md and docs/ parse (`camrec help --check-args`).
@Suite struct HelpTopicsTests {
    /// The topics, from the headings of `camrec --help` (`Camera (camrec help camera):`).
    func topics() throws -> [String] {
        let help = try CamrecBinary.run(["--help"]).stdoutText
        return help.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix(" "), line.hasSuffix("):"), let open = line.range(of: " (camrec help ") else { return nil }
            let topic = line[open.upperBound...].dropLast(2)
            return topic.contains(" ") ? nil : String(topic)
        }
    }

    /// The option names (canonical: the first long name) of the rows of a help text, each as
    /// often as it is listed.
    func optionRows(_ text: some StringProtocol) -> [String] {
        text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  -") else { return nil }
            let names = line.dropFirst(2).components(separatedBy: "  ").first ?? ""
            return Self.firstLong(names)
        }
    }

    @Test func theShortHelpGroupsEveryOptionAndFitsInAbout120Lines() throws {
        let result = try CamrecBinary.run(["--help"])
        #expect(result.status == 0, "\(result.stderr)")
        // As `wc -l` counts them (the text ends with a newline).
        let lines = Array(result.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).dropLast())
        print("HelpTopicsTests: camrec --help prints \(lines.count) lines")
        // 130 until the Text group (issue 34: 5 options, 7 lines) came; 136 until --on-file
        // and its two options (issue 35), 139 until --on-event and its two, 142 until
        // --on-sound, 143 until --mask and --mask-image (issue 35 item 4), 145 until
        // --between-windows, 146 until --camera-buffers (issue 37), 147 until --loop (issue 36), 148 until camrec react, 149 until --clip-start (issue 37).
        #expect(lines.count <= 150, "camrec --help prints \(lines.count) lines")
        for line in lines { #expect(line.count <= 80, "too wide: '\(line)'") }
        // One line per option: a description is never wrapped (names too long for their
        // column put it on the next line, whole).
        for (index, line) in lines.enumerated() where line.hasPrefix("  -") && index + 2 < lines.count {
            let described = line.dropFirst(2).contains("  ")
            let continuation = { (row: Substring) in row.hasPrefix("   ") }
            #expect(!continuation(lines[index + 1]) || (!described && !continuation(lines[index + 2])),
                    "the description of '\(line)' is wrapped")
        }
        let topics = try topics()
        #expect(topics == ["camera", "output", "unattended", "encoding", "sound", "picture", "stills", "ocr", "live", "multicam"], "\(topics)")
    }

    @Test func everyRecordOptionIsInExactlyOneTopic() throws {
        var seen: [String: [String]] = [:]
        for topic in try topics() {
            let result = try CamrecBinary.run(["help", topic])
            #expect(result.status == 0, "\(result.stderr)")
            for option in optionRows(result.stdoutText) { seen[option, default: []].append(topic) }
        }
        for (option, topics) in seen where topics.count != 1 {
            Issue.record("\(option) is in \(topics.count) topics: \(topics)")
        }
        // Every option the record command accepts (as the bash completion offers them) is in one.
        let bash = try CamrecBinary.run(["help", "--completion", "bash"]).stdoutText
        let record = try #require(bash.components(separatedBy: "        record)\n").dropFirst().first)
        let offered = record.components(separatedBy: "if [[ $cur == -* ]]; then _camrec_reply -W '").dropFirst().first?.prefix { $0 != "'" } ?? ""
        let accepted = Set(offered.split(separator: " ").map(String.init).filter { $0.hasPrefix("--") && $0 != "--help" })
        #expect(accepted.count > 40, "\(offered)")
        #expect(accepted == Set(seen.keys), "not in a topic: \(accepted.subtracting(seen.keys).sorted()); not an option: \(Set(seen.keys).subtracting(accepted).sorted())")
    }

    /// `camrec help TOPIC`, `camrec --help TOPIC` and `camrec record --help TOPIC` print the
    /// same text: the topic's abstract first, its options with their help in full (as
    /// docs/cli.md has them, there unwrapped), and nothing wider than 80 columns.
    @Test func helpTopicPrintsTheTopicInFull() throws {
        let reference = try CamrecBinary.run(["help", "--markdown"]).stdoutText
        let short = try CamrecBinary.run(["--help"]).stdoutText
        for topic in try topics() {
            let help = try CamrecBinary.run(["help", topic])
            #expect(help.status == 0 && help.stderr.isEmpty, "\(help.stderr)")
            for spelling in [["--help", topic], ["record", "--help", topic], ["-h", topic], ["help", "record", topic]] {
                let other = try CamrecBinary.run(spelling)
                #expect(other.status == 0 && other.stdout == help.stdout, "camrec \(spelling.joined(separator: " ")) differs from camrec help \(topic)")
            }
            let text = help.stdoutText
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(!(lines.first ?? "").hasPrefix("USAGE") && !(lines.first ?? "").isEmpty, "\(text)")
            for line in lines { #expect(line.count <= 80, "camrec help \(topic): too wide: '\(line)'") }
            // The same options as under the topic's heading in the short help.
            let heading = try #require(short.range(of: "(camrec help \(topic)):\n"))
            let section = short[heading.upperBound...].prefix { _ in true }.components(separatedBy: "\n\n").first ?? ""
            #expect(optionRows(text) == optionRows(section), "camrec help \(topic) lists \(optionRows(text)), --help \(optionRows(section))")
            // Each option's description, unwrapped, is the full one docs/cli.md has.
            for (option, description) in Self.descriptions(lines) {
                let full = Self.referenceDescription(of: option, in: reference).map(Self.collapsed)
                #expect(full == Self.collapsed(description), "camrec help \(topic): \(option) is described as\n\(description)\nbut docs/cli.md has\n\(full ?? "nothing")")
            }
        }
    }

    @Test(arguments: [["help", "encodng"], ["--help", "encodng"], ["record", "--help", "encodng"]])
    func aMistypedTopicIsNamed(_ arguments: [String]) throws {
        let result = try CamrecBinary.run(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("camrec: unknown help topic 'encodng': did you mean 'encoding'? the topics are camera, output,"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test func anUnknownTopicListsTopicsAndSubcommands() throws {
        let result = try CamrecBinary.run(["help", "xyzzy"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("the subcommands are record, devices") && result.stderr.contains("the topics are camera"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        // A file name after --help is no topic: the help, as before.
        let file = try CamrecBinary.run(["--help", "out.mp4"])
        let plain = try CamrecBinary.run(["--help"])
        #expect(file.status == 0 && file.stdout == plain.stdout, "\(file.stderr)")
    }

    /// Every subcommand's `--help` starts with one line that says what it does: the abstract
    /// the man page, the completions and docs/cli.md give it.
    @Test func everySubcommandsHelpStartsWithWhatItDoes() throws {
        let reference = try CamrecBinary.run(["help", "--markdown"]).stdoutText
        // The contents: `- [camrec trim](#camrec-trim): Cut the ends of …`.
        let entries = reference.split(separator: "\n").filter { $0.hasPrefix("- [camrec ") && $0.contains("): ") }
        #expect(entries.count >= 9, "\(entries)")
        for entry in entries {
            let title = entry.dropFirst(3).prefix { $0 != "]" }
            let words = title.split(separator: " ").dropFirst().map(String.init).filter { !$0.hasPrefix("[") }
            let abstract = Self.unescaped(String(entry.split(separator: "): ", maxSplits: 1).last ?? ""))
            for arguments in [words + ["--help"], ["help"] + words] {
                let result = try CamrecBinary.run(arguments)
                #expect(result.status == 0, "\(result.stderr)")
                let first = result.stdoutText.prefix { $0 != "\n" }
                #expect(first.count <= 80 && first.hasSuffix(".") && first.first?.isUppercase == true && !first.hasPrefix("USAGE"),
                        "camrec \(arguments.joined(separator: " ")) starts with '\(first)'")
                #expect(abstract.hasPrefix(first), "camrec \(arguments.joined(separator: " ")): '\(first)' is not the abstract '\(abstract)'")
            }
        }
    }

    /// `camrec help <TAB>` offers the topics as well as the subcommands, in bash and zsh.
    @Test func theCompletionsOfferTheTopics() throws {
        let topics = try topics()
        let bash = try CamrecBinary.run(["help", "--completion", "bash"]).stdoutText
        let help = try #require(bash.components(separatedBy: "        help)\n").dropFirst().first?.prefix { $0 != "\n" })
        let zsh = try CamrecBinary.run(["help", "--completion", "zsh"]).stdoutText
        let zshHelp = try #require(zsh.components(separatedBy: "    help)\n").dropFirst().first?.prefix { $0 != ";" })
        for word in topics + ["trim", "devices"] {
            #expect(help.contains(" \(word) ") || help.contains(" \(word)'") || help.contains("'\(word) "), "bash: \(help)")
            #expect(zshHelp.contains(" \(word) ") || zshHelp.contains(" \(word))") || zshHelp.contains("(\(word) "), "zsh: \(zshHelp)")
        }
    }

    /// docs/cli.md is checked in; it must be what this camrec makes.
    @Test func theCheckedInReferenceIsCurrent() throws {
        let generated = try CamrecBinary.run(["help", "--markdown"])
        #expect(generated.status == 0, "\(generated.stderr)")
        let file = VirtualCameraEnvironment.packageRoot.appendingPathComponent("docs/cli.md")
        let checkedIn = try Data(contentsOf: file)
        let firstDifference = zip(generated.stdoutText.split(separator: "\n", omittingEmptySubsequences: false),
                                  String(decoding: checkedIn, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false))
            .enumerated().first { $0.element.0 != $0.element.1 }
        #expect(generated.stdout == checkedIn,
                "docs/cli.md is stale: run scripts/gen-docs (camrec help --markdown > docs/cli.md) and commit it; first difference at line \((firstDifference?.offset ?? -1) + 1): \(firstDifference.map { "made '\($0.element.0)', file '\($0.element.1)'" } ?? "one is longer")")
    }

    /// `camrec help --check-args` runs the real parser and validation and nothing else.
    @Test func checkArgsParsesAndValidatesWithoutRunning() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("never.mp4")
        let good = try CamrecBinary.run(["help", "--check-args", "--device", "/dev/video99", "--max-duration", "5s", "--segment", "1m", movie])
        #expect(good.status == 0 && good.stdout.isEmpty && good.stderr.isEmpty, "\(good.stderr)")
        #expect(!FileManager.default.fileExists(atPath: movie))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("")).isEmpty)
        for (arguments, says) in [
            (["--max-durration", "5", movie], "did you mean '--max-duration'?"),
            (["--codec", "h266", movie], "unknown codec 'h266'"),
            (["--keep", "3", movie], "--keep applies to segmented runs"),
            (["--max-duration", "5"], "missing OUTPUT"),
            (["trim", "--mode", "fast", "in.mp4"], "unknown mode 'fast'"),
            (["ctl", "/tmp/s", "frobnicate"], "unknown command 'frobnicate'"),
            (["recrod", movie], "did you mean 'record'?"),
            (["help", "encodng"], "did you mean 'encoding'?"),
        ] {
            let result = try CamrecBinary.run(["help", "--check-args"] + arguments)
            #expect(result.status == 64 && result.stdout.isEmpty, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(says), "\(arguments): \(result.stderr)")
        }
        for arguments in [["trim", "--start", "1", "in.mp4"], ["recover", "a.partial.mp4", "b.partial.mp4"], ["help", "stills"], ["--version"]] {
            let result = try CamrecBinary.run(["help", "--check-args"] + arguments)
            #expect(result.status == 0 && result.stdout.isEmpty, "\(arguments): \(result.stderr)")
        }
    }

    /// Every command line in a code block of README.md and docs/*.md parses: its options
    /// exist for its subcommand and take the values shown. Read as they are when the test
    /// runs. Skipped, because they are not command lines to run as written: lines in
    /// ```text, ```json and other non-shell blocks; usage synopses (an unquoted `[`, as in
    /// `camrec trim [--start T]`); lines with shell placeholders or expansions (`$VAR`,
    /// `$@`, `<FILE>`, `…`, `...`, backquotes). A line's command ends at an unquoted `#`,
    /// `&`, `;`, `|` or redirection.
    @Test func theCommandLinesOfTheDocsParse() throws {
        let root = VirtualCameraEnvironment.packageRoot
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        var checked = 0
        var failures: [String] = []
        for file in ["README.md"] + docs {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in Self.commandLines(text) {
                guard let words = Self.words(line) else { continue }
                checked += 1
                let result = try CamrecBinary.run(["help", "--check-args"] + words.dropFirst())
                if result.status != 0 {
                    failures.append("\(file):\(number): \(line)\n    \(result.stderr.trimmingCharacters(in: .newlines))")
                }
            }
        }
        #expect(checked > 0, "no camrec command line found in README.md or docs/")
        #expect(failures.isEmpty, "\(failures.count) command lines do not parse:\n\(failures.joined(separator: "\n"))")
    }

    /// The lines in shell code blocks that start with `camrec ` (or `$ camrec `), with their
    /// line numbers, the prompt removed.
    static func commandLines(_ markdown: String) -> [(Int, String)] {
        var found: [(Int, String)] = []
        var fence: String?
        for (index, raw) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.drop { $0 == " " }
            if line.hasPrefix("```") {
                fence = fence == nil ? String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces) : nil
                continue
            }
            guard let language = fence, ["", "sh", "shell", "bash", "console"].contains(language) else { continue }
            let command = line.hasPrefix("$ ") ? line.dropFirst(2) : line
            if command.hasPrefix("camrec ") { found.append((index + 1, String(command))) }
        }
        return found
    }

    /// The words of a shell command line up to its first unquoted `#`, `&`, `;`, `|`, `<`
    /// or `>`, quotes removed; nil for a line with placeholders or expansions, or a usage synopsis.
    static func words(_ line: String) -> [String]? {
        if line.contains("…") || line.contains("...") || line.contains("`") { return nil }
        var words: [String] = []
        var word: String?
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                word = (word ?? "") + String(character)
                escaped = false
            } else if let open = quote {
                if character == open {
                    quote = nil
                } else {
                    if open == "\"", character == "$" { return nil }
                    if open == "\"", character == "\\" { escaped = true; continue }
                    word = (word ?? "") + String(character)
                }
            } else if character == "'" || character == "\"" {
                quote = character
                word = word ?? ""
            } else if character == "\\" {
                escaped = true
            } else if character == " " || character == "\t" {
                if let done = word { words.append(done) }
                word = nil
            } else if "#".contains(character), word == nil {
                break
            } else if "&;|<>".contains(character) {
                if character == "<" || character == ">", word != nil, !(word ?? "").isEmpty { return nil }
                break
            } else if character == "$" || character == "[" {
                return nil
            } else {
                word = (word ?? "") + String(character)
            }
        }
        if let done = word { words.append(done) }
        return words.first == "camrec" ? words : nil
    }

    /// A topic's option rows and their descriptions, continuation lines (indented to the
    /// description column) joined with spaces.
    static func descriptions(_ lines: [String]) -> [(String, String)] {
        var result: [(String, String)] = []
        var column: Int?
        var open = false
        for line in lines {
            let indent = line.prefix { $0 == " " }.count
            if line.hasPrefix("  -") {
                let names = line.dropFirst(2).components(separatedBy: "  ").first ?? ""
                let text = line.dropFirst(2 + names.count).drop { $0 == " " }
                if !text.isEmpty { column = line.count - text.count }
                result.append((firstLong(names), String(text)))
                open = true
            } else if open, indent > 2, indent == column || column == nil {
                column = indent
                let last = result.removeLast()
                let text = line.drop { $0 == " " }
                result.append((last.0, last.1.isEmpty ? String(text) : last.1 + " " + text))
            } else {
                open = false
            }
        }
        return result
    }

    /// The first long name of `-d, --device DEV` or `--preview[=auto]`: `--device`, `--preview`.
    static func firstLong(_ names: String) -> String {
        let long = names.split(separator: " ").map { String($0).trimmingCharacters(in: [","]) }.first { $0.hasPrefix("--") } ?? names
        return String(long.prefix { $0 != "[" && $0 != "=" })
    }

    /// The full description docs/cli.md gives `option` (its item `- `-d`, `--device DEV`: …`),
    /// escapes removed.
    static func referenceDescription(of option: String, in reference: String) -> String? {
        for line in reference.split(separator: "\n") where line.hasPrefix("- `") {
            guard let separator = line.range(of: "`: ") else { continue }
            let names = line[..<separator.lowerBound].replacingOccurrences(of: "`", with: "")
            guard firstLong(names) == option else { continue }
            return unescaped(String(line[separator.upperBound...]))
        }
        return nil
    }

    /// Runs of spaces as one.
    static func collapsed(_ text: String) -> String {
        text.split(separator: " ").joined(separator: " ")
    }

    /// Markdown's backslash escapes removed.
    static func unescaped(_ text: String) -> String {
        var out = ""
        var escaped = false
        for character in text {
            if !escaped, character == "\\" { escaped = true; continue }
            escaped = false
            out.append(character)
        }
        return out
    }
}

import Foundation
import Testing

/// The documentation's shape (issue 32 items 1 and 3): README.md is a front door of at most
/// 15 KB, and every relative link in README.md and docs/*.md leads somewhere — to a file
/// that exists and, for a `#anchor`, to a heading of that Markdown file (GitHub's anchors).
@Suite struct ReadmeTests {
    static let root = VirtualCameraEnvironment.packageRoot

    @Test func readmeIsAtMost15000Bytes() throws {
        let size = try Data(contentsOf: Self.root.appendingPathComponent("README.md")).count
        #expect(size <= 15_000, "README.md is \(size) bytes: move the detail into a guide in docs/")
    }

    @Test func everyRelativeLinkLeadsToAFileAndHeadingThatExist() throws {
        var files = [Self.root.appendingPathComponent("README.md")]
        let docs = Self.root.appendingPathComponent("docs")
        for name in try FileManager.default.contentsOfDirectory(atPath: docs.path).sorted() where name.hasSuffix(".md") {
            files.append(docs.appendingPathComponent(name))
        }
        var broken: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let shown = file.path.replacingOccurrences(of: Self.root.path + "/", with: "")
            for link in MarkdownLinks.targets(in: text) {
                if let problem = Self.problem(with: link, from: file) { broken.append("\(shown): (\(link)) \(problem)") }
            }
        }
        #expect(broken.isEmpty, "broken links:\n\(broken.joined(separator: "\n"))")
    }

    /// MarkdownLinks on a known case of each kind.
    @Test func anchorsAreGitHubs() {
        #expect(MarkdownLinks.anchors(in: "# Set up (fresh Debian 12 machine)\n## `camrec doctor`: checks\n## Exit codes\n## Exit codes\n")
                == ["set-up-fresh-debian-12-machine", "camrec-doctor-checks", "exit-codes", "exit-codes-1"])
        #expect(MarkdownLinks.anchors(in: "```\n# not a heading\n```\n## A [link](x.md) and *stress*\n") == ["a-link-and-stress"])
        #expect(MarkdownLinks.targets(in: "see [a](docs/a.md#b), `[c](d.md)`, ![e](f.png \"t\")\n```\n[g](h.md)\n```\n[i]: j.md\n[k](https://x.org)")
                == ["docs/a.md#b", "f.png", "j.md", "https://x.org"])
    }

    /// Why a relative link from `file` does not work, nil when it does (or is not relative).
    static func problem(with link: String, from file: URL) -> String? {
        if link.contains("://") || link.hasPrefix("mailto:") { return nil }
        let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
        let anchor = parts.count > 1 ? String(parts[1]) : nil
        let target = path.isEmpty ? file
            : (path.hasPrefix("/") ? root.appendingPathComponent(String(path.dropFirst()))
               : file.deletingLastPathComponent().appendingPathComponent(path)).standardizedFileURL
        guard FileManager.default.fileExists(atPath: target.path) else { return "no such file" }
        guard let anchor, target.pathExtension == "md" else { return nil }
        guard let text = try? String(contentsOf: target, encoding: .utf8) else { return "unreadable" }
        return MarkdownLinks.anchors(in: text).contains(anchor) ? nil : "no heading with this anchor"
    }
}

/// The links and headings of a Markdown text, as GitHub reads them: code blocks and code
/// spans hold neither.
enum MarkdownLinks {
    /// The lines outside fenced code blocks.
    static func prose(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        var fence: Substring?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop(while: { $0 == " " })
            if let open = fence {
                if trimmed.hasPrefix(open) { fence = nil }
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fence = trimmed.prefix(3)
                continue
            }
            lines.append(line)
        }
        return lines
    }

    /// A line without its code spans.
    static func withoutCode(_ line: Substring) -> String {
        var out = ""
        var inCode = false
        for character in line {
            if character == "`" { inCode.toggle(); continue }
            if !inCode { out.append(character) }
        }
        return out
    }

    /// Every link target: inline links and images `[text](target "title")`, and reference
    /// definitions `[label]: target`.
    static func targets(in text: String) -> [String] {
        var found: [String] = []
        for line in prose(text) {
            let plain = withoutCode(line)
            if let definition = plain.firstMatch(of: /^\s{0,3}\[[^\]]+\]:\s+<?([^\s>]+)>?/) {
                found.append(String(definition.1))
                continue
            }
            for match in plain.matches(of: /\]\(<?([^\s)>]+)>?(?:\s+"[^"]*")?\)/) {
                found.append(String(match.1))
            }
        }
        return found
    }

    /// The anchors GitHub gives the headings: the heading's text without markup, lower-cased,
    /// punctuation dropped (letters, digits, `-`, `_` and spaces stay), spaces as `-`; a
    /// repeated anchor gets `-1`, `-2`, ….
    static func anchors(in text: String) -> [String] {
        var seen: [String: Int] = [:]
        var anchors: [String] = []
        for line in prose(text) {
            guard let heading = line.firstMatch(of: /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/) else { continue }
            var words = String(heading.1).replacing(/!?\[([^\]]*)\]\([^)]*\)/) { $0.1 }
            words = words.replacingOccurrences(of: "`", with: "")
            var slug = ""
            for character in words.lowercased() {
                if character == " " { slug.append("-") }
                else if character.isLetter || character.isNumber || character == "-" || character == "_" { slug.append(character) }
            }
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            anchors.append(count == 0 ? slug : "\(slug)-\(count)")
        }
        return anchors
    }
}

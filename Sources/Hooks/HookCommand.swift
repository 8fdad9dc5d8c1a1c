import CamrecCore

#if canImport(Glibc)
import Glibc
#endif

/// A command camrec runs for a finished file (`--on-file CMD`): its words, split as a shell
/// splits words (blanks separate them; '…' keeps everything; "…" keeps everything but `\"`
/// and `\\`; a backslash keeps the next character), and nothing else: no `$`, no backquote,
/// no `;`, `|`, `&`, `>` or glob means anything, and no shell runs unless the words start
/// with one (`sh -c '…'`). `{file}` in a word becomes the file's path, as one argument
/// whatever it holds, so no file name can run a command.
public struct HookCommand: Sendable, Equatable {
    /// The words as given, `{file}` unreplaced.
    public var words: [String]
    /// The option it came from (`--on-file`), for messages.
    public var option: String

    /// `text` split into words; a usage error for an empty command or an open quote.
    public static func parse(_ text: String, option: String) throws(CamrecError) -> HookCommand {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in text {
            if escaped {
                word.append(character)
                escaped = false
                continue
            }
            switch (quote, character) {
            case ("'", "'"), ("\"", "\""):
                quote = nil
            case ("'", _):
                word.append(character)
            case ("\"", "\\"), (nil, "\\"):
                escaped = true
                inWord = true
            case ("\"", _):
                word.append(character)
            case (nil, "'"), (nil, "\""):
                quote = character
                inWord = true
            case (nil, " "), (nil, "\t"), (nil, "\n"):
                if inWord { words.append(word) }
                word = ""
                inWord = false
            default:
                word.append(character)
                inWord = true
            }
        }
        if quote != nil || escaped {
            throw CamrecError(.usage, "\(option): the command \(text) has an unclosed quote or a trailing backslash: close it (the command is split into words as a shell would, and nothing else)")
        }
        if inWord { words.append(word) }
        guard !words.isEmpty else {
            throw CamrecError(.usage, "\(option) needs a command, e.g. \(option) 'rclone copy {file} remote:cam/'")
        }
        return HookCommand(words: words, option: option)
    }

    /// The arguments for `file`: `{file}` in each word replaced by its path.
    public func arguments(for file: String) -> [String] {
        words.map { $0.replacing("{file}", with: file) }
    }

    /// The program's path: the first word as given when it holds a slash, else the first
    /// executable of that name in `path` (PATH's folders).
    public func program(path: String?) -> String? {
        let name = words[0]
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        for folder in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (folder.isEmpty ? "." : String(folder)) + "/" + name
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Refuses (usage, before anything starts) a program that cannot be found or run.
    public func check(path: String?) throws(CamrecError) {
        guard program(path: path) != nil else {
            let name = words[0]
            throw CamrecError(.usage, name.contains("/")
                ? "\(option): \(name) is not an executable file: check the path, or chmod +x it"
                : "\(option): no program \(name) in PATH: install it, or give its path (e.g. \(option) '/usr/local/bin/\(name) …')")
        }
    }
}

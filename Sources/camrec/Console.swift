import CamrecKit
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where camrec talks: JSON lines on stdout for scripts (`--json`), human text on stderr,
/// and a progress line only when stderr is a terminal.
final class Console: Sendable {
    let json: Bool
    let quiet: Bool
    let isTerminal: Bool
    let useColor: Bool
    /// Its lock keeps each line whole, never interleaved with another thread's.
    private let lines = Mutex(Lines())

    private struct Lines {
        /// Whether a progress line is on the terminal: the next line rubs it out first.
        var progressShown = false
    }

    init(json: Bool, quiet: Bool) {
        self.json = json
        self.quiet = quiet
        isTerminal = isatty(STDERR_FILENO) == 1
        useColor = isTerminal && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
    }

    /// One line for people on stderr (suppressed by --quiet).
    func say(_ text: String) {
        guard !quiet else { return }
        writeErr(text + "\n")
    }

    /// An error line on stderr (always shown) and, with --json, an error object on stdout.
    func fail(_ error: CamrecError) {
        writeErr("camrec: \(error.message)\n", essential: true)
        if json {
            emit(ErrorLine(message: error.message, exitCode: error.status.rawValue), type: "error")
        }
    }

    /// Rewrites the progress line (terminals only).
    func progress(_ text: String) {
        guard isTerminal, !quiet else { return }
        lines.withLock { lines in
            let line = useColor ? "\u{1B}[31m●\u{1B}[0m " + text : "● " + text
            StandardStream.error.write("\r\u{1B}[2K" + line)
            lines.progressShown = true
        }
    }

    /// One JSON object on stdout, with `"type"` first.
    func emit<Value: Encodable>(_ value: Value, type: String) {
        guard json else { return }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        guard let body = try? encoder.encode(value), body.first == UInt8(ascii: "{") else { return }
        // "type" goes first so that a person reading the lines sees what each one is.
        var line = Array("{\"type\":\"\(type)\"".utf8)
        // The last lines say how many lines before them a reader that fell behind missed.
        let essential = type == "result" || type == "error"
        if essential, StandardStream.output.isQueued {
            line.append(contentsOf: Array(",\"dropped_lines\":\(StandardStream.output.droppedLines)".utf8))
        }
        if body.count > 2 { line.append(UInt8(ascii: ",")) }
        line.append(contentsOf: body.dropFirst())
        line.append(UInt8(ascii: "\n"))
        lines.withLock { _ in
            StandardStream.output.write(&line, essential: essential)
        }
    }

    private func writeErr(_ text: String, essential: Bool = false) {
        lines.withLock { lines in
            StandardStream.error.write(lines.progressShown ? "\r\u{1B}[2K" + text : text, essential: essential)
            lines.progressShown = false
        }
    }
}

/// The JSON `error` line.
struct ErrorLine: Encodable {
    let message: String
    let exitCode: Int32
}

/// A human size: "812 KB", "3.4 MB".
func humanBytes(_ bytes: Int64) -> String {
    let value = Double(bytes)
    if value >= 1e9 { return String(cFormat: "%.2f GB", value / 1e9) }
    if value >= 1e6 { return String(cFormat: "%.1f MB", value / 1e6) }
    return String(cFormat: "%.0f KB", value / 1e3)
}

/// "00:01:05" for 65 seconds.
func clockTime(_ seconds: Double) -> String {
    let total = Int(seconds.rounded(.down))
    return String(cFormat: "%02ld:%02ld:%02ld", total / 3600, total / 60 % 60, total % 60)
}

/// A limit as a clock time, with milliseconds when it is not whole seconds ("00:00:00.500").
func limitTime(_ seconds: Double) -> String {
    let milliseconds = Int((seconds * 1000).rounded()) % 1000
    return milliseconds == 0 ? clockTime(seconds) : clockTime(seconds) + String(cFormat: ".%03ld", milliseconds)
}

/// "1 frame", "2 frames".
func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}

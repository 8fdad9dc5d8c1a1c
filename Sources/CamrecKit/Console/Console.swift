import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where camrec talks: JSON lines on stdout for scripts (`--json`), human text on stderr,
/// and a progress line only when stderr is a terminal.
public final class Console: Sendable {
    /// `--json`: JSON lines on stdout.
    public let json: Bool
    /// `--quiet`: nothing on stderr but errors.
    public let quiet: Bool
    /// Whether stderr is a terminal (the progress line is shown only there).
    public let isTerminal: Bool
    /// Whether the progress line is coloured (a terminal, and `NO_COLOR` unset or empty).
    public let useColor: Bool
    /// Where JSON lines go (stdout) and where lines for people go (stderr).
    private let jsonStream: StandardStream
    private let textStream: StandardStream
    /// Its lock keeps each line whole, never interleaved with another thread's.
    private let lines = Mutex(Lines())

    private struct Lines {
        /// Whether a progress line is on the terminal: the next line rubs it out first.
        var progressShown = false
    }

    /// Talks as `--json` and `--quiet` ask, to camrec's own stdout and stderr.
    public convenience init(json: Bool, quiet: Bool) {
        let isTerminal = isatty(STDERR_FILENO) == 1
        self.init(json: json, quiet: quiet, isTerminal: isTerminal,
                  useColor: isTerminal && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true)
    }

    /// Talks to `output` and `error` (tests: pipes) as if stderr were a terminal or not.
    init(json: Bool, quiet: Bool, isTerminal: Bool, useColor: Bool,
         output: StandardStream = .output, error: StandardStream = .error) {
        self.json = json
        self.quiet = quiet
        self.isTerminal = isTerminal
        self.useColor = useColor
        jsonStream = output
        textStream = error
    }

    /// One line for people on stderr (suppressed by --quiet).
    public func say(_ text: String) {
        guard !quiet else { return }
        writeErr(text + "\n")
    }

    /// An error line on stderr (always shown) and, with --json, an error object on stdout.
    public func fail(_ error: CamrecError) {
        writeErr("camrec: \(error.message)\n", essential: true)
        if json {
            emit(ErrorLine(message: error.message, exitCode: error.status.rawValue), type: "error")
        }
    }

    /// Rewrites the progress line (terminals only).
    public func progress(_ text: String) {
        guard isTerminal, !quiet else { return }
        lines.withLock { lines in
            let line = useColor ? "\u{1B}[31m●\u{1B}[0m " + text : "● " + text
            textStream.write("\r\u{1B}[2K" + line)
            lines.progressShown = true
        }
    }

    /// One JSON object on stdout, with `"type"` first.
    public func emit<Value: Encodable>(_ value: Value, type: String) {
        guard json else { return }
        // The last lines say how many lines before them a reader that fell behind missed.
        let essential = type == "result" || type == "error"
        let dropped = essential && jsonStream.isQueued ? jsonStream.droppedLines : nil
        guard var line = Self.jsonBytes(value, type: type, droppedLines: dropped) else { return }
        line.append(UInt8(ascii: "\n"))
        lines.withLock { _ in
            jsonStream.write(&line, essential: essential)
        }
    }

    /// `value`'s JSON line as `--json` prints it (without its newline): what an `--on-file`
    /// command reads on its standard input.
    public static func jsonLine<Value: Encodable>(_ value: Value, type: String) -> String? {
        jsonBytes(value, type: type, droppedLines: nil).map { String(decoding: $0, as: UTF8.self) }
    }

    /// `value` as a JSON object with `"type"` first (and `dropped_lines` after it when given).
    private static func jsonBytes<Value: Encodable>(_ value: Value, type: String, droppedLines: Int?) -> [UInt8]? {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        guard let body = try? encoder.encode(value), body.first == UInt8(ascii: "{") else { return nil }
        // "type" goes first so that a person reading the lines sees what each one is.
        var line = Array("{\"type\":\"\(type)\"".utf8)
        if let droppedLines { line.append(contentsOf: Array(",\"dropped_lines\":\(droppedLines)".utf8)) }
        if body.count > 2 { line.append(UInt8(ascii: ",")) }
        line.append(contentsOf: body.dropFirst())
        return line
    }

    private func writeErr(_ text: String, essential: Bool = false) {
        lines.withLock { lines in
            textStream.write(lines.progressShown ? "\r\u{1B}[2K" + text : text, essential: essential)
            lines.progressShown = false
        }
    }
}

/// The JSON `error` line.
struct ErrorLine: Encodable {
    let message: String
    /// The exit status camrec ends with.
    let exitCode: Int32
}

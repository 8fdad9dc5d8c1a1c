import FoundationEssentials

/// Shows what `camrec recover` did with each FILE: a JSON result line for scripts, a line
/// for people.
public struct RecoverPrinter: Sendable {
    /// Where the lines go.
    public let console: Console
    /// Where a refused FILE's line goes (always shown, as an error is).
    let errors: StandardStream

    /// Shows recoveries on `console`.
    public init(console: Console) {
        self.init(console: console, errors: .error)
    }

    /// Shows recoveries on `console`, a refused FILE's line on `errors` (tests: a pipe).
    init(console: Console, errors: StandardStream) {
        self.console = console
        self.errors = errors
    }

    /// One FILE's result.
    public func show(_ result: RecoverResult) {
        console.emit(result, type: "result")
        switch result.status {
        case .recovered:
            var line = "recovered \(result.input) → \(result.output ?? "?"): \(Self.summary(result))"
            if let lost = result.lostTailBytes, lost > 0 { line += "; \(lost) bytes of torn tail left out" }
            if let note = result.message { line += "; " + note }
            console.say(line)
        case .complete:
            console.say("\(result.input) is already a finished movie (\(Self.summary(result))): left as it is")
        case .removed:
            console.say(result.message ?? "removed \(result.input)")
        case .refused:
            // An error line that is always shown, without Console.fail's JSON error line:
            // with --json the file's result line above says it.
            errors.write("camrec: \(result.message ?? "cannot recover \(result.input)")\n")
        }
    }

    /// "205 frames, 6.834 s, audio mp4a, 180 KB"
    static func summary(_ result: RecoverResult) -> String {
        var parts = [counted(result.frames ?? 0, "frame"), String(cFormat: "%.3f s", result.duration ?? 0)]
        let audio = (result.tracks ?? []).filter { $0.kind == "audio" }
        if !audio.isEmpty { parts.append("audio " + audio.map(\.codec).joined(separator: ", ")) }
        parts.append(humanBytes(result.bytes ?? 0))
        return parts.joined(separator: ", ")
    }
}

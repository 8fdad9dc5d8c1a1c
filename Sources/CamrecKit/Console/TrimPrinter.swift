import FoundationEssentials
import Synchronization

/// Shows a trim (`camrec trim`): its progress once it has run for a second, its warnings and
/// its result, as JSON lines for scripts and lines for people.
public struct TrimPrinter: Sendable {
    /// Where the lines go.
    public let console: Console

    /// Shows a trim on `console`.
    public init(console: Console) {
        self.console = console
    }

    /// Shows the progress of trimming `input` (or of another `action` on it: "exporting")
    /// once it has run for a second: a rewritten line on a terminal, `{"type":"progress",…}`
    /// lines with --json; at most two a second.
    public func progress(of input: String, action: String = "trimming") -> @Sendable (TrimProgress) -> Void {
        let started = ContinuousClock.now
        let gate = Mutex(TrimProgressGate())
        let name = PathName.last(input)
        let console = console
        return { progress in
            guard gate.withLock({ $0.admit(progress, after: .now - started) }) else { return }
            let what = progress.phase == .indexing ? "reading \(name)" : "\(action) \(name)"
            let percent = Int((progress.fraction * 100).rounded(.down))
            console.progress(
                "\(what): \(percent)% (\(String(cFormat: "%.1f", progress.doneSeconds)) of"
                    + " \(String(cFormat: "%.1f", progress.totalSeconds)) s)"
            )
            console.emit(progress, type: "progress")
        }
    }

    /// The trim's note, warnings and result.
    public func show(_ result: TrimResult) {
        if let reason = result.fallbackReason { console.say("camrec: note: \(reason)") }
        for warning in result.warnings {
            console.emit(WarningLine(message: warning), type: "warning")
            console.say("camrec: warning: \(warning)")
        }
        let times = "\(Self.seconds(result.firstFrameTime)) to \(Self.seconds(result.lastFrameTime))"
        console.say(
            "trimmed (\(result.mode.rawValue)): \(result.output), frames \(times) of the input"
                + " (\(Self.seconds(result.duration)) long, \(counted(result.frames, "frame")): \(result.framesCopied) copied,"
                + " \(result.framesReencoded) re-encoded), \(humanBytes(result.bytes))"
        )
        console.emit(result, type: "result")
    }

    /// "2.500 s"
    static func seconds(_ value: Double) -> String {
        let milliseconds = Int((value * 1000).rounded())
        let fraction = String(abs(milliseconds) % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) s"
    }
}

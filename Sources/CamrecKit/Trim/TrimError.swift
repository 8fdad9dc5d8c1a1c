/// Why a trim failed, as one line a person can act on, with the exit status a script sees.
public struct TrimError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure, which decides the exit status.
    public enum Kind: Sendable, Equatable {
        /// The command line asks for something impossible (e.g. start after end).
        case usage
        /// The input cannot be trimmed: unreadable, not a movie, no video, times outside it.
        case invalidInput
        /// The output cannot be made: it exists (without --force), or its folder is not writable.
        case cannotCreateOutput
        /// A GStreamer element camrec needs is missing.
        case unavailable
        /// The disk filled up while writing (the input is untouched, nothing is left behind).
        case diskFull
        /// A stage (demuxer, re-encoder, muxer) made no progress for the stall timeout.
        case stalled
        /// Stopped on request (a signal) before the output was in place; nothing was written.
        case interrupted
        /// Anything else (a pipeline failed while writing).
        case failed
    }

    /// The kind of failure.
    public var kind: Kind
    /// The one-line message.
    public var message: String

    /// Creates an error of a kind with a one-line message.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The exit status for this failure.
    public var exitStatus: ExitStatus {
        switch kind {
        case .usage: .usage
        case .invalidInput: .invalidInput
        case .cannotCreateOutput: .cannotCreateOutput
        case .unavailable: .unavailable
        case .diskFull: .diskFull
        case .stalled, .failed: .failure
        case .interrupted: .aborted
        }
    }

    /// The message itself.
    public var description: String { message }

    static func invalidInput(_ message: String) -> TrimError { TrimError(.invalidInput, message) }
    static func failed(_ message: String) -> TrimError { TrimError(.failed, message) }

    static func stalled(_ stage: String, after limit: Duration) -> TrimError {
        let (seconds, attoseconds) = limit.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        let text = milliseconds % 1000 == 0 ? "\(seconds) s" : "\(milliseconds) ms"
        return TrimError(.stalled, "\(stage) made no progress for \(text) and was given up on (stalled)")
    }

    static func interrupted(by reason: String) -> TrimError {
        TrimError(.interrupted, "trim interrupted by \(reason): nothing was written and the input is untouched")
    }
}

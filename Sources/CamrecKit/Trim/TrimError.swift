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
        case .failed: .failure
        }
    }

    /// The message itself.
    public var description: String { message }

    static func invalidInput(_ message: String) -> TrimError { TrimError(.invalidInput, message) }
    static func failed(_ message: String) -> TrimError { TrimError(.failed, message) }
}

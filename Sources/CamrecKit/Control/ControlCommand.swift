import FoundationEssentials

/// A command sent to a recording's control socket: one line of text.
public enum ControlCommand: String, Sendable, CaseIterable {
    /// Take a still now; the reply names the file.
    case still
    /// Stop the recording (finalised, as on SIGINT).
    case stop
    /// Reply with the recording's state.
    case status
    /// Start a new movie file at the next frame (a recording with `--segment`).
    case split
    /// Set camera controls: `set NAME=VALUE[,NAME=VALUE…]` (the same names as `--set`).
    case set
    /// Make an event clip now: `clip`, or `clip --after T` to override `--post-roll`.
    case clip
    /// Read the text of the next frame (`--text` or `--text-every`); the reply is the reading.
    case text

    /// The longest command line accepted, in bytes; longer input is refused unread.
    public static let maximumLength = 256

    /// Parses one received line into a command and, for `set`, its argument.
    public static func parseLine(_ bytes: [UInt8]) -> Result<(ControlCommand, String?), ControlReplyError> {
        guard bytes.count <= maximumLength, let text = String(validating: bytes, as: UTF8.self) else {
            return parse(bytes).map { ($0, nil) }
        }
        let trimmed = text.trimmingWhitespace
        if trimmed.hasPrefix("clip ") {
            let argument = trimmed.dropFirst(4).trimmingWhitespace
            return .success((.clip, argument.isEmpty ? nil : String(argument)))
        }
        guard trimmed == "set" || trimmed.hasPrefix("set ") else { return parse(bytes).map { ($0, nil) } }
        let argument = trimmed.dropFirst(3).trimmingWhitespace
        guard !argument.isEmpty else {
            return .failure(ControlReplyError("set needs NAME=VALUE, e.g. set exposure=1/60 (the names of camrec --set)"))
        }
        return .success((.set, argument))
    }

    /// Parses one received line (surrounding white space ignored).
    public static func parse(_ bytes: [UInt8]) -> Result<ControlCommand, ControlReplyError> {
        guard bytes.count <= maximumLength else {
            return .failure(ControlReplyError("command too long (over \(maximumLength) bytes)"))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(ControlReplyError("command is not UTF-8 text"))
        }
        let word = text.trimmingWhitespace
        guard let command = ControlCommand(rawValue: word) else {
            let shown = word.count > 20 ? String(word.prefix(20)) + "…" : word
            return .failure(ControlReplyError("unknown command '\(shown)': use still, stop, status, split, clip, text or set NAME=VALUE"))
        }
        return .success(command)
    }
}

/// An error reply: the command was refused and nothing happened.
public struct ControlReplyError: Error, Sendable, Equatable {
    /// What was wrong, for the reply.
    public let message: String
    public init(_ message: String) { self.message = message }
}

/// A mistake in how the command was invoked: an unknown option, a missing value,
/// the wrong number of arguments.
///
/// The message is one line and says what to do, e.g.
/// `unknown option '--maxduration'; did you mean '--max-duration'? (see camrec --help)`.
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The one-line explanation shown to the user.
    public let message: String

    /// Creates an error with a one-line message.
    public init(_ message: String) {
        self.message = message
    }

    /// The message itself, so `"\(error)"` prints it as is.
    public var description: String { message }
}

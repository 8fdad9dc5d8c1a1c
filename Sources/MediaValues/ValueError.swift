/// A command-line value that could not be understood: a duration, a frame size, a
/// frame rate. The message is one line, names the text and shows a valid form, e.g.
/// `invalid duration '10q': use seconds (600), units (90s, 10m, 1h2m3s) or hh:mm:ss (00:10:00)`.
public struct ValueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The one-line explanation shown to the user.
    public let message: String

    /// Creates an error with a one-line message.
    public init(_ message: String) {
        self.message = message
    }

    /// The message itself, so `"\(error)"` prints it as is.
    public var description: String { message }
}

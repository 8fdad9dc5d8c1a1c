/// A failure camrec reports to a person: one line saying what to do, and the exit status.
public struct CamrecError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The exit status it maps to.
    public let status: ExitStatus
    /// One line a person can act on.
    public let message: String

    public init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { message }
}

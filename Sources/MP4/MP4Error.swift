/// Why a file cannot be read or written as a plain ISO base media movie. Callers that have
/// another way to handle the file (a demuxer) fall back to it.
public struct MP4Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line saying what is wrong.
    public var message: String

    /// Whether the device ran out of space.
    public var isNoSpace: Bool

    /// Creates an error.
    public init(_ message: String, isNoSpace: Bool = false) {
        self.message = message
        self.isNoSpace = isNoSpace
    }

    public var description: String { message }
}

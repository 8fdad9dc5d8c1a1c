/// `--reconnect`: after the camera is lost, wait for the same camera to come back (at any
/// `/dev/videoN`) and go on in a new movie.
public struct ReconnectSettings: Sendable, Equatable {
    /// How long to wait; nil waits for ever.
    public var timeout: TimeSpec?

    public init(timeout: TimeSpec?) {
        self.timeout = timeout
    }
}

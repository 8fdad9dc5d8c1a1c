/// A failure camrec reports to a person: what kind of failure, one line saying what to do,
/// and (from the kind, in one place) the exit status a script sees. Every command's errors
/// are of this one type.
public struct CamrecError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What went wrong, as far as a script needs to know; decides the exit status.
    public enum Kind: Sendable, Equatable {
        /// Something that has no kind of its own (see the message).
        case failure
        /// Malformed command line, or something impossible asked for.
        case usage
        /// The input media cannot be read or used (trim).
        case invalidInput
        /// No such camera, or no camera at all.
        case noCamera
        /// A GStreamer plugin or system component camrec needs is not installed.
        case unavailable
        /// The output cannot be made.
        case cannotCreateOutput
        /// The disk filled up.
        case diskFull
        /// The camera is held by another program.
        case cameraBusy
        /// Not allowed to open the camera.
        case permissionDenied
        /// The camera went away mid-recording.
        case cameraLost
        /// A stage (demuxer, re-encoder, muxer) made no progress for its bound.
        case stalled
        /// Stopped by a signal before the work was done (trim: nothing was written).
        case interrupted
    }

    /// The kind of failure.
    public let kind: Kind
    /// One line a person can act on.
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The exit status it maps to: the one place where failures become exit codes.
    public var status: ExitStatus {
        switch kind {
        case .failure, .stalled: .failure
        case .usage: .usage
        case .invalidInput: .invalidInput
        case .noCamera: .noCamera
        case .unavailable: .unavailable
        case .cannotCreateOutput: .cannotCreateOutput
        case .diskFull: .diskFull
        case .cameraBusy: .cameraBusy
        case .permissionDenied: .permissionDenied
        case .cameraLost: .cameraLost
        case .interrupted: .aborted
        }
    }

    public var description: String { message }
}

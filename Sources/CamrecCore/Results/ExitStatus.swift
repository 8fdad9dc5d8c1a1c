/// camrec's exit codes: one per thing a script may want to react to. Documented in
/// `camrec --help` and the README; values follow BSD sysexits where one fits.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Finished as asked (including a stop at the limit or on a signal).
    case success = 0
    /// Something failed that has no code of its own (see the message).
    case failure = 1
    /// Malformed command line: unknown option, bad duration, missing argument.
    case usage = 64
    /// The input media is not something camrec can read (trim, recover).
    case invalidInput = 65
    /// No such camera, or no camera at all.
    case noCamera = 66
    /// A GStreamer plugin or system component camrec needs is not installed.
    case unavailable = 69
    /// The output cannot be made: it exists (without `--force`), or its folder is
    /// missing or not writable.
    case cannotCreateOutput = 73
    /// The disk filled up; what was recorded so far is kept and playable.
    case diskFull = 74
    /// The camera is held by another program.
    case cameraBusy = 75
    /// Not allowed to open the camera (see the `video` group).
    case permissionDenied = 77
    /// The camera went away mid-recording; what was recorded so far is kept and playable.
    case cameraLost = 79
    /// A third signal stopped the recording at once; the file was not finalised but plays.
    case aborted = 130

    /// A short description for the help text and README table.
    public var meaning: String {
        switch self {
        case .success: "success (also after a stop at --max-duration or on a signal)"
        case .failure: "another error (the message says what)"
        case .usage: "usage error: unknown option, malformed value, missing argument"
        case .invalidInput: "invalid input media (trim, recover; --overlay-image, --mask-image)"
        case .noCamera: "no such camera, or no camera at all (also: a missing --mask-image)"
        case .unavailable: "a GStreamer plugin camrec needs is missing, no recorder listens on the ctl socket, or --serve cannot listen"
        case .cannotCreateOutput: "output exists (use --force), or its folder is missing or not writable"
        case .diskFull: "disk full (the recording so far is kept)"
        case .cameraBusy: "camera busy: another program is using it"
        case .permissionDenied: "permission denied opening the camera"
        case .cameraLost: "camera lost mid-recording (the recording so far is kept)"
        case .aborted: "aborted: record, by a third signal (the file is kept under its .partial name, not finalised, and plays); trim, by a signal (nothing is left behind)"
        }
    }
}

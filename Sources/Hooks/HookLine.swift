/// The JSON `hook` line: how the `--on-file` command for a file (or the `--on-event`
/// command for an event) ended.
public struct HookLine: Sendable, Codable, Equatable {
    /// The file it ran for; nil for an event's command.
    public var file: String?
    /// The event it ran for (`CAMREC_EVENT`); nil for a file's command.
    public var event: String?
    /// The file's kind (`CAMREC_KIND`), or "event".
    public var kind: String
    /// Its exit status; nil when a signal ended it or it never started.
    public var exitStatus: Int32?
    /// The signal that ended it (15 SIGTERM, 9 SIGKILL after a time limit); nil when it exited.
    public var signal: Int32?
    /// It ran past `--on-file-timeout` or `--on-event-timeout` (or past the end of the run's wait) and its process
    /// group was stopped.
    public var timedOut: Bool
    /// Seconds it ran.
    public var duration: Double
    /// The last lines of its standard error (at most 2 KB); nil when it wrote none.
    public var stderr: String?
    /// Why it could not be started; nil when it started.
    public var error: String?
    /// The file was left by an earlier run of the same OUTPUT, killed before this file's
    /// command ended; nil for this run's files.
    public var earlierRun: Bool?

    /// Whether the command did what was asked (exited 0 in time).
    public var succeeded: Bool { exitStatus == 0 && !timedOut }
}

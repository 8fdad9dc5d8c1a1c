/// How a run is cut into several movies (`--segment`, `--keep…`, `--utc`).
public struct SegmentSettings: Sendable, Equatable {
    /// Video per movie; nil cuts only when asked (`camrec ctl … split`, a reconnect).
    public var length: TimeSpec?
    /// The movies' names.
    public var naming: SegmentNaming
    /// Which earlier movies are deleted.
    public var retention: RetentionPolicy

    public init(length: TimeSpec?, naming: SegmentNaming, retention: RetentionPolicy = RetentionPolicy()) {
        self.length = length
        self.naming = naming
        self.retention = retention
    }
}

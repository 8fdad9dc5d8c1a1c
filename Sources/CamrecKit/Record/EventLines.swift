/// The JSON `clip-started` line: a trigger started an event clip (its `clip` line follows
/// once the clip is finished and in place).
public struct ClipStartLine: Sendable, Codable, Equatable {
    /// The clip's number in the run (its `clip` line's `index`).
    public var clip: Int
    /// The name the clip will have once it is in place.
    public var path: String
    /// The trigger's time in the run (seconds of recorded video before it).
    public var time: Double
    /// Where the clip starts in the run: the trigger less the pre-roll (seconds; 0 at the
    /// run's first frame).
    public var start: Double
    /// Several cameras: the device of the camera whose clip it is; nil with one camera.
    public var device: String?
}

/// The JSON `disk-low` line: free space on the file system of OUTPUT (or the clips) is
/// below `--min-free` and retention has nothing left it may delete.
public struct DiskLowLine: Sendable, Codable, Equatable {
    /// The folder whose file system is short.
    public var folder: String
    /// Bytes free there now.
    public var free: Int64
    /// `--min-free`, in bytes.
    public var minFree: Int64
    /// What camrec does about it: "stopping" (a movie: it is finalised and the run ends as
    /// disk-full) or "going-on" (clips: they go on while there is room).
    public var action: String
    /// Several cameras: the camera whose files they are; nil with one camera.
    public var device: String?
}

extension DiskLowLine {
    /// The line for `folder` under `policy`, as free space is now; nil without `--min-free`.
    init?(policy: RetentionPolicy, folder: String, action: String) {
        guard let minFree = policy.minFree else { return nil }
        self.init(folder: folder, free: RetentionPolicy.freeBytes(in: folder) ?? 0, minFree: minFree, action: action)
    }
}

/// What a run nobody watches asks for (`--segment`, `--utc`, `--keep`, `--keep-size`,
/// `--min-free`, `--reconnect`, `--reconnect-timeout`, `--recover-partials`, `--schedule`),
/// as given, and the rules that turn it into segments, retention and reconnecting:
/// retention applies to segmented runs and event clips, `--reconnect` and `--schedule`
/// name their movies as segments, and `--reconnect-timeout` needs `--reconnect`.
public struct UnattendedRequest: Sendable, Equatable {
    /// `--segment T` (none: cut only on request).
    public var segment: String?
    /// `--utc`: time fields in names (segments' and `--clips`') are UTC.
    public var utc = false
    /// `--keep N`.
    public var keep: String?
    /// `--keep-size SIZE`.
    public var keepSize: String?
    /// `--min-free SIZE`.
    public var minFree: String?
    /// `--reconnect`.
    public var reconnect = false
    /// `--reconnect-timeout T`.
    public var reconnectTimeout: String?
    /// `--recover-partials`.
    public var recoverPartials = false
    /// `--on-file CMD`, `--on-file-jobs N`, `--on-file-timeout T`.
    public var onFile, onFileJobs, onFileTimeout: String?
    /// `--on-event CMD`, `--on-event-jobs N`, `--on-event-timeout T`, as given.
    public var onEvent, onEventJobs, onEventTimeout: String?
    /// `--schedule SPEC`.
    public var schedule: String?
    /// `--between-windows closed|standby`.
    public var betweenWindows: String?

    public init(segment: String? = nil, utc: Bool = false, keep: String? = nil, keepSize: String? = nil,
                minFree: String? = nil, reconnect: Bool = false, reconnectTimeout: String? = nil,
                recoverPartials: Bool = false) {
        self.segment = segment
        self.utc = utc
        self.keep = keep
        self.keepSize = keepSize
        self.minFree = minFree
        self.reconnect = reconnect
        self.reconnectTimeout = reconnectTimeout
        self.recoverPartials = recoverPartials
    }

    /// The series of `output`'s movies (nil: one movie; `--reconnect` or `--schedule` alone implies one),
    /// the retention (for the movies of a series and for event clips; nil when none is
    /// given) and the reconnecting (nil without `--reconnect`), for a run whose event clips
    /// are `clips`. Every refusal is a usage error.
    public func resolve(output: String, clips: ClipRequest)
        throws(CamrecError) -> (segments: SegmentSettings?, retention: RetentionPolicy?, reconnect: ReconnectSettings?) {
        let length = try OptionValue.parse("--segment", segment) { (text: String) throws(ValueError) -> TimeSpec? in
            if MaxDuration.unlimitedWords.contains(text.lowercased()) { return nil }
            let length = try TimeSpec.parse(text)
            guard length.nanoseconds > 0 else { throw ValueError("a segment must be longer than 0, e.g. 10m; none cuts only on request") }
            return length
        }
        // Each window of a schedule is a movie of its own: the run is a series.
        let segmented = segment != nil || reconnect || schedule != nil
        // --utc also names clips (--clips PATTERN).
        let given = (utc && clips.pattern == nil ? ["--utc"] : [])
            + [("--keep", keep), ("--keep-size", keepSize), ("--min-free", minFree)].filter { $0.1 != nil }.map { $0.0 }
        // Retention also keeps event clips in check (not --utc: it names clips only with --clips).
        if !segmented, let option = given.first, !(clips.isWanted && option != "--utc") {
            throw OptionValue.refusal("\(option) applies to segmented runs and event clips: add --segment T (e.g. --segment 10m) or clip options (--pre-roll T)")
        }
        var retention: RetentionPolicy?
        if segmented || clips.isWanted {
            let count = try OptionValue.parse("--keep", keep) { (text: String) throws(ValueError) -> Int in
                guard let count = Int(text), count >= 1 else { throw ValueError("--keep takes a number of movies (and of clips), 1 or more, e.g. --keep 48") }
                return count
            }
            let policy = RetentionPolicy(keep: count, keepBytes: try OptionValue.parse("--keep-size", keepSize, ByteCount.parse),
                                         minFree: try OptionValue.parse("--min-free", minFree, ByteCount.parse))
            retention = policy.isActive ? policy : nil
        }
        if !reconnect && reconnectTimeout != nil {
            throw OptionValue.refusal("--reconnect-timeout needs --reconnect")
        }
        var segments: SegmentSettings?
        if segmented {
            let naming: SegmentNaming
            do {
                naming = try SegmentNaming(output: output, utc: utc)
            } catch {
                throw OptionValue.refusal(error.message)
            }
            segments = SegmentSettings(length: length.flatMap { $0 }, naming: naming, retention: retention ?? RetentionPolicy())
        }
        guard reconnect else { return (segments, retention, nil) }
        let timeout = try OptionValue.parse("--reconnect-timeout", reconnectTimeout) { (text: String) throws(ValueError) -> TimeSpec in
            let timeout = try TimeSpec.parse(text)
            guard timeout.nanoseconds > 0 else { throw ValueError("the timeout must be above 0, e.g. 5m") }
            return timeout
        }
        return (segments, retention, ReconnectSettings(timeout: timeout))
    }
}

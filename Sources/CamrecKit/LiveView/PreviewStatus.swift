/// The status line drawn in the preview window only (never in the movie): `REC 0:12 / 10:00`.
public struct PreviewStatus: Sendable, Equatable {
    /// What the camera is doing: "REC", "STANDBY" (clips only), "PREVIEW" (`camrec preview`).
    public var label: String
    /// Seconds recorded so far; nil when nothing is recorded (`camrec preview`).
    public var elapsed: Double?
    /// `--max-duration` in seconds; nil without a limit.
    public var limit: Double?

    /// A status line.
    public init(label: String, elapsed: Double? = nil, limit: Double? = nil) {
        self.label = label
        self.elapsed = elapsed
        self.limit = limit
    }

    /// The text drawn: the label, the elapsed time and the limit, in whole seconds.
    public var text: String {
        var text = label
        if let elapsed { text += " " + Self.clock(elapsed) }
        if let limit { text += " / " + Self.clock(limit) }
        return text
    }

    /// `0:05`, `12:34`, `1:02:03`: whole seconds, rounded down (the window never shows a
    /// second that is not recorded yet).
    static func clock(_ seconds: Double) -> String {
        let total = Int(max(0, seconds).rounded(.down))
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
    }
}

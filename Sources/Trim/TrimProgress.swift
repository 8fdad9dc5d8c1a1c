/// How far a running trim has got, for a progress line (`{"type":"progress",…}` with
/// `--json`, a rewritten line on a terminal).
public struct TrimProgress: Sendable, Codable, Equatable {
    /// What the trim is doing.
    public enum Phase: String, Sendable, Codable {
        /// Reading the whole input to list its frames (inputs not read from their sample tables).
        case indexing
        /// Writing the output: copying and re-encoding.
        case writing
    }

    /// What the trim is doing.
    public var phase: Phase
    /// The part of the phase done, from 0 to 1.
    public var fraction: Double
    /// Seconds of video done in this phase (of the input when indexing, of the output when writing).
    public var doneSeconds: Double
    /// Seconds of video in this phase.
    public var totalSeconds: Double

    /// Progress of `fraction` (clamped to 0…1) through a phase covering `totalSeconds` of video.
    public init(phase: Phase, fraction: Double, totalSeconds: Double) {
        let clamped = fraction.isFinite ? min(1, max(0, fraction)) : 0
        self.phase = phase
        self.fraction = (clamped * 1000).rounded(.down) / 1000
        self.totalSeconds = (totalSeconds * 1000).rounded() / 1000
        doneSeconds = (clamped * totalSeconds * 1000).rounded(.down) / 1000
    }

    /// Progress of `done` nanoseconds out of `total`.
    init(phase: Phase, done: Int64, total: Int64) {
        self.init(phase: phase, fraction: total > 0 ? Double(done) / Double(total) : 0, totalSeconds: Double(total) / 1e9)
    }
}

/// Decides which progress reports are shown: none during the first `delay` (a quick trim
/// stays quiet), then at most one per `interval`, only when the fraction or phase has
/// changed, and never going back within a phase. Plain values in and out.
public struct TrimProgressGate: Sendable {
    /// Quiet time at the start.
    public let delay: Duration
    /// The least time between two reports shown.
    public let interval: Duration
    private var lastShown: (at: Duration, progress: TrimProgress)?

    /// A gate that opens after `delay` and then lets one report through per `interval`.
    public init(delay: Duration = .seconds(1), interval: Duration = .milliseconds(500)) {
        self.delay = delay
        self.interval = interval
    }

    /// Whether to show `progress`, reported `elapsed` after the trim started.
    public mutating func admit(_ progress: TrimProgress, after elapsed: Duration) -> Bool {
        guard elapsed >= delay else { return false }
        if let last = lastShown {
            guard elapsed - last.at >= interval else { return false }
            if progress.phase == last.progress.phase, progress.fraction <= last.progress.fraction { return false }
        }
        lastShown = (elapsed, progress)
        return true
    }
}

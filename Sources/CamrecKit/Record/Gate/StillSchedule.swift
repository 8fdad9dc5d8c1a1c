/// `--still-every T` on the movie's own timeline: a still is due at T, 2T, 3T … of
/// recorded video, whatever the wall clock does (a stalled camera, a suspended process,
/// a clock step), so the stills of a run line up with the movie exactly.
struct StillSchedule: Equatable {
    /// The period, in nanoseconds of movie time.
    let period: UInt64
    /// Half a frame: the frame nearest to each period's time is the one (timestamps jitter).
    let tolerance: UInt64
    private var next: UInt64

    init(every period: TimeSpec, rate: FrameRateValue) {
        self.period = UInt64(max(1, period.nanoseconds))
        tolerance = UInt64(500_000_000.0 / max(rate.framesPerSecond, 0.001))
        next = self.period
    }

    /// Whether a still is due at the frame that starts `movieTime` nanoseconds into the
    /// movie: true once for each period the movie has reached, even when several passed
    /// at once (a camera stall): one still then, not a burst.
    mutating func isDue(movieTime: UInt64) -> Bool {
        guard movieTime + tolerance >= next else { return false }
        while next <= movieTime + tolerance { next += period }
        return true
    }
}

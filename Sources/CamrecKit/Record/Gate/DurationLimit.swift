/// `--max-duration` as a rule on frame times: a frame is let through when it starts
/// within the limit, to the nearest whole frame (half a frame of tolerance, because
/// camera timestamps jitter), so the movie holds round(limit × fps) frames however late
/// the stop reaches the camera. Once a frame is held back, every later one is too.
struct DurationLimit: Equatable {
    /// The limit in nanoseconds; nil for none.
    let limit: UInt64?
    /// Half a frame interval, in nanoseconds.
    let tolerance: UInt64
    private(set) var first: UInt64?
    /// Whether the limit was reached.
    private(set) var isReached = false

    init(limit: TimeSpec?, rate: FrameRateValue) {
        self.limit = limit.map { UInt64(max(0, $0.nanoseconds)) }
        tolerance = UInt64(500_000_000.0 / max(rate.framesPerSecond, 0.001))
    }

    /// Whether the frame at `time` (nanoseconds) is within the limit.
    mutating func admits(_ time: UInt64) -> Bool {
        guard !isReached else { return false }
        let start = first ?? time
        first = start
        let elapsed = time >= start ? time - start : 0
        if let limit, elapsed + tolerance > limit {
            isReached = true
            return false
        }
        return true
    }

    /// Holds back every later frame, as reaching the limit does.
    mutating func close() {
        isReached = true
    }

    /// The last time a frame can start and be let through; nil before the first frame or
    /// without a limit.
    var latestStart: UInt64? {
        guard let first, let limit else { return nil }
        return limit > tolerance ? first + limit - tolerance : first
    }
}

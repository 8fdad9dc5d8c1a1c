/// Where `--segment T` cuts the movie: a frame starts a new segment when it starts at or
/// after the next multiple of T from the run's first frame (to the nearest whole frame,
/// with the same half-frame tolerance as the limit, because camera timestamps jitter), so
/// every segment but the last holds exactly round(T × fps) frames of an even stream.
/// Boundaries sit on the run's own grid (first + k·T), so they never drift; a requested
/// split (`camrec ctl … split`) cuts at the next frame and starts the grid again there.
/// A pipeline that goes on with an earlier grid (several cameras, after a reconnect) is
/// told how far into a segment of that grid its first frame is (`continueGrid`).
struct SegmentClock: Equatable {
    /// The segment length in nanoseconds; nil when only requested splits cut.
    let length: UInt64?
    /// Half a frame interval, in nanoseconds.
    let tolerance: UInt64
    /// The grid's origin: the run's first frame, or the last requested split.
    private(set) var origin: UInt64?
    /// Segments begun on the grid since the origin (0: the first).
    private var segmentsSinceOrigin: UInt64 = 0
    /// A split was requested: the next frame starts a segment.
    private var splitRequested = false
    /// The requested split's instant (on the movie's clock): the first frame at or after
    /// it starts the segment; nil: the next frame.
    private var splitAt: UInt64?
    /// How far the grid's last boundary lies before the origin (0: the origin is one).
    private var phase: UInt64 = 0

    init(length: TimeSpec?, rate: FrameRateValue) {
        self.length = length.map { UInt64(max(1, $0.nanoseconds)) }
        tolerance = UInt64(500_000_000.0 / max(rate.framesPerSecond, 0.001))
    }

    /// The first frame (not seen yet) lies `phase` ns after a boundary of the grid to go
    /// on with: the first cut comes `length - phase` after it, then every `length`.
    mutating func continueGrid(phase: UInt64) {
        guard origin == nil, let length else { return }
        self.phase = phase % length
    }

    /// Asks for the next frame to start a new segment.
    /// Asks the first frame at or after `time` (nil: the next frame) to start a new segment.
    mutating func requestSplit(at time: UInt64? = nil) {
        splitRequested = true
        splitAt = time
    }

    /// Whether the frame at `time` (nanoseconds, on the movie's clock) starts a new
    /// segment. The run's first frame does not: the first segment is open from the start.
    mutating func startsSegment(at time: UInt64) -> Bool {
        guard let origin else {
            origin = time
            splitRequested = false
            // A first frame within the tolerance of the next boundary is on it: its movie
            // is the segment that starts there.
            segmentsSinceOrigin = length.map { (phase + tolerance) / $0 } ?? 0
            return false
        }
        if splitRequested, splitAt.map({ time >= $0 }) ?? true {
            splitRequested = false
            splitAt = nil
            self.origin = time
            segmentsSinceOrigin = 0
            phase = 0
            return true
        }
        guard let length, time >= origin else { return false }
        let reached = (time - origin + phase + tolerance) / length
        guard reached > segmentsSinceOrigin else { return false }
        segmentsSinceOrigin = reached
        return true
    }
}

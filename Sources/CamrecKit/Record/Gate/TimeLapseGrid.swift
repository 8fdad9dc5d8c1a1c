import Synchronization

/// `--timelapse T`: which camera frames a time-lapse keeps, and where each goes in the movie.
///
/// One frame is kept every T of capture time, on an even grid from the first frame kept
/// (the first frame at or after each slot first + k·T; camera timestamps jitter, so a frame
/// at most half a camera interval before its slot counts as on time, as `RateDecimator`
/// does). A slot no frame reached (a camera stall) is lost, and the next frame fills the
/// slot it is in. The kept frames are retimed one movie frame apart from the first one's
/// timestamp, so the movie plays them back continuously at its own rate: N kept frames
/// make N / fps seconds, whatever the gaps. Pure arithmetic, for a pad probe (through
/// `TimeLapseFilter`) and for tests.
struct TimeLapseGrid: Equatable {
    /// The time-lapse interval, in nanoseconds of capture time.
    let interval: UInt64
    /// Half a camera frame interval, in nanoseconds.
    let tolerance: UInt64
    /// The movie's frame rate.
    let movieRate: FrameRateValue
    /// The first kept frame's timestamp: the grid's origin and the movie's first timestamp.
    private(set) var origin: UInt64?
    /// The next slot on the grid (k: due at origin + k·interval).
    private var nextSlot: UInt64 = 0
    /// Frames kept so far.
    private(set) var kept = 0

    /// Where a kept frame goes.
    struct Kept: Equatable {
        /// Its slot on the capture-time grid (nanoseconds): what `--max-duration`,
        /// `--segment` and `--still-every` reckon with.
        var capture: UInt64
        /// Its new timestamp: one movie frame after the previous kept frame's.
        var movie: UInt64
        /// Its place among the kept frames (0 for the first).
        var index: Int
    }

    /// A grid of `interval` for a camera at `cameraRate`, played back at `movieRate`.
    init(interval: TimeSpec, cameraRate: FrameRateValue, movieRate: FrameRateValue) {
        self.interval = UInt64(max(1, interval.nanoseconds))
        tolerance = UInt64(0.5e9 / max(cameraRate.framesPerSecond, 0.001))
        self.movieRate = movieRate
    }

    /// Where the frame at `pts` (nanoseconds) goes, or nil when it is dropped. A frame
    /// without a timestamp has no place on the grid: it is dropped.
    mutating func keep(pts: UInt64?) -> Kept? {
        guard let pts else { return nil }
        guard let origin else {
            origin = pts
            nextSlot = 1
            kept = 1
            return Kept(capture: pts, movie: pts, index: 0)
        }
        guard pts >= origin, pts - origin + tolerance >= nextSlot * interval else { return nil }
        // The slot this frame is in; the slots it jumps over (a camera stall) were lost.
        let slot = (pts - origin + tolerance) / interval
        nextSlot = slot + 1
        let index = kept
        kept += 1
        return Kept(capture: origin + slot * interval, movie: origin + movieTime(index), index: index)
    }

    /// Where movie frame `index` starts after the first, in nanoseconds (exact fractions:
    /// no drift over days of frames).
    func movieTime(_ index: Int) -> UInt64 {
        let frames = UInt64(index)
        let numerator = UInt64(max(1, movieRate.numerator))
        let perWhole = 1_000_000_000 * UInt64(movieRate.denominator)
        // index × 10⁹ × den / num, split so that it cannot overflow.
        return frames / numerator * perWhole + (frames % numerator) * perWhole / numerator
    }
}

/// A `TimeLapseGrid` under a mutex, for the gate's pad probe on the streaming thread.
final class TimeLapseFilter: Sendable {
    private let grid: Mutex<TimeLapseGrid>

    init(_ grid: TimeLapseGrid) {
        self.grid = Mutex(grid)
    }

    /// `TimeLapseGrid.keep(pts:)`.
    func keep(pts: UInt64?) -> TimeLapseGrid.Kept? {
        grid.withLock { $0.keep(pts: pts) }
    }
}

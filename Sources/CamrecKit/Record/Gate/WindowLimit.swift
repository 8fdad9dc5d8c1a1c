/// A stretch of the wall clock a movie records (`--schedule`'s window): its first frame is
/// the first captured at `start`, its last the last captured before `end`.
public struct RecordingWindow: Sendable, Equatable {
    public var start: WallTime
    public var end: WallTime

    public init(start: WallTime, end: WallTime) {
        self.start = start
        self.end = end
    }

    /// `window` of a schedule (whole seconds since 1970).
    public init(_ window: ScheduleWindow) {
        self.init(start: WallTime(seconds: window.start, nanoseconds: 0), end: WallTime(seconds: window.end, nanoseconds: 0))
    }
}

/// `--schedule` as a rule on frames' capture times (on the wall clock, read at each frame,
/// so that a clock stepped during the window moves its end with it): frames captured
/// before the window's start are held back (the camera opened early, to be ready), and
/// the movie ends with the last frame captured before its end. Half a frame of tolerance
/// at both edges, as `DurationLimit` has: a window of T at R fps holds round(T × R)
/// frames when the camera was ready at its start.
struct WindowLimit: Equatable {
    /// What becomes of one frame.
    enum Decision: Equatable {
        /// Captured before the window: held back.
        case early
        /// In the window.
        case inside
        /// At or past its end: held back, and every frame after it.
        case ended
    }

    let start: Int64
    let end: Int64
    /// Half a frame interval, in nanoseconds.
    let tolerance: Int64
    /// Whether a frame was let through (the start is behind).
    private(set) var opened = false
    /// Whether the end was reached.
    private(set) var ended = false

    init(_ window: RecordingWindow, rate: FrameRateValue) {
        start = window.start.seconds * 1_000_000_000 + window.start.nanoseconds
        end = window.end.seconds * 1_000_000_000 + window.end.nanoseconds
        tolerance = Int64(500_000_000.0 / max(rate.framesPerSecond, 0.001))
    }

    /// Decides for the frame captured at `capture`.
    mutating func decide(capture: WallTime) -> Decision {
        guard !ended else { return .ended }
        let time = capture.seconds * 1_000_000_000 + capture.nanoseconds
        if !opened {
            if time + tolerance < start { return .early }
        }
        if time + tolerance > end {
            ended = true
            return .ended
        }
        opened = true
        return .inside
    }

    /// Whether the frame captured at `capture` comes before the window (asked before the
    /// frame's other gates; the window opens with the first that does not).
    func isEarly(_ capture: WallTime) -> Bool {
        !opened && capture.seconds * 1_000_000_000 + capture.nanoseconds + tolerance < start
    }
}

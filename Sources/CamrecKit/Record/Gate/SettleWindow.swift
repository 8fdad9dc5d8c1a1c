/// `--settle T` for a recording: the frames before the picture is stable are not
/// recorded. The gate marks each frame as a settling frame until this says the window is
/// over; each settling frame's mean brightness, measured where it is decoded (the
/// encoder's input), is added here. The window ends at the first frame after the
/// brightness has stopped changing (`ExposureSettler`) while the camera's autofocus, where
/// it reports one (V4L2_CID_AUTO_FOCUS_STATUS), is not searching, or at the first frame T or more
/// after the first one (camera time, not wall-clock time: a loaded machine settles the
/// same frames).
struct SettleWindow {
    /// The longest wait, in nanoseconds of camera time.
    let limit: UInt64
    /// Half a frame interval: camera timestamps jitter, so the frame due at the limit ends it.
    let tolerance: UInt64
    /// One per picture measured: one camera's frame, or each camera's rectangle on a canvas.
    private var settlers: [ExposureSettler] = []
    private var first: UInt64?
    private(set) var settlingFrames = 0
    /// Set once the window is over.
    private(set) var outcome: SettleOutcome?
    /// Timestamps of frames marked as settling whose brightness has not been measured yet.
    private var unmeasured: [UInt64] = []
    private var stable = false

    /// A window of at most `limit` at `rate`; nil when `limit` is zero (no settling).
    init?(limit: TimeSpec, rate: FrameRateValue) {
        guard limit.nanoseconds > 0 else { return nil }
        self.limit = UInt64(limit.nanoseconds)
        tolerance = UInt64(500_000_000.0 / max(rate.framesPerSecond, 1))
    }

    /// Whether the frame at `time` is a settling frame (held back from the movie). The
    /// first frame that is not ends the window.
    mutating func isSettling(_ time: UInt64) -> Bool {
        if outcome != nil { return false }
        let start = first ?? time
        first = start
        let waited = time >= start ? time - start : 0
        if settlingFrames > 0, stable || waited + tolerance >= limit {
            outcome = SettleOutcome(milliseconds: Int((Double(waited) / 1e6).rounded()), stable: stable, frames: settlingFrames)
            unmeasured = []
            return false
        }
        settlingFrames += 1
        unmeasured.append(time)
        return true
    }

    /// Whether the frame at `time` is one marked as settling; if so its `brightness` (0–255)
    /// is taken into account, and the picture is stable only when the brightness is and the
    /// camera's autofocus is not searching (`focusBusy`: false for a camera that does not
    /// report it). Frames that are not settling frames are left alone.
    mutating func measure(_ time: UInt64, brightness: () -> Double, focusBusy: () -> Bool = { false }) -> Bool {
        measure(time, brightnesses: { [brightness()] }, focusBusy: focusBusy)
    }

    /// `measure` for several pictures in one frame (`--layout`: each camera's rectangle on
    /// the canvas, `CanvasBrightness`): the picture is stable only when every one's
    /// brightness is (each over its own last frames) and no camera's autofocus is
    /// searching. An empty list (a frame that could not be read) is not stable.
    mutating func measure(_ time: UInt64, brightnesses: () -> [Double], focusBusy: () -> Bool = { false }) -> Bool {
        guard let index = unmeasured.firstIndex(of: time) else { return false }
        unmeasured.removeSubrange(...index)
        guard !stable else { return true }
        let values = brightnesses()
        guard !values.isEmpty else { return true }
        if settlers.count != values.count { settlers = Array(repeating: ExposureSettler(), count: values.count) }
        // Every picture's settler takes its value, whether or not an earlier one is stable.
        var all = true
        for (picture, value) in values.enumerated() {
            if !settlers[picture].add(value) { all = false }
        }
        stable = all && !focusBusy()
        return true
    }
}

/// How the settle window ended, for the JSON `settled` line.
public struct SettleOutcome: Sendable, Equatable, Codable {
    /// Camera time from the first frame to the first recorded one, in milliseconds.
    public var milliseconds: Int
    /// Whether the picture was stable (false: the limit was reached first).
    public var stable: Bool
    /// Frames held back.
    public var frames: Int
    /// Several cameras: the camera that settled (its device path and its number in the
    /// run, 1 for the first `--device`); nil with one camera.
    public var device: String?
    public var camera: Int?
}

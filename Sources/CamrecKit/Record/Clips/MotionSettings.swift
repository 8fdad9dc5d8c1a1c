/// The motion trigger (`--on-motion`, `--motion-sensitivity`): clips start when the
/// picture changes (`MotionDetector`).
public struct MotionSettings: Sendable, Equatable {
    /// 0 (only large, clear changes) to 1 (small, faint ones); 0.5 by default.
    public var sensitivity: Double
    /// Frames compared per second (the rest never enter the motion branch).
    public var rate: Double
    /// `--motion-mask`: per pixel of the compared picture, whether it is watched; nil: all.
    public var mask: [Bool]?

    /// The width of the grey pictures compared (the height keeps the aspect ratio).
    static let width = 64

    /// The height of the grey pictures for frames of `size` (even, the aspect ratio kept).
    static func height(for size: FrameSize) -> Int {
        max(2, Int((Double(width) * Double(size.height) / Double(max(size.width, 1))).rounded()) & ~1)
    }

    public init(sensitivity: Double = 0.5, rate: Double = 5) {
        self.sensitivity = sensitivity
        self.rate = rate
    }
}

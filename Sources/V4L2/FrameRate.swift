/// A frame rate as an exact fraction of frames per second (30/1, 30000/1001, 15/2).
///
/// V4L2 reports frame *intervals* (seconds per frame); `init(interval…)` inverts them.
/// The fraction is reduced on creation, so 60/2 and 30/1 are the same value and the
/// text form matches what GStreamer caps print (`framerate=30/1`).
public struct FrameRate: Sendable, Codable, Hashable, Comparable, CustomStringConvertible {
    /// Frames, the numerator of frames per second.
    public let numerator: UInt32
    /// Seconds, the denominator of frames per second. Never zero.
    public let denominator: UInt32

    /// A rate of `numerator/denominator` frames per second; nil when either is zero.
    public init?(numerator: UInt32, denominator: UInt32) {
        guard numerator > 0, denominator > 0 else { return nil }
        let divisor = greatestCommonDivisor(numerator, denominator)
        self.numerator = numerator / divisor
        self.denominator = denominator / divisor
    }

    /// A whole number of frames per second (0 is clamped to 1).
    public init(_ framesPerSecond: UInt32) {
        numerator = max(framesPerSecond, 1)
        denominator = 1
    }

    /// The rate for a V4L2 frame interval of `numerator/denominator` seconds; nil when either is zero.
    public init?(intervalNumerator: UInt32, intervalDenominator: UInt32) {
        self.init(numerator: intervalDenominator, denominator: intervalNumerator)
    }

    /// Frames per second as a floating-point number.
    public var value: Double { Double(numerator) / Double(denominator) }

    /// The frame interval (seconds per frame) as V4L2 expresses it: (numerator, denominator).
    public var interval: (numerator: UInt32, denominator: UInt32) { (denominator, numerator) }

    /// The exact fraction as GStreamer caps write it: "30/1", "30000/1001".
    public var fraction: String { "\(numerator)/\(denominator)" }

    /// Frames per second rounded to two decimals, for JSON output (29.97, 30, 7.5).
    public var roundedValue: Double { (value * 100).rounded() / 100 }

    /// Human text: "30", "29.97", "7.5" (at most two decimals, no trailing zeros).
    public var description: String {
        let hundredths = UInt64((value * 100).rounded())
        let whole = hundredths / 100
        let rest = hundredths % 100
        if rest == 0 { return "\(whole)" }
        if rest % 10 == 0 { return "\(whole).\(rest / 10)" }
        return rest < 10 ? "\(whole).0\(rest)" : "\(whole).\(rest)"
    }

    /// Exact comparison of the fractions (no floating point).
    public static func < (lhs: FrameRate, rhs: FrameRate) -> Bool {
        UInt64(lhs.numerator) * UInt64(rhs.denominator) < UInt64(rhs.numerator) * UInt64(lhs.denominator)
    }

    /// Whether this rate satisfies a wish for `wanted`, allowing 1% below it so that
    /// NTSC-style rates count: 30000/1001 (29.97) meets a request for 30.
    public func meets(_ wanted: FrameRate) -> Bool {
        value >= wanted.value * (1 - FrameRate.tolerance)
    }

    /// The relative shortfall still accepted by `meets(_:)`.
    public static let tolerance = 0.01
}

func greatestCommonDivisor(_ a: UInt32, _ b: UInt32) -> UInt32 {
    var (x, y) = (a, b)
    while y != 0 { (x, y) = (y, x % y) }
    return max(x, 1)
}


extension FrameRate {
    /// Common rates offered inside a stepwise or continuous interval range.
    static let commonRates: [UInt32] = [120, 60, 50, 30, 25, 24, 20, 15, 10, 5, 1]

    /// The rates to list for a V4L2 interval range (intervals are seconds per frame, as
    /// numerator/denominator): the fastest, the common rates inside the range (on a step when
    /// `intervalStep` is given; nil means continuous), and the slowest. Fastest first.
    public static func rates(intervalMinimum: (UInt32, UInt32), intervalMaximum: (UInt32, UInt32),
                             intervalStep: (UInt32, UInt32)?) -> [FrameRate] {
        guard let fastest = FrameRate(intervalNumerator: intervalMinimum.0, intervalDenominator: intervalMinimum.1),
              let slowest = FrameRate(intervalNumerator: intervalMaximum.0, intervalDenominator: intervalMaximum.1),
              slowest <= fastest else { return [] }
        var result = [fastest]
        let minimumInterval = Double(intervalMinimum.0) / Double(intervalMinimum.1)
        for fps in commonRates {
            let rate = FrameRate(fps)
            guard rate < fastest, slowest < rate else { continue }
            if let step = intervalStep, step.0 > 0, step.1 > 0 {
                let stepSeconds = Double(step.0) / Double(step.1)
                let steps = (1 / Double(fps) - minimumInterval) / stepSeconds
                guard abs(steps - steps.rounded()) < 1e-6 else { continue }
            }
            result.append(rate)
        }
        if slowest != fastest { result.append(slowest) }
        return result
    }
}

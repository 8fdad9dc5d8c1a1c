import MediaValues

extension FrameRateValue {
    /// Common rates offered inside a stepwise or continuous interval range.
    static let commonRates: [Int] = [120, 60, 50, 30, 25, 24, 20, 15, 10, 5, 1]

    /// The rates to list for a V4L2 interval range (intervals are seconds per frame, as
    /// numerator/denominator): the fastest, the common rates inside the range (on a step when
    /// `intervalStep` is given; nil means continuous), and the slowest. Fastest first.
    public static func rates(intervalMinimum: (Int, Int), intervalMaximum: (Int, Int),
                             intervalStep: (Int, Int)?) -> [FrameRateValue] {
        guard let fastest = FrameRateValue(intervalNumerator: intervalMinimum.0, intervalDenominator: intervalMinimum.1),
              let slowest = FrameRateValue(intervalNumerator: intervalMaximum.0, intervalDenominator: intervalMaximum.1),
              slowest <= fastest else { return [] }
        var result = [fastest]
        let minimumInterval = Double(intervalMinimum.0) / Double(intervalMinimum.1)
        for fps in commonRates {
            let rate = FrameRateValue(fps)
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

/// Whether the encoder keeps up with the frames, judged in the first seconds of a recording
/// from each frame's lag as the encoder takes it: how long after its capture (its running
/// time) the encoder was ready for it. An encoder that keeps up has a steady lag; one that cannot makes the frames wait
/// in the recording's queue, and the lag grows by the time it loses each second, until
/// `LoadShedder` leaves frames out to keep the movie in time. A camera that delivers fewer frames
/// (low light) does not grow the lag: only the encoder's own pace is judged.
///
/// Plain values in (running times and lags in nanoseconds), one finding out, once.
public struct EncoderPace: Sendable, Equatable {
    /// What the first seconds showed.
    public enum Finding: Sendable, Equatable {
        /// The lag grew by `behindBy` or more: the encoder manages about `framesPerSecond`.
        case behind(framesPerSecond: Double)
        /// The window passed with a steady lag.
        case keepsUp
    }

    /// The movie's frames per second.
    public let rate: Double
    /// The encoder's start, not judged: its first frames wait for it to set up.
    public static let warmUp: UInt64 = 500_000_000
    /// After the warm-up, the lowest lag in this long is the baseline.
    public static let baselineLength: UInt64 = 500_000_000
    /// How long after the first encoded frame the pace is judged.
    public static let window: UInt64 = 5_000_000_000
    /// Growth of the lag over its baseline that means the encoder falls behind (a quarter of
    /// the recording's 2-s queue: a keyframe or a short stall costs a tenth of that).
    public static let behindBy: Int64 = 500_000_000

    private var first: UInt64?
    private var baseline: (lag: Int64, at: UInt64)?
    /// Frames the encoder took since the baseline's: its pace, while it is behind.
    private var taken = 0
    private(set) var finding: Finding?

    public init(rate: FrameRateValue) {
        self.rate = rate.framesPerSecond
    }

    public static func == (lhs: EncoderPace, rhs: EncoderPace) -> Bool {
        lhs.rate == rhs.rate && lhs.first == rhs.first && lhs.baseline?.lag == rhs.baseline?.lag
            && lhs.baseline?.at == rhs.baseline?.at && lhs.finding == rhs.finding
    }

    /// Notes a frame that left the encoder at running time `now`, `lag` after its capture;
    /// `shedding`: frames are being left out before the encoder (`LoadShedder`), which holds
    /// the lag down, so that the encoder is behind however little the lag grew. Returns the
    /// finding the first time there is one, then nil. The pace is the frames the encoder took
    /// since the baseline, per second: while it is behind it takes them as fast as it can.
    public mutating func note(lag: Int64, at now: UInt64, shedding: Bool = false) -> Finding? {
        guard finding == nil else { return nil }
        guard let first else {
            self.first = now
            return nil
        }
        let since = now >= first ? now - first : 0
        if since < Self.warmUp { return nil }
        if since < Self.warmUp + Self.baselineLength || baseline == nil {
            if baseline.map({ lag < $0.lag }) ?? true { (baseline, taken) = ((lag, now), 0) } else { taken += 1 }
            return nil
        }
        guard let baseline else { return nil }
        taken += 1
        let growth = lag - baseline.lag
        let span = now > baseline.at ? now - baseline.at : 0
        if growth >= Self.behindBy || (shedding && span >= Self.baselineLength) {
            let seconds = Double(max(span, 1)) / 1e9
            finding = .behind(framesPerSecond: min(rate, Double(taken) / seconds))
            return finding
        }
        if since >= Self.window {
            finding = .keepsUp
            return finding
        }
        return nil
    }

    /// The warning for people and scripts when the encoder falls behind.
    public static func warning(_ settings: EncoderSettings, rate: FrameRateValue, framesPerSecond: Double) -> String {
        let factory = settings.factory ?? "the encoder"
        let advice = EncoderPaceAdvice.cheaper(
            codec: settings.codec, factory: factory, hardware: settings.hardware,
            quality: settings.effort == nil ? settings.quality : nil, bitrateAsked: settings.bitrate != nil,
            rate: rate, framesPerSecond: framesPerSecond)
        return "encoder falling behind: \(factory) encodes about \(EffortChoice.rounded(framesPerSecond)) frames a second here (measured in the first seconds), the movie has \(rate): camrec will leave frames out evenly to keep the movie in time; \(advice)"
    }
}

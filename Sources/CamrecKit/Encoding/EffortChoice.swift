/// What `--quality auto` chose for an encoder: the first effort of its ladder (the best
/// picture) that encoded test frames fast enough to keep up with the recording's rate with
/// a margin, or, when none did, the fastest it measured (with a warning).
public struct EffortChoice: Sendable, Equatable {
    /// One effort tried, and the frames per second it encoded (nil: the trial did not run).
    public struct Tried: Sendable, Equatable {
        public var effort: EncoderEffort
        public var framesPerSecond: Double?

        public init(_ effort: EncoderEffort, _ framesPerSecond: Double?) {
            self.effort = effort
            self.framesPerSecond = framesPerSecond
        }
    }

    /// The effort chosen.
    public var effort: EncoderEffort
    /// Its measured frames per second (nil: no trial could run).
    public var framesPerSecond: Double?
    /// Whether it keeps up with the margin.
    public var keepsUp: Bool
    /// Every effort tried, in the order tried.
    public var tried: [Tried]
    /// The frames per second it needed (the rate times `margin`).
    public var needed: Double

    /// How much faster than the recording's rate a trial must encode: the trial feeds the
    /// test pattern, cheaper than a camera's noisy picture, to the encoder alone, without
    /// the camera's capture, the colour conversion and the muxer beside it.
    public static let margin = 1.5

    /// When nothing keeps up, the cheapest effort is taken if it was at least 1/1.15 as fast
    /// as the fastest.
    public static let tieMargin = 1.15

    /// Tries `ladder` in order with `measure` (frames per second of a timed trial, nil when
    /// it could not run) and takes the first that reaches `rate` × `margin`; the later ones
    /// are not tried. When none does, the fastest measured. Nil for an empty ladder; when
    /// no trial could run at all, the cheapest effort (`EncoderEffort.cheapest`), unmeasured.
    public static func choose(_ ladder: [EncoderEffort], rate: FrameRateValue,
                              measure: (EncoderEffort) -> Double?) -> EffortChoice? {
        let needed = rate.framesPerSecond * margin
        var tried: [Tried] = []
        for effort in ladder {
            let fps = measure(effort)
            tried.append(Tried(effort, fps))
            if let fps, fps >= needed {
                return EffortChoice(effort: effort, framesPerSecond: fps, keepsUp: true, tried: tried, needed: needed)
            }
        }
        // None keeps up: the fastest, but the cheapest (the least CPU a frame) when it was
        // about as fast, the trials being noisy on a busy machine (superfast and ultrafast
        // both measured 29 fps there once).
        let measured = tried.compactMap { tried in tried.framesPerSecond.map { (tried.effort, $0) } }
        guard var chosen = measured.max(by: { $0.1 < $1.1 }) else {
            guard let cheapest = EncoderEffort.cheapest(in: ladder) else { return nil }
            return EffortChoice(effort: cheapest, framesPerSecond: nil, keepsUp: false, tried: tried, needed: needed)
        }
        if let cheapest = measured.first(where: { $0.0 == EncoderEffort.cheapest(in: ladder) }),
           cheapest.1 * tieMargin >= chosen.1 {
            chosen = cheapest
        }
        return EffortChoice(effort: chosen.0, framesPerSecond: chosen.1, keepsUp: false, tried: tried, needed: needed)
    }

    /// For the `started` line's reason: "--quality auto: superfast, one thread (encoded 74
    /// test frames a second here, 45 needed)".
    public var reason: String {
        let measured = tried.map { tried in
            tried.effort.label + " " + (tried.framesPerSecond.map { "\(Self.rounded($0)) fps" } ?? "not measured")
        }
        return "--quality auto: \(effort.label) (timed here: " + measured.joined(separator: "; ")
            + "; \(Self.rounded(needed)) fps needed)"
    }

    /// The warning when even the cheapest effort is too slow: frames may be lost.
    public func warning(factory: String, codec: VideoCodec, size: FrameSize, rate: FrameRateValue) -> String? {
        guard !keepsUp else { return nil }
        guard let framesPerSecond else {
            return "\(factory) could not be timed on test frames here: recording at its cheapest effort (\(effort.label)); a warning follows if it falls behind"
        }
        return "\(factory) encoded only \(Self.rounded(framesPerSecond)) test frames a second here at its cheapest effort (\(effort.label)), for \(size) at \(rate) fps: frames may be lost; "
            + EncoderPaceAdvice.cheaper(codec: codec, factory: factory, hardware: false, quality: nil,
                                        rate: rate, framesPerSecond: framesPerSecond)
    }

    static func rounded(_ value: Double) -> String {
        value >= 9.95 ? String(Int(value.rounded())) : String(Double(Int((value * 10).rounded())) / 10)
    }
}

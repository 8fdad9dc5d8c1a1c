/// The cheaper setting a warning names when an encoder cannot keep up: the step that costs
/// less and is known to (`--quality auto` times the encoder and takes the effort that keeps
/// up; x264 costs under half x265's CPU; fewer frames a second cost proportionally less).
public enum EncoderPaceAdvice {
    /// "use --quality auto (…), --codec h264 (…) or --fps 15"; `quality` is the quality
    /// asked for (nil: `--quality auto` already, or none applies).
    public static func cheaper(codec: VideoCodec, factory: String, hardware: Bool, quality: Quality?,
                               bitrateAsked: Bool = false, rate: FrameRateValue, framesPerSecond: Double) -> String {
        var steps: [String] = []
        if !hardware, let quality, !EncoderEffort.ladder(for: factory).isEmpty {
            steps.append("--quality auto (camrec times \(factory) and lowers its effort until it keeps up)")
            if !bitrateAsked, let lower = quality.lower { steps.append("--quality \(lower.rawValue)") }
        }
        if codec == .h265, !hardware { steps.append("--codec h264 (x264 needs under half x265's CPU)") }
        if hardware { steps.append("--encoder software") }
        if let fps = fewerFrames(rate: rate, framesPerSecond: framesPerSecond) { steps.append("--fps \(fps)") }
        guard let last = steps.popLast() else { return "record a smaller size or fewer frames a second" }
        return "use " + (steps.isEmpty ? last : steps.joined(separator: ", ") + " or " + last)
    }

    /// A whole frame rate below what the encoder managed (with a tenth's margin) that the
    /// camera's rate can be thinned to evenly; nil when there is none above 1.
    static func fewerFrames(rate: FrameRateValue, framesPerSecond: Double) -> Int? {
        let limit = framesPerSecond * 0.9
        let full = rate.framesPerSecond
        guard limit < full else { return nil }
        // A rate that divides the camera's keeps every n-th frame: the gaps are even.
        let divisors = (2...30).map { full / Double($0) }.filter { $0 >= 1 && $0 <= limit && $0 == $0.rounded() }
        return divisors.first.map { Int($0) }
    }
}

extension Quality {
    /// The next quality down (fewer bits, and for x264 at max a faster preset); nil for low.
    public var lower: Quality? {
        switch self {
        case .low: nil
        case .medium: .low
        case .high: .medium
        case .max: .high
        }
    }
}

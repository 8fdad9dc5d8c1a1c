/// An exposure time a person typed: `1/60`, `10ms`, `0.5s`, `500us`. V4L2's
/// exposure_absolute counts 100 µs units, so times are kept in microseconds and rounded to
/// units only when written.
public struct ExposureTime: Sendable, Equatable, CustomStringConvertible {
    /// The time in microseconds.
    public let microseconds: Double

    /// A time of `microseconds`.
    public init(microseconds: Double) { self.microseconds = microseconds }

    /// Parses `1/60`, `1/60s`, `10ms`, `0.01s`, `500us`/`500µs`; nil for anything else
    /// (a bare number is not a time: it is the driver's own unit).
    public static func parse(_ text: String) -> ExposureTime? {
        let lowered = text.trimmingSpaces.lowercased()
        if let slash = lowered.firstIndex(of: "/") {
            var denominator = String(lowered[lowered.index(after: slash)...])
            if denominator.hasSuffix("s") { denominator.removeLast() }
            guard let top = Double(lowered[..<slash]), let bottom = Double(denominator), top > 0, bottom > 0,
                  top.isFinite, bottom.isFinite else { return nil }
            return ExposureTime(microseconds: top / bottom * 1_000_000)
        }
        let units: [(String, Double)] = [("ms", 1000), ("us", 1), ("µs", 1), ("s", 1_000_000)]
        for (suffix, scale) in units where lowered.hasSuffix(suffix) {
            guard let number = Double(lowered.dropLast(suffix.count)), number > 0, number.isFinite else { return nil }
            return ExposureTime(microseconds: number * scale)
        }
        return nil
    }

    /// The exposure_absolute value: 100 µs units, to the nearest unit.
    public var v4l2Units: Int64 { Int64((microseconds / 100).rounded()) }

    /// The time of `units` of 100 µs.
    public static func fromV4L2(_ units: Int64) -> ExposureTime { ExposureTime(microseconds: Double(units) * 100) }

    /// "1/60 s" for times under a second that are close to a whole fraction, else "12.5 ms" or "2 s".
    public var description: String {
        let seconds = microseconds / 1_000_000
        if seconds < 1 {
            let denominator = (1 / seconds).rounded()
            if denominator >= 2, abs(1 / denominator - seconds) / seconds < 0.02 { return "1/\(Int(denominator)) s" }
            let ms = (microseconds / 100).rounded() / 10
            return ms == ms.rounded() ? "\(Int(ms)) ms" : "\(ms) ms"
        }
        let rounded = (seconds * 10).rounded() / 10
        return rounded == rounded.rounded() ? "\(Int(rounded)) s" : "\(rounded) s"
    }
}

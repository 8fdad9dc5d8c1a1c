/// The `--max-duration` limit: how long a recording may run before it stops by itself.
public enum MaxDuration {
    /// The limit when `--max-duration` is not given: 10 minutes.
    public static let defaultLimit = TimeSpec.minutes(10)

    /// Words that mean "no limit", besides any zero duration.
    public static let unlimitedWords: Set<String> = ["none", "off", "unlimited"]

    /// Parses a limit: a duration as ``TimeSpec/parse(_:allowNegative:)`` reads it, or
    /// `0` (any zero duration), `none`, `off`, `unlimited` (any case) for no limit (`nil`).
    ///
    /// - Throws: ``ValueError`` for anything else, including negative durations.
    public static func parseLimit(_ text: String) throws(ValueError) -> TimeSpec? {
        let word = String(decoding: DecimalScanner.trimmedBytes(text), as: UTF8.self).lowercased()
        if unlimitedWords.contains(word) { return nil }
        let limit: TimeSpec
        do {
            limit = try TimeSpec.parse(text)
        } catch {
            throw ValueError(error.message + "; 0 or none means no limit")
        }
        return limit.nanoseconds == 0 ? nil : limit
    }

    /// How many frames a limit lets through at `rate`: the frames that start within the
    /// limit, to the nearest whole frame (3 s at 30 fps: 90; 0.034 s: 1), because camera
    /// timestamps jitter by a fraction of a frame.
    public static func frames(in limit: TimeSpec, at rate: FrameRateValue) -> Int {
        Int((limit.seconds * rate.framesPerSecond).rounded())
    }

    /// Checks that `limit` holds at least one frame at `rate`.
    ///
    /// - Throws: ``ValueError`` naming the shortest limit that works.
    public static func check(_ limit: TimeSpec?, at rate: FrameRateValue) throws(ValueError) {
        guard let limit else { return }
        let frame = 1 / max(rate.framesPerSecond, 1)
        if limit.seconds < frame {
            throw ValueError("--max-duration \(limit.description) is shorter than one frame at \(rate.description) fps ("
                             + String(cFormat: "%.3f s): give at least %.3f s, or 0 for no limit", frame, (frame * 1000).rounded(.up) / 1000))
        }
    }
}

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
}

/// A bitrate as people write it on a command line: `800k`, `4M`, `2.5M`, `1500000`.
/// Suffixes are decimal (k = 1000 bit/s, M = 1,000,000), as encoders and ffmpeg's `-b:v`
/// mean them; a plain number is bit/s; `bps`, `bit/s` and `b` after the suffix are accepted.
public enum BitRate {
    /// The lowest and highest bitrates accepted, in bit/s.
    public static let range: ClosedRange<Double> = 50_000...500_000_000

    /// Parses a bitrate and returns it in kbit/s.
    ///
    /// - Throws: ``ValueError`` saying what a bitrate looks like.
    public static func parseKilobits(_ text: String) throws(ValueError) -> Int {
        try parseKilobits(text, range: range, hint: "from 50k to 500M, e.g. 800k or 4M")
    }

    /// The sound bitrates accepted, in bit/s (Opus goes down to 6k; AAC and Opus up to 512k).
    public static let soundRange: ClosedRange<Double> = 6_000...512_000

    /// Parses a sound bitrate (`--audio-bitrate`: `96k`, `128000`) and returns it in kbit/s.
    public static func parseSoundKilobits(_ text: String) throws(ValueError) -> Int {
        try parseKilobits(text, range: soundRange, hint: "from 6k to 512k, e.g. 96k or 128k")
    }

    private static func parseKilobits(_ text: String, range: ClosedRange<Double>, hint: String) throws(ValueError) -> Int {
        let failure = ValueError("invalid bitrate '\(text)': use bits per second with k or M, \(hint)")
        var rest = Substring(text.lowercased().split(separator: " ").joined())
        for unit in ["bit/s", "bps", "b"] where rest.hasSuffix(unit) {
            rest = rest.dropLast(unit.count)
            break
        }
        var multiplier: Double = 1
        if rest.hasSuffix("k") {
            multiplier = 1000
            rest = rest.dropLast()
        } else if rest.hasSuffix("m") {
            multiplier = 1_000_000
            rest = rest.dropLast()
        }
        guard !rest.isEmpty, rest.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let number = Double(rest), number.isFinite else { throw failure }
        let bits = number * multiplier
        guard range.contains(bits) else { throw failure }
        return Int((bits / 1000).rounded())
    }
}

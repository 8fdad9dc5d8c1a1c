/// A length of time or a position in a recording, parsed once from the command line
/// (`600`, `90s`, `1h2m3s`, `00:10:00`, `-3`) and exact to the nanosecond.
///
/// A negative value counts back from the end (used by `trim --end -3`).
public struct TimeSpec: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The time in nanoseconds; negative means "before the end".
    public var nanoseconds: Int64

    /// Creates a time from nanoseconds.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// Zero.
    public static let zero = TimeSpec(nanoseconds: 0)

    /// A whole number of seconds.
    public static func seconds(_ seconds: Int64) -> TimeSpec {
        TimeSpec(nanoseconds: seconds * 1_000_000_000)
    }

    /// A whole number of minutes.
    public static func minutes(_ minutes: Int64) -> TimeSpec {
        seconds(minutes * 60)
    }

    /// Parses a duration or position.
    ///
    /// Accepted forms: seconds (`600`, `2.5`), units largest first, each at most once
    /// (`90s`, `10m`, `1h`, `1h2m3s`, `1m30.5s`, `500ms`), and clock time (`10:00` is
    /// mm:ss, `00:10:00`, `1:02:03.25`). Only the first field or unit may reach 60
    /// (`90:00` and `90s` are fine, `00:61:00` and `1m61s` are not); only the last may
    /// have a fraction, of at most 9 digits. With `allowNegative`, a leading `-` counts
    /// back from the end (`-3`, `-0:05`); `-0` is rejected since it would mean the end
    /// yet equal the start.
    ///
    /// - Throws: ``ValueError`` naming the text and showing valid forms.
    public static func parse(_ text: String, allowNegative: Bool = false) throws(ValueError) -> TimeSpec {
        do {
            return try TimeSpecParser.parse(text, allowNegative: allowNegative)
        } catch {
            let kind = allowNegative ? "time" : "duration"
            let reason = error.reason.map { "\($0); " } ?? ""
            let forms = allowNegative
                ? "use seconds (600), units (90s, 10m, 1h2m3s), hh:mm:ss (00:10:00)"
                    + " or a leading '-' to count back from the end (-3, -0:05)"
                : "use seconds (600), units (90s, 10m, 1h2m3s) or hh:mm:ss (00:10:00)"
            throw ValueError("invalid \(kind) '\(text)': \(reason)\(forms)")
        }
    }

    /// The time in seconds, for display and arithmetic that need not be exact.
    public var seconds: Double {
        Double(nanoseconds) / 1_000_000_000
    }

    /// The same time as a Swift `Duration`.
    public var duration: Duration {
        .nanoseconds(nanoseconds)
    }

    /// Whether this counts back from the end.
    public var isNegative: Bool { nanoseconds < 0 }

    /// Orders by nanoseconds.
    public static func < (lhs: TimeSpec, rhs: TimeSpec) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// A short form that ``parse(_:allowNegative:)`` reads back: `0s`, `500ms`,
    /// `2.5s`, `10m`, `1m05s`, `1h02m03s`, `1h`, `-3s`.
    public var description: String {
        let sign = nanoseconds < 0 ? "-" : ""
        let magnitude = nanoseconds.magnitude
        let perSecond: UInt64 = 1_000_000_000
        let fraction = magnitude % perSecond
        let totalSeconds = magnitude / perSecond
        let hours = totalSeconds / 3600
        let minutes = totalSeconds / 60 % 60
        let seconds = totalSeconds % 60
        if magnitude == 0 { return "0s" }
        if totalSeconds == 0, fraction % 1_000_000 == 0 {
            return "\(sign)\(fraction / 1_000_000)ms"
        }
        var text = sign
        var leading = true
        if hours > 0 {
            text += "\(hours)h"
            leading = false
        }
        if minutes > 0 || (!leading && (seconds > 0 || fraction > 0)) {
            text += (leading ? "\(minutes)" : Self.twoDigits(minutes)) + "m"
            leading = false
        }
        if seconds > 0 || fraction > 0 {
            text += (leading ? "\(seconds)" : Self.twoDigits(seconds)) + Self.fractionDigits(fraction) + "s"
        }
        return text
    }

    private static func twoDigits(_ value: UInt64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// `.25` for 250_000_000 ns, empty for 0.
    private static func fractionDigits(_ nanoseconds: UInt64) -> String {
        guard nanoseconds > 0 else { return "" }
        var digits = String(nanoseconds)
        digits = String(repeating: "0", count: 9 - digits.count) + digits
        while digits.last == "0" { digits.removeLast() }
        return "." + digits
    }
}

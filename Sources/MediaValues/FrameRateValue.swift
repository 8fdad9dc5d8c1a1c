/// A frame rate as an exact fraction of frames per second, the way GStreamer caps and
/// V4L2 express it: `30` is 30/1, `7.5` is 15/2, `30000/1001` stays 30000/1001.
///
/// The fraction is reduced on creation, so 60/2 and 30/1 are the same value (equal, same
/// hash): a camera's rates and a user's request compare as numbers. V4L2 reports frame
/// *intervals* (seconds per frame); ``init(intervalNumerator:intervalDenominator:)`` inverts them.
public struct FrameRateValue: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// Frames, in lowest terms with ``denominator``.
    public let numerator: Int
    /// Per this many seconds; always positive.
    public let denominator: Int

    /// The highest rate ``parse(_:)`` accepts, in frames per second.
    public static let maximum = 1000

    /// Creates a rate, reduced to lowest terms; `denominator` must be positive.
    public init(numerator: Int, denominator: Int) {
        precondition(denominator > 0, "a frame rate's denominator must be positive")
        let divisor = Self.gcd(numerator.magnitude, denominator.magnitude)
        self.numerator = numerator / Int(divisor)
        self.denominator = denominator / Int(divisor)
    }

    /// A whole number of frames per second (`30` is 30/1); `framesPerSecond` must be positive.
    public init(_ framesPerSecond: Int) {
        precondition(framesPerSecond > 0, "a whole frame rate must be positive")
        self.init(numerator: framesPerSecond, denominator: 1)
    }

    /// The rate for a frame interval of `intervalNumerator/intervalDenominator` seconds per
    /// frame, as V4L2 reports it (1/30 s is 30 fps); nil unless both are positive.
    public init?(intervalNumerator: Int, intervalDenominator: Int) {
        guard intervalNumerator > 0, intervalDenominator > 0 else { return nil }
        self.init(numerator: intervalDenominator, denominator: intervalNumerator)
    }

    /// Parses `30`, `7.5`, `29.97`, `30000/1001` (an optional `fps` suffix is ignored).
    /// Decimals are exact (`12.5` is 25/2), except that the NTSC rates written with
    /// decimals (`23.976`, `29.97`, `59.94`, …) mean what cameras mean by them:
    /// N×1000/1001 (`29.97` is 30000/1001). That applies to a decimal with at least two
    /// digits after the point, not a whole number, equal to N×1000/1001 rounded to the
    /// digits typed; `29.98` stays 1499/50 and `2997/100` can always be written.
    /// The rate must be above 0 and at most 1000.
    ///
    /// - Throws: ``ValueError`` naming the text and showing valid forms.
    public static func parse(_ text: String) throws(ValueError) -> FrameRateValue {
        var bytes = DecimalScanner.trimmedBytes(text)
        if String(decoding: bytes.suffix(3), as: UTF8.self).lowercased() == "fps" {
            bytes = bytes.dropLast(3)
            while bytes.last == UInt8(ascii: " ") { bytes = bytes.dropLast() }
        }
        let rate: FrameRateValue
        do {
            if let fraction = try fraction(bytes) {
                rate = fraction
            } else {
                rate = try decimal(bytes)
            }
        } catch .overflow {
            throw invalid(text, "it must be at most \(maximum)")
        } catch {
            throw invalid(text)
        }
        guard rate.numerator > 0 else { throw invalid(text, "it must be above 0") }
        guard rate.numerator <= maximum * rate.denominator else {
            throw invalid(text, "it must be at most \(maximum)")
        }
        return rate
    }

    /// Frames per second as a floating-point number (29.97002997… for 30000/1001).
    public var framesPerSecond: Double {
        Double(numerator) / Double(denominator)
    }

    /// Orders by value, exactly (no floating point; products are full width, so the kernel's
    /// 32-bit fractions cannot overflow).
    public static func < (lhs: FrameRateValue, rhs: FrameRateValue) -> Bool {
        lhs.numerator.multipliedFullWidth(by: rhs.denominator) < rhs.numerator.multipliedFullWidth(by: lhs.denominator)
    }

    /// Whether this rate satisfies a wish for `wanted`, allowing ``tolerance`` below it so
    /// that NTSC-style rates count: 30000/1001 (29.97) meets a request for 30.
    public func meets(_ wanted: FrameRateValue) -> Bool {
        framesPerSecond >= wanted.framesPerSecond * (1 - Self.tolerance)
    }

    /// The relative shortfall still accepted by ``meets(_:)``: 1%.
    public static let tolerance = 0.01

    /// `30`, `7.5`, or `30000/1001`: the shortest form ``parse(_:)`` reads back as this rate.
    public var description: String {
        if denominator == 1 { return "\(numerator)" }
        if let decimal = decimalText, (try? Self.parse(decimal)) == self { return decimal }
        return "\(numerator)/\(denominator)"
    }

    /// The exact fraction as GStreamer caps write it: `30/1`, `30000/1001`.
    public var fraction: String { "\(numerator)/\(denominator)" }

    /// Frames per second rounded to two decimals, for JSON output (29.97, 30, 7.5).
    public var roundedValue: Double { (framesPerSecond * 100).rounded() / 100 }

    /// Frames per second as people read it in a camera's listing and the format chooser's
    /// messages: at most two decimals, no trailing zeros (`30`, `29.97`, `7.5`, `6.25`).
    /// Unlike ``description`` it is not exact: 30000/1001 is `29.97`, 1001/1000 is `1`.
    public var roundedDescription: String {
        let rounded = (framesPerSecond * 100).rounded()
        // Beyond any real rate (and what the kernel's 32-bit fractions can give): exact text.
        guard let hundredths = UInt64(exactly: rounded.magnitude) else { return description }
        let sign = rounded < 0 ? "-" : ""
        let whole = hundredths / 100
        let rest = hundredths % 100
        if rest == 0 { return "\(sign)\(whole)" }
        if rest % 10 == 0 { return "\(sign)\(whole).\(rest / 10)" }
        return rest < 10 ? "\(sign)\(whole).0\(rest)" : "\(sign)\(whole).\(rest)"
    }

    // MARK: - Parsing

    private enum Failure: Error {
        case malformed, overflow, fractionTooLong
    }

    /// Largest numerator or denominator: GStreamer fractions are `gint`s.
    private static let fieldLimit = Int64(Int32.max)
    /// Enough for any real rate; keeps decimals within `gint` fractions.
    private static let maximumFractionDigits = 6

    /// `N/D`, or `nil` when the text has no `/`.
    private static func fraction(_ bytes: ArraySlice<UInt8>) throws(Failure) -> FrameRateValue? {
        let parts = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard parts.count > 1 else { return nil }
        guard parts.count == 2 else { throw .malformed }
        let numerator = try integer(parts[0])
        let denominator = try integer(parts[1])
        guard denominator > 0 else { throw .malformed }
        return FrameRateValue(numerator: Int(numerator), denominator: Int(denominator))
    }

    private static func decimal(_ bytes: ArraySlice<UInt8>) throws(Failure) -> FrameRateValue {
        let number: DecimalScanner.Number
        do {
            number = try DecimalScanner.decimal(bytes)
        } catch .overflow {
            throw .overflow
        } catch {
            throw .malformed
        }
        let places = number.fractionDigits.count
        guard number.whole <= Int64(maximum), places <= maximumFractionDigits,
            let fraction = DecimalScanner.scaledFraction(number.fractionDigits, places: places)
        else {
            throw number.whole > Int64(maximum) ? .overflow : .fractionTooLong
        }
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = number.whole * scale + fraction
        // Two digits at least, and not a whole number: `30.0` and `59.9` stay exact.
        if places >= 2, fraction != 0, let ntsc = ntscRate(scaled: scaled, scale: scale) { return ntsc }
        return FrameRateValue(numerator: Int(scaled), denominator: Int(scale))
    }

    /// N×1000/1001 when `scaled / scale` is that rate rounded to the digits typed
    /// (29.97 → 30000/1001, 59.940 → 60000/1001; 29.98 and 7.5 are not NTSC rates).
    private static func ntscRate(scaled: Int64, scale: Int64) -> FrameRateValue? {
        let n = (scaled * 1001 + 500 * scale) / (1000 * scale)
        guard n > 0 else { return nil }
        let rounded = (n * 1000 * scale * 2 + 1001) / (2 * 1001)
        guard rounded == scaled else { return nil }
        return FrameRateValue(numerator: Int(n * 1000), denominator: 1001)
    }

    private static func integer(_ bytes: ArraySlice<UInt8>) throws(Failure) -> Int64 {
        let value: Int64
        do {
            value = try DecimalScanner.integer(bytes)
        } catch .overflow {
            throw .overflow
        } catch {
            throw .malformed
        }
        guard value <= fieldLimit else { throw .overflow }
        return value
    }

    private static func invalid(_ text: String, _ reason: String? = nil) -> ValueError {
        let reason = reason.map { "\($0); " } ?? ""
        return ValueError(
            "invalid frame rate '\(text)': \(reason)use frames per second (30, 29.97, 7.5) or a fraction (30000/1001)"
        )
    }

    /// The exact decimal form when the denominator has only the factors 2 and 5.
    private var decimalText: String? {
        var rest = denominator
        var twos = 0, fives = 0
        while rest % 2 == 0 { rest /= 2; twos += 1 }
        while rest % 5 == 0 { rest /= 5; fives += 1 }
        guard rest == 1 else { return nil }
        let places = max(twos, fives)
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = numerator * (scale / denominator)
        var fraction = String(scaled % scale)
        fraction = String(repeating: "0", count: places - fraction.count) + fraction
        return "\(scaled / scale).\(fraction)"
    }

    private static func gcd(_ a: UInt, _ b: UInt) -> UInt {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return max(a, 1)
    }
}

/// The grammar behind ``TimeSpec/parse(_:allowNegative:)``.
enum TimeSpecParser {
    /// Why a text is not a time; `reason` is shown before the list of valid forms.
    struct Failure: Error {
        var reason: String?
    }

    static let nanosecondsPerSecond: Int64 = 1_000_000_000

    static func parse(_ text: String, allowNegative: Bool) throws(Failure) -> TimeSpec {
        var bytes = DecimalScanner.trimmedBytes(text)
        guard !bytes.isEmpty else { throw Failure(reason: "it is empty") }
        var negative = false
        if bytes.first == UInt8(ascii: "-") {
            guard allowNegative else { throw Failure(reason: "it must not be negative") }
            negative = true
            bytes = bytes.dropFirst()
            guard !bytes.isEmpty else { throw Failure(reason: nil) }
        }
        let magnitude: Int64
        if bytes.contains(UInt8(ascii: ":")) {
            magnitude = try clock(bytes)
        } else if let last = bytes.last, DecimalScanner.isDigit(last) {
            magnitude = try component(bytes, unitNanoseconds: nanosecondsPerSecond)
        } else {
            magnitude = try units(bytes)
        }
        if negative {
            guard magnitude != 0 else {
                throw Failure(reason: "a negative time must not be zero (-3 is 3 seconds before the end)")
            }
            return TimeSpec(nanoseconds: -magnitude)
        }
        return TimeSpec(nanoseconds: magnitude)
    }

    /// `10:00` (mm:ss) or `00:10:00` (hh:mm:ss), the last field optionally with a fraction.
    /// The leading field may have any number of digits; the others exactly two, below 60.
    private static func clock(_ bytes: ArraySlice<UInt8>) throws(Failure) -> Int64 {
        let fields = bytes.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3 else { throw Failure(reason: nil) }
        let names = fields.count == 3 ? ["hours", "minutes", "seconds"] : ["minutes", "seconds"]
        let unitSeconds: [Int64] = fields.count == 3 ? [3600, 60, 1] : [60, 1]
        var total: Int64 = 0
        for (index, field) in fields.enumerated() {
            let isLast = index == fields.count - 1
            if index > 0 {
                // Exactly two digits before any fraction: `1:5` is more likely a typo than 1:05.
                let wholeDigits = field.prefix { $0 != UInt8(ascii: ".") }
                guard wholeDigits.count == 2 else { throw Failure(reason: nil) }
            }
            if !isLast && field.contains(UInt8(ascii: ".")) {
                throw Failure(reason: "only the last field may have a fraction")
            }
            let nanoseconds = unitSeconds[index] * nanosecondsPerSecond
            if index > 0 {
                let whole = try number(field).whole
                guard whole < 60 else { throw Failure(reason: "\(names[index]) must be below 60") }
            }
            total = try add(total, component(field, unitNanoseconds: nanoseconds))
        }
        return total
    }

    private enum Unit: Int {
        case hours, minutes, seconds, milliseconds

        init?(_ letters: ArraySlice<UInt8>) {
            switch String(decoding: letters, as: UTF8.self) {
            case "h": self = .hours
            case "m": self = .minutes
            case "s": self = .seconds
            case "ms": self = .milliseconds
            default: return nil
            }
        }

        var nanoseconds: Int64 {
            switch self {
            case .hours: 3600 * TimeSpecParser.nanosecondsPerSecond
            case .minutes: 60 * TimeSpecParser.nanosecondsPerSecond
            case .seconds: TimeSpecParser.nanosecondsPerSecond
            case .milliseconds: 1_000_000
            }
        }

        /// The bound for a unit that follows a larger one (`1m59s`, `1s999ms`).
        var limitAfterLarger: Int64 { self == .milliseconds ? 1000 : 60 }

        var name: String {
            switch self {
            case .hours: "hours"
            case .minutes: "minutes"
            case .seconds: "seconds"
            case .milliseconds: "milliseconds"
            }
        }
    }

    /// `90s`, `1h2m3s`, `1m30.5s`, `500ms`: numbers each followed by a unit, largest first.
    private static func units(_ bytes: ArraySlice<UInt8>) throws(Failure) -> Int64 {
        var rest = bytes
        var previous: Unit?
        var total: Int64 = 0
        var sawFraction = false
        while !rest.isEmpty {
            let numberPart = rest.prefix { DecimalScanner.isDigit($0) || $0 == UInt8(ascii: ".") }
            rest = rest.dropFirst(numberPart.count)
            let letters = rest.prefix { !DecimalScanner.isDigit($0) && $0 != UInt8(ascii: ".") }
            rest = rest.dropFirst(letters.count)
            guard !numberPart.isEmpty, let unit = Unit(letters) else { throw Failure(reason: nil) }
            if let previous, unit.rawValue <= previous.rawValue {
                throw Failure(reason: "give each unit at most once, largest first (1h2m3s)")
            }
            if sawFraction {
                throw Failure(reason: "only the last unit may have a fraction")
            }
            sawFraction = numberPart.contains(UInt8(ascii: "."))
            if previous != nil {
                guard try number(numberPart).whole < unit.limitAfterLarger else {
                    throw Failure(reason: "\(unit.name) after a larger unit must be below \(unit.limitAfterLarger)")
                }
            }
            total = try add(total, component(numberPart, unitNanoseconds: unit.nanoseconds))
            previous = unit
        }
        return total
    }

    /// A decimal number of units in nanoseconds, exactly.
    private static func component(_ bytes: ArraySlice<UInt8>, unitNanoseconds: Int64) throws(Failure) -> Int64 {
        let value = try number(bytes)
        guard let fraction = DecimalScanner.scaledFraction(value.fractionDigits, places: 9) else {
            throw Failure(reason: "use at most 9 digits after the decimal point")
        }
        let (whole, overflow) = value.whole.multipliedReportingOverflow(by: unitNanoseconds)
        guard !overflow else { throw tooLong }
        // fraction (< 1e9) × unit (≤ 3.6e12) needs 128 bits before dividing back down.
        let product = fraction.multipliedFullWidth(by: unitNanoseconds)
        let (part, remainder) = nanosecondsPerSecond.dividingFullWidth(product)
        guard remainder == 0 else { throw Failure(reason: "it is more precise than a nanosecond") }
        return try add(whole, part)
    }

    private static func number(_ bytes: ArraySlice<UInt8>) throws(Failure) -> DecimalScanner.Number {
        do {
            return try DecimalScanner.decimal(bytes)
        } catch .overflow {
            throw tooLong
        } catch {
            throw Failure(reason: nil)
        }
    }

    private static func add(_ a: Int64, _ b: Int64) throws(Failure) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        guard !overflow else { throw tooLong }
        return sum
    }

    private static var tooLong: Failure {
        Failure(reason: "it is too long (at most about 292 years)")
    }
}

import CamrecKit
import Testing

private let second: Int64 = 1_000_000_000
private let durationForms = "use seconds (600), units (90s, 10m, 1h2m3s) or hh:mm:ss (00:10:00)"
private let timeForms =
    "use seconds (600), units (90s, 10m, 1h2m3s), hh:mm:ss (00:10:00) or a leading '-' to count back from the end (-3, -0:05)"

@Suite("TimeSpec.parse")
struct TimeSpecParseValuesTests {
    static let valid: [(text: String, nanoseconds: Int64)] = [
        ("600", 600 * second),
        ("0", 0),
        ("2.5", 2_500_000_000),
        ("0.000000001", 1),
        ("1.123456789", 1_123_456_789),
        ("007", 7 * second),
        ("90s", 90 * second),
        ("10m", 600 * second),
        ("1h", 3600 * second),
        ("1h2m3s", 3723 * second),
        ("1h02m03s", 3723 * second),
        ("1m30.5s", 90_500_000_000),
        ("500ms", 500_000_000),
        ("1.5ms", 1_500_000),
        ("1s500ms", 1_500_000_000),
        ("1.5h", 5400 * second),
        ("2h30m", 9000 * second),
        ("1h5s", 3605 * second),
        ("90m", 5400 * second),
        ("0s", 0),
        ("00:10:00", 600 * second),
        ("10:00", 600 * second),
        ("0:05", 5 * second),
        ("90:00", 5400 * second),
        ("00:00:02.500", 2_500_000_000),
        ("1:02:03.25", 3723 * second + 250_000_000),
        ("61:00:00", 61 * 3600 * second),
        ("100:59:59.999999999", (100 * 3600 + 59 * 60 + 59) * second + 999_999_999),
        ("  10m ", 600 * second),
        ("9223372036.854775807", Int64.max),
        ("2562047h47m16.854775807s", Int64.max),
    ]

    @Test(arguments: valid)
    func parsesValid(_ text: String, nanoseconds: Int64) throws {
        #expect(try TimeSpec.parse(text).nanoseconds == nanoseconds)
        #expect(try TimeSpec.parse(text, allowNegative: true).nanoseconds == nanoseconds)
    }

    static let negative: [(text: String, nanoseconds: Int64)] = [
        ("-3", -3 * second),
        ("-0:05", -5 * second),
        ("-2.5", -2_500_000_000),
        ("-1h", -3600 * second),
        ("-500ms", -500_000_000),
        ("-00:00:03.5", -3_500_000_000),
        (" -3 ", -3 * second),
    ]

    @Test(arguments: negative)
    func parsesNegativeWhenAllowed(_ text: String, nanoseconds: Int64) throws {
        #expect(try TimeSpec.parse(text, allowNegative: true).nanoseconds == nanoseconds)
        #expect(throws: ValueError("invalid duration '\(text)': it must not be negative; \(durationForms)")) {
            try TimeSpec.parse(text)
        }
    }

    static let invalid: [(text: String, reason: String?)] = [
        ("", "it is empty"),
        ("   ", "it is empty"),
        ("10q", nil),
        ("abc", nil),
        ("nan", nil),
        ("inf", nil),
        ("infinity", nil),
        ("1e3", nil),
        ("0x10", nil),
        ("+5", nil),
        ("5.", nil),
        (".5", nil),
        ("1..5", nil),
        ("1.2.3", nil),
        ("1 0", nil),
        ("1 h", nil),
        ("10M", nil),
        ("1hour", nil),
        ("1h30", nil),
        ("h", nil),
        ("s", nil),
        ("1h1h", "give each unit at most once, largest first (1h2m3s)"),
        ("3s2m", "give each unit at most once, largest first (1h2m3s)"),
        ("1m1m", "give each unit at most once, largest first (1h2m3s)"),
        ("1.5h30m", "only the last unit may have a fraction"),
        ("1m61s", "seconds after a larger unit must be below 60"),
        ("1h60m", "minutes after a larger unit must be below 60"),
        ("1s1000ms", "milliseconds after a larger unit must be below 1000"),
        ("00:61:00", "minutes must be below 60"),
        ("00:00:60", "seconds must be below 60"),
        ("10:60", "seconds must be below 60"),
        ("1:5", nil),
        ("1:005", nil),
        ("10:", nil),
        (":30", nil),
        ("1:2:3:4", nil),
        ("1::00", nil),
        ("1.5:00", "only the last field may have a fraction"),
        ("1:00.5:00", "only the last field may have a fraction"),
        ("00:00:02.", nil),
        ("1:-5", nil),
        ("0.1234567891", "use at most 9 digits after the decimal point"),
        ("1.0000000000s", "use at most 9 digits after the decimal point"),
        ("1.0000001ms", "it is more precise than a nanosecond"),
        ("9223372037", "it is too long (at most about 292 years)"),
        ("99999999999999999999999", "it is too long (at most about 292 years)"),
        ("2562048h", "it is too long (at most about 292 years)"),
        ("2562047h47m17s", "it is too long (at most about 292 years)"),
        ("3000000:00:00", "it is too long (at most about 292 years)"),
        ("١٢", nil),  // Arabic-Indic digits are not ASCII digits
        ("5s\u{0}", nil),
    ]

    @Test(arguments: invalid)
    func rejectsInvalid(_ text: String, reason: String?) {
        let reason = reason.map { "\($0); " } ?? ""
        #expect(throws: ValueError("invalid duration '\(text)': \(reason)\(durationForms)")) {
            try TimeSpec.parse(text)
        }
        #expect(throws: ValueError("invalid time '\(text)': \(reason)\(timeForms)")) {
            try TimeSpec.parse(text, allowNegative: true)
        }
    }

    @Test(arguments: ["-", "--3", "-+3", "- 3", "-x", "-0", "-0:00", "-0s", "-00:00:00.000"])
    func rejectsBadNegatives(_ text: String) throws {
        let error = #expect(throws: ValueError.self) { try TimeSpec.parse(text, allowNegative: true) }
        #expect(error?.message.hasPrefix("invalid time '\(text)': ") == true)
    }

    @Test func negativeZeroSaysWhy() {
        #expect(throws: ValueError(
            "invalid time '-0': a negative time must not be zero (-3 is 3 seconds before the end); \(timeForms)"
        )) { try TimeSpec.parse("-0", allowNegative: true) }
    }

    @Test func exampleMessageFromTheSpec() {
        #expect(throws: ValueError(
            "invalid duration '10q': use seconds (600), units (90s, 10m, 1h2m3s) or hh:mm:ss (00:10:00)"
        )) { try TimeSpec.parse("10q") }
    }
}

@Suite("TimeSpec values")
struct TimeSpecValuesTests {
    static let descriptions: [(nanoseconds: Int64, text: String)] = [
        (0, "0s"),
        (1, "0.000000001s"),
        (1_000_000, "1ms"),
        (500_000_000, "500ms"),
        (1_500_000, "0.0015s"),
        (2_500_000_000, "2.5s"),
        (10 * second, "10s"),
        (59 * second, "59s"),
        (60 * second, "1m"),
        (90 * second, "1m30s"),
        (65 * second, "1m05s"),
        (90_500_000_000, "1m30.5s"),
        (600 * second, "10m"),
        (3600 * second, "1h"),
        (3723 * second, "1h02m03s"),
        (3723 * second + 250_000_000, "1h02m03.25s"),
        (3605 * second, "1h00m05s"),
        (3720 * second, "1h02m"),
        (3600 * second + 1, "1h00m00.000000001s"),
        (100 * 3600 * second, "100h"),
        (-3 * second, "-3s"),
        (-5 * second, "-5s"),
        (-500_000_000, "-500ms"),
        (-3723 * second, "-1h02m03s"),
        (Int64.max, "2562047h47m16.854775807s"),
        (Int64.min, "-2562047h47m16.854775808s"),
    ]

    @Test(arguments: descriptions)
    func description(_ nanoseconds: Int64, text: String) {
        #expect(TimeSpec(nanoseconds: nanoseconds).description == text)
    }

    /// Every description except Int64.min's parses back to the same value.
    @Test(arguments: descriptions.filter { $0.nanoseconds != Int64.min })
    func descriptionRoundTrips(_ nanoseconds: Int64, text: String) throws {
        #expect(try TimeSpec.parse(text, allowNegative: true).nanoseconds == nanoseconds)
    }

    @Test func roundTripsManyValues() throws {
        var value: Int64 = 1
        var generator = SplitMix64(seed: 42)
        for _ in 0..<2000 {
            value = Int64(bitPattern: generator.next()) >> Int64(generator.next() % 60)
            if value == 0 || value == Int64.min { continue }
            let spec = TimeSpec(nanoseconds: value)
            #expect(try TimeSpec.parse(spec.description, allowNegative: true) == spec, "\(value)")
        }
    }

    @Test func secondsAndDuration() {
        #expect(TimeSpec(nanoseconds: 2_500_000_000).seconds == 2.5)
        #expect(TimeSpec(nanoseconds: -3 * second).seconds == -3)
        #expect(TimeSpec(nanoseconds: 1_500_000_000).duration == .milliseconds(1500))
        #expect(TimeSpec.seconds(90) == TimeSpec(nanoseconds: 90 * second))
        #expect(TimeSpec.minutes(10) == TimeSpec.seconds(600))
        #expect(TimeSpec.zero.nanoseconds == 0)
        #expect(TimeSpec(nanoseconds: -1).isNegative)
        #expect(!TimeSpec.zero.isNegative)
    }

    @Test func ordering() throws {
        let sorted = try ["1h", "-3", "90s", "0", "1:00", "500ms"].map { (text: String) throws(ValueError) in
            try TimeSpec.parse(text, allowNegative: true)
        }.sorted()
        #expect(sorted.map(\.description) == ["-3s", "0s", "500ms", "1m", "1m30s", "1h"])
        #expect(try TimeSpec.parse("1:30") == TimeSpec.parse("90s"))
        #expect(Set([TimeSpec.seconds(60), TimeSpec.minutes(1)]).count == 1)
    }
}

@Suite("MaxDuration.parseLimit")
struct MaxDurationValuesTests {
    @Test(arguments: ["0", "0s", "00:00:00", "0.0", "none", "off", "unlimited", "None", "OFF", "Unlimited", " none "])
    func noLimit(_ text: String) throws {
        #expect(try MaxDuration.parseLimit(text) == nil)
    }

    @Test(arguments: [("600", 600 * second), ("10m", 600 * second), ("1:00:00", 3600 * second), ("0.5", 500_000_000)])
    func limit(_ text: String, nanoseconds: Int64) throws {
        #expect(try MaxDuration.parseLimit(text) == TimeSpec(nanoseconds: nanoseconds))
    }

    @Test(arguments: ["-5", "never", "10q", "", "nonee"])
    func invalid(_ text: String) {
        let error = #expect(throws: ValueError.self) { try MaxDuration.parseLimit(text) }
        #expect(error?.message.hasPrefix("invalid duration '\(text)': ") == true)
        #expect(error?.message.hasSuffix("; 0 or none means no limit") == true)
    }

    @Test func defaultIsTenMinutes() {
        #expect(MaxDuration.defaultLimit == TimeSpec.seconds(600))
        #expect(MaxDuration.defaultLimit.description == "10m")
    }
}

/// A small deterministic generator so the round-trip test is reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// `--schedule SPEC`: the windows of the week a run records in, as written (`mon-fri
/// 07:30-18:00, sat 09:00-13:00`), read once. A value: where the windows fall on the
/// calendar is ``windows(around:zone:)``'s, in a zone given explicitly.
///
/// SPEC is a list of day sets, each followed by one or more time ranges: days are `mon`
/// … `sun` (or their full names), ranges (`mon-fri`, `fri-mon` wraps), lists (`sat,sun`
/// or `sat sun`) and `daily`; times are `HH:MM` or `HH:MM:SS`, an end may be `24:00`; an
/// end before the start goes over midnight and belongs to the day it starts on
/// (`fri 22:00-06:00` ends on Saturday). Times without days are every day's. Commas and
/// spaces separate the parts alike.
public struct Schedule: Sendable, Equatable {
    /// One window of the week.
    public struct Rule: Sendable, Equatable {
        /// Its day: 0 for Monday … 6 for Sunday.
        public var day: Int
        /// Its start, in seconds after that day's midnight (local time).
        public var start: Int
        /// Its end, in seconds after that day's midnight: above 86 400 over midnight.
        public var end: Int

        public init(day: Int, start: Int, end: Int) {
            self.day = day
            self.start = start
            self.end = end
        }
    }

    /// The windows, in the order written, one per day.
    public let rules: [Rule]
    /// SPEC as given.
    public let spec: String

    /// The example every refusal shows.
    static let example = "--schedule \"mon-fri 07:30-18:00, sat 09:00-13:00\""

    /// The day names, Monday first.
    static let dayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let fullNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// Reads SPEC.
    ///
    /// - Throws: ``ValueError`` saying what is wrong, with an example that works.
    public init(parsing spec: String) throws(ValueError) {
        self.spec = spec
        let words = spec.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init)
        guard !words.isEmpty else {
            throw ValueError("give the days and times to record, e.g. \(Self.example)")
        }
        var rules: [Rule] = []
        var days: [Int] = []
        var dayWords: [String] = []
        var afterTimes = false
        for word in words {
            if let first = word.first, first.isNumber {
                let (start, end) = try Self.range(word)
                // Times without days: every day.
                for day in days.isEmpty ? Array(0..<7) : days {
                    rules.append(Rule(day: day, start: start, end: end))
                }
                afterTimes = true
                continue
            }
            if afterTimes {
                days = []
                dayWords = []
                afterTimes = false
            }
            for day in try Self.days(word) where !days.contains(day) { days.append(day) }
            dayWords.append(word)
        }
        if !afterTimes {
            throw ValueError("'\(dayWords.joined(separator: " "))' has no times: give them after the days, e.g. \(Self.example)")
        }
        self.rules = rules
    }

    /// The days of one word: a day, a range of days or `daily`.
    private static func days(_ word: String) throws(ValueError) -> [Int] {
        let lower = word.lowercased()
        if lower == "daily" { return Array(0..<7) }
        let parts = lower.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 2 else {
            throw ValueError("'\(word)' is not a day or a range of days: write mon-fri, e.g. \(Self.example)")
        }
        var found: [Int] = []
        for part in parts {
            guard let day = dayNames.firstIndex(of: part) ?? fullNames.firstIndex(of: part) else {
                throw ValueError("'\(part.isEmpty ? word : part)' is not a day: use mon tue wed thu fri sat sun, a range (mon-fri), a list (sat,sun) or daily, e.g. \(Self.example)")
            }
            found.append(day)
        }
        guard found.count == 2 else { return found }
        // A range may wrap past Sunday (fri-mon).
        let count = (found[1] - found[0] + 7) % 7 + 1
        return (0..<count).map { (found[0] + $0) % 7 }
    }

    /// A time range, `HH:MM-HH:MM` (or with seconds): the start and the end in seconds
    /// after the start day's midnight.
    private static func range(_ word: String) throws(ValueError) -> (Int, Int) {
        let parts = word.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else {
            throw ValueError("'\(word)' is not a time range: write START-END as HH:MM-HH:MM (07:30-18:00, 22:00-06:00 over midnight), e.g. \(Self.example)")
        }
        let start = try time(parts[0], in: word, end: false)
        var end = try time(parts[1], in: word, end: true)
        if end == start {
            throw ValueError("'\(word)' is a window of no time: give an end after the start (09:00-17:00), one over midnight (22:00-06:00) or 00:00-24:00 for the whole day")
        }
        if end < start { end += 86_400 }
        return (start, end)
    }

    /// `HH:MM` or `HH:MM:SS` in seconds after midnight; `24:00` only as an `end`.
    private static func time(_ text: String, in word: String, end: Bool) throws(ValueError) -> Int {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        let numbers = fields.map { field in field.allSatisfy(\.isASCII) && (1...2).contains(field.count) ? Int(field) : nil }
        let valid = (2...3).contains(fields.count) && numbers.allSatisfy { $0 != nil } && fields.dropFirst().allSatisfy { $0.count == 2 }
        guard valid, let hours = numbers[0], let minutes = numbers[1] else {
            throw ValueError("'\(text)' in '\(word)' is not a time: write HH:MM or HH:MM:SS (07:30, 18:00:30), e.g. \(Self.example)")
        }
        let seconds = numbers.count == 3 ? (numbers[2] ?? 0) : 0
        let total = hours * 3600 + minutes * 60 + seconds
        guard minutes < 60, seconds < 60, hours < 24 || (end && total == 86_400) else {
            throw ValueError("'\(text)' in '\(word)' is not a time of day: hours 00-23 (24:00 only as an end), minutes and seconds 00-59, e.g. \(Self.example)")
        }
        return total
    }
}

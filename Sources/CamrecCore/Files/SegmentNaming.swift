import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Names the movies of a segmented run (`--segment`): OUTPUT may hold strftime fields
/// (`cam-%Y%m%d-%H%M%S.mp4`, the segment's wall-clock start, local time or UTC) and/or one
/// counter with a width (`%04d`; `%d` alone is strftime's day of the month); a plain name
/// gets a counter: `NAME-0001.EXT`, `NAME-0002.EXT`, …
///
/// Fields are allowed in the file name only, not in the folder. `%%` is a literal `%`.
/// The same pattern also recognises the run's files (this run's and earlier runs'), for
/// retention and for continuing the counter after a restart.
public struct SegmentNaming: Sendable, Equatable {
    /// The folder the segments go to.
    public let folder: String
    /// The file-name pattern, with `{counter}` where the counter goes (strftime fields kept).
    let namePattern: String
    /// Minimum digits of the counter.
    let counterWidth: Int
    /// Whether the pattern holds a counter (given or added).
    package let hasCounter: Bool
    /// Use UTC for the time fields instead of local time.
    public let utc: Bool

    private static let counterMark = "\u{1}"

    /// Parses OUTPUT as a segment pattern.
    ///
    /// - Throws: a usage error for fields in the folder, more than one counter, a counter
    ///   other than `%d`/`%0Nd`, or an unknown field.
    public init(output: String, utc: Bool) throws(CamrecError) {
        let slash = output.lastIndex(of: "/")
        let folder = slash.map { $0 == output.startIndex ? "/" : String(output[..<$0]) } ?? "."
        let name = slash.map { String(output[output.index(after: $0)...]) } ?? output
        if folder.contains("%") {
            throw CamrecError(.usage, "'\(output)': time fields and counters are allowed in the file name only, not in the folder")
        }
        // A control character would be taken for the counter's mark (and is no name anyone
        // can type): refused, shown escaped.
        if let control = name.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            let shown = name.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F
                ? "\\x" + String($0.value, radix: 16, uppercase: true).leftPadded(2) : String($0) }.joined()
            throw CamrecError(.usage, "'\(shown)' holds a control character (\\x\(String(control.value, radix: 16, uppercase: true).leftPadded(2))): "
                              + "segment names take printable characters only; choose another name")
        }
        var pattern = ""
        var width = 0
        var counters = 0
        var fields = 0
        var chars = Array(name)[...]
        while let char = chars.popFirst() {
            guard char == "%" else {
                pattern.append(char)
                continue
            }
            var digits = ""
            while let next = chars.first, next.isNumber {
                digits.append(next)
                chars.removeFirst()
            }
            guard let field = chars.popFirst() else {
                throw CamrecError(.usage, "'\(output)' ends with a lone %: write %% for a percent sign")
            }
            if field == "d" && !digits.isEmpty {
                // %d alone is strftime's day of the month; the counter has a width.
                counters += 1
                width = Int(digits) ?? 1
                pattern += Self.counterMark
            } else if !digits.isEmpty {
                throw CamrecError(.usage, "'\(output)': only the counter takes digits (%04d); '%\(digits)\(field)' is not a field")
            } else if field == "%" {
                pattern += "%%"
            } else if Self.fieldDigits[field] != nil {
                fields += 1
                pattern += "%\(field)"
            } else {
                throw CamrecError(.usage, "'\(output)': %\(field) is not a time field camrec names files with; use %Y %m %d %H %M %S %y %j %s, %F (%Y-%m-%d), %T (%H:%M:%S), or %04d for a counter")
            }
        }
        if counters > 1 {
            throw CamrecError(.usage, "'\(output)' has \(counters) counters: give at most one (%04d)")
        }
        if counters == 0 && fields == 0 {
            // A plain name: NAME-0001.EXT.
            let (stem, ext) = OutputFile.split(name)
            pattern = stem.replacing("%", with: "%%") + "-" + Self.counterMark + ext.replacing("%", with: "%%")
            width = 4
            counters = 1
        }
        self.folder = folder
        namePattern = pattern
        counterWidth = width
        hasCounter = counters == 1
        self.utc = utc
    }

    /// Digits each time field writes (for recognising names); 0: any number of digits.
    private static let fieldDigits: [Character: Int] = [
        "Y": 4, "m": 2, "d": 2, "H": 2, "M": 2, "S": 2, "y": 2, "j": 3, "s": 0, "F": -1, "T": -2,
    ]

    /// The movie name without its time fields and counter (`cam-%Y%m%d-%H%M%S.mp4` →
    /// `cam.mp4`, `NAME-%04d.mp4` → `NAME.mp4`), in the folder: where the stills' default
    /// names (`cam-still-0001.jpg`) come from.
    public var stillBase: String {
        var name = ""
        var chars = Array(namePattern)[...]
        while let char = chars.popFirst() {
            if String(char) == Self.counterMark { continue }
            if char == "%", let field = chars.popFirst() {
                if field == "%" { name.append("%") }
                continue
            }
            name.append(char)
        }
        var (stem, ext) = OutputFile.split(name)
        while let last = stem.last, "-_. ".contains(last) { stem.removeLast() }
        while let first = stem.first, "-_. ".contains(first) { stem.removeFirst() }
        if stem.isEmpty { stem = "segment" }
        name = stem + ext
        return folder == "." ? name : (folder == "/" ? "/" + name : folder + "/" + name)
    }

    /// The file name for segment `counter` starting at `date`.
    public func name(counter: Int, date: Date) -> String {
        let withTime = Self.strftime(namePattern, date: date, utc: utc)
        let number = String(counter)
        let padded = String(repeating: "0", count: max(0, counterWidth - number.count)) + number
        return withTime.replacing(Self.counterMark, with: padded)
    }

    /// The path for segment `counter` starting at `date`; `collision` > 1 adds `-N` before
    /// the extension (a name that exists already, e.g. after the clock stepped back).
    public func path(counter: Int, date: Date, collision: Int = 1) -> String {
        var name = name(counter: counter, date: date)
        if collision > 1 {
            let (stem, ext) = OutputFile.split(name)
            name = stem + "-\(collision)" + ext
        }
        return folder == "." ? name : (folder == "/" ? "/" + name : folder + "/" + name)
    }

    /// Whether `name` (a file name, no folder) is one of the run's segments; its counter
    /// when the pattern has one (0 otherwise).
    public func match(_ name: String) -> Int? {
        guard let regex = try? Regex(regexPattern), let found = try? regex.wholeMatch(in: name) else { return nil }
        guard hasCounter, let counter = found.output["counter"]?.substring else { return 0 }
        return Int(counter) ?? 0
    }

    /// The pattern as an anchored regular expression over file names.
    var regexPattern: String {
        var regex = "^"
        var chars = Array(namePattern)[...]
        let (_, ext) = OutputFile.split(namePattern)
        // The collision suffix sits before the extension.
        let extChars = ext.count
        var position = 0
        let total = chars.count
        while let char = chars.popFirst() {
            if position == total - extChars && extChars > 0 { regex += Self.collisionSuffix }
            position += 1
            if String(char) == Self.counterMark {
                // Always written with at least its width: `m-1-0001.mp4` (camera 1 of a
                // run of several with OUTPUT m.mp4) is not segment 1 of `m.mp4`'s series.
                regex += "(?<counter>[0-9]{\(max(1, counterWidth)),})"
            } else if char == "%", let field = chars.popFirst() {
                position += 1
                switch Self.fieldDigits[field] {
                case .some(let digits) where digits > 0: regex += "[0-9]{\(digits)}"
                case .some(-1): regex += "[0-9]{4}-[0-9]{2}-[0-9]{2}"
                case .some(-2): regex += "[0-9]{2}:[0-9]{2}:[0-9]{2}"
                case .some: regex += "[0-9]+"
                case .none: regex += Self.escaped(field)  // %%
                }
            } else {
                regex += Self.escaped(char)
            }
        }
        if extChars == 0 { regex += Self.collisionSuffix }
        return regex + "$"
    }

    /// The `-N` that `path(counter:date:collision:)` adds for a taken name: N ≥ 2, never
    /// with a leading zero (so `-0001`, another series' counter, is not one).
    private static let collisionSuffix = "(?:-[1-9][0-9]*)?"

    /// `char` as a regular expression that matches it literally.
    private static func escaped(_ char: Character) -> String {
        char.isLetter || char.isNumber || char == "_" || !char.isASCII ? String(char) : "\\" + String(char)
    }

    /// strftime for one pattern; the counter mark passes through unchanged.
    static func strftime(_ pattern: String, date: Date, utc: Bool) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        if utc { gmtime_r(&seconds, &parts) } else { localtime_r(&seconds, &parts) }
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = Glibc.strftime(&buffer, buffer.count, pattern, &parts)
        guard count > 0 || pattern.isEmpty else { return pattern }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// ISO 8601 with the zone (`2026-11-30T17:49:34+01:00`, or `Z` in UTC), to the millisecond.
    public static func iso8601(_ date: Date, utc: Bool) -> String {
        let style = Date.ISO8601FormatStyle(timeZoneSeparator: .colon, includingFractionalSeconds: true,
                                            timeZone: utc ? .gmt : .current)
        return style.format(date)
    }
}

extension String {
    /// The string with "0"s in front up to `width` characters.
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

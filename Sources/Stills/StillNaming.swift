import CamrecCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Names stills: a printf-like pattern with one `%d`/`%0Nd` counter, counting up from 1 and
/// skipping names that exist, so an existing file is never overwritten.
///
/// `--stills` takes a pattern (`shots/img-%04d.jpg`) or a folder without `%` (the default
/// names in that folder); the default is beside the movie: `NAME-still-0001.jpg`.
public struct StillNaming: Sendable, Equatable {
    /// Text before the counter.
    public let prefix: String
    /// Minimum digits of the counter (zero-padded).
    public let width: Int
    /// Text after the counter.
    public let suffix: String
    /// Whether `--stills` gave a pattern (its extension is the user's) rather than a folder.
    let isPattern: Bool

    init(prefix: String, width: Int, suffix: String, isPattern: Bool) {
        self.prefix = prefix
        self.width = width
        self.suffix = suffix
        self.isPattern = isPattern
    }

    /// The default: `NAME-still-%04d.EXT` beside `moviePath`.
    public static func beside(moviePath: String, format: StillFormat) -> StillNaming {
        let (stem, _) = OutputFile.split(moviePath)
        return StillNaming(prefix: stem + "-still-", width: 4, suffix: format.fileExtension, isPattern: false)
    }

    /// Parses `--stills`: a pattern with exactly one `%d` or `%0Nd` (`%%` is a literal %),
    /// or a folder (no `%`) that gets the default names (`NAME-still-0001.jpg`).
    ///
    /// A pattern's extension must name `format` (`.jpg`/`.jpeg` for JPEG, `.png` for PNG):
    /// JPEG bytes are never written into a `.png` file. ``StillSettings/resolve(pattern:format:quality:every:moviePath:)``
    /// lets the extension pick the format instead.
    ///
    /// - Throws: a usage error for an empty text (a folder named "" would be the root), a
    ///   malformed counter, or an extension that is not `format`'s.
    public static func parse(_ text: String, moviePath: String, format: StillFormat) throws(CamrecError) -> StillNaming {
        let naming = try parse(text, moviePath: moviePath, defaultExtension: format.fileExtension)
        guard naming.isPattern else { return naming }
        let named = try naming.patternFormat(text, quality: StillFormat.defaultQuality)
        guard named.sameKind(as: format) else {
            throw CamrecError(.usage, "--stills '\(text)' names \(named.name) files but the stills are \(format.name) (--still-format): "
                + "end the pattern with \(format.fileExtension), or pass --still-format \(named.optionValue)")
        }
        return naming
    }

    /// The pattern or folder of `--stills`, without looking at extensions; folders get
    /// `defaultExtension`.
    static func parse(_ text: String, moviePath: String, defaultExtension: String) throws(CamrecError) -> StillNaming {
        guard !text.isEmpty else {
            throw CamrecError(.usage, "--stills needs a pattern with one counter like shots/img-%04d.jpg, or a folder like shots/ (not '')")
        }
        guard text.contains("%") else {
            var folder = text
            while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
            let name = OutputFile.split(moviePath).0.split(separator: "/").last.map(String.init) ?? "still"
            let separator = folder.hasSuffix("/") ? "" : "/"
            return StillNaming(prefix: folder + separator + name + "-still-", width: 4, suffix: defaultExtension,
                               isPattern: false)
        }
        let invalid = CamrecError(.usage, "invalid --stills '\(text)': use one counter like shots/img-%04d.jpg, or a folder")
        var prefix = ""
        var suffix = ""
        var width: Int?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            index = text.index(after: index)
            guard character == "%" else {
                if width == nil { prefix.append(character) } else { suffix.append(character) }
                continue
            }
            guard index < text.endIndex else { throw invalid }
            if text[index] == "%" {
                if width == nil { prefix.append("%") } else { suffix.append("%") }
                index = text.index(after: index)
                continue
            }
            var digits = ""
            while index < text.endIndex, text[index].isASCII, text[index].isNumber {
                digits.append(text[index])
                index = text.index(after: index)
            }
            guard width == nil, index < text.endIndex, text[index] == "d", digits.count <= 2 else { throw invalid }
            index = text.index(after: index)
            width = Int(digits) ?? 1
        }
        guard let width else { throw invalid }
        return StillNaming(prefix: prefix, width: max(1, width), suffix: suffix, isPattern: true)
    }

    /// The format a pattern's extension names.
    func patternFormat(_ text: String, quality: Int) throws(CamrecError) -> StillFormat {
        guard let format = StillFormat(path: path(1), quality: quality) else {
            let found = OutputFile.split(path(1)).1
            let what = found.isEmpty ? "has no extension" : "ends in \(found)"
            throw CamrecError(.usage, "--stills '\(text)' \(what): end it with \(StillFormat.extensionList)")
        }
        return format
    }

    /// The name for counter value `number`.
    public func path(_ number: Int) -> String {
        let digits = String(number)
        return prefix + String(repeating: "0", count: max(0, width - digits.count)) + digits + suffix
    }

    /// The folder stills are written to.
    public var folder: String { OutputFile.folderOf(path(1)) }
}

extension StillNaming {
    /// Checks, before the camera is opened, that stills can be created where this names them
    /// (see ``checkFolder(of:)``), so that a wrong `--stills` fails at start (exit 73), not
    /// at the first still.
    public func checkDestination() throws(CamrecError) {
        try Self.checkFolder(of: path(1))
    }

    /// Checks that a new file can be created at `path` (see `Destination.checkFolder`).
    public static func checkFolder(of path: String) throws(CamrecError) {
        try Destination.checkFolder(of: path)
    }
}

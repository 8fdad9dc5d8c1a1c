import Foundation

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

    /// The default: `NAME-still-%04d.EXT` beside `moviePath`.
    public static func beside(moviePath: String, format: StillFormat) -> StillNaming {
        let (stem, _) = OutputFile.split(moviePath)
        return StillNaming(prefix: stem + "-still-", width: 4, suffix: format.fileExtension)
    }

    /// Parses `--stills`: a pattern with exactly one `%d` or `%0Nd` (`%%` is a literal %),
    /// or a folder (no `%`) that gets the default names (`NAME-still-0001.jpg`).
    public static func parse(_ text: String, moviePath: String, format: StillFormat) throws(CamrecError) -> StillNaming {
        guard text.contains("%") else {
            var folder = text
            while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
            let name = OutputFile.split(moviePath).0.split(separator: "/").last.map(String.init) ?? "still"
            return StillNaming(prefix: folder + "/" + name + "-still-", width: 4, suffix: format.fileExtension)
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
        return StillNaming(prefix: prefix, width: max(1, width), suffix: suffix)
    }

    /// The name for counter value `number`.
    public func path(_ number: Int) -> String {
        let digits = String(number)
        return prefix + String(repeating: "0", count: max(0, width - digits.count)) + digits + suffix
    }

    /// The folder stills are written to.
    public var folder: String { OutputFile.folderOf(path(1)) }
}

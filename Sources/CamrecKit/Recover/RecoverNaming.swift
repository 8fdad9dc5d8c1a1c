#if canImport(Glibc)
import Glibc
#endif

/// The names `camrec recover` gives its results, and how it recognises camrec's own
/// unfinished recordings (`NAME.partial.EXT`, or `NAME.partial-N.EXT` when an older one
/// was in the way; see ``OutputFile``).
public enum RecoverNaming {
    /// The name of the final movie a partial file was recorded for: `NAME.EXT` for
    /// `NAME.partial.EXT` or `NAME.partial-N.EXT`; nil for any other name.
    public static func finalName(ofPartial path: String) -> String? {
        let (stem, ext) = OutputFile.split(path)
        let nameStart = stem.lastIndex(of: "/").map { stem.index(after: $0) } ?? stem.startIndex
        let name = stem[nameStart...]
        guard let dot = name.lastIndex(of: "."), dot > name.startIndex else { return nil }
        let marker = name[name.index(after: dot)...]
        let counter = marker.dropFirst("partial-".count)
        guard marker == "partial"
            || (marker.hasPrefix("partial-") && !counter.isEmpty && counter.allSatisfy { $0.isASCII && $0.isNumber })
        else { return nil }
        return String(stem[..<dot]) + ext
    }

    /// Whether a file name is one of camrec's partial recordings: `NAME.partial.EXT` or
    /// `NAME.partial-N.EXT`, EXT being `mp4`, `mov` or `mkv` in any case.
    public static func isPartialName(_ name: String) -> Bool {
        Container(path: name) != nil && finalName(ofPartial: name) != nil
    }

    /// Where a recovered movie goes by default: `NAME.EXT` for camrec's `NAME.partial.EXT`,
    /// `NAME-recovered.EXT` for any other name, in the input's folder and spelled as the
    /// input is. An input without an extension, or with one that is not its container's,
    /// gets its container's (`.mp4`, `.mov`, `.mkv` or `.webm`).
    static func besideInput(_ input: String, container: RecoverContainer) -> String {
        var (stem, ext) = OutputFile.split(input)
        if !container.accepts(extension: ext) {
            // No extension, or not one of this container's: the container's own.
            if ext.lowercased().hasPrefix(".partial") { stem += ext }
            ext = "." + container.fileExtension
        }
        if let final = finalName(ofPartial: stem + ext) { return final }
        return stem + "-recovered" + ext
    }

    /// The path of a recovered movie for `input` under `destination`.
    static func output(for input: String, destination: RecoverDestination, container: RecoverContainer) -> String {
        switch destination {
        case .besideInput:
            return besideInput(input, container: container)
        case .file(let path):
            return path
        case .folder(let folder):
            let name = besideInput(input, container: container)
            let base = name.lastIndex(of: "/").map { String(name[name.index(after: $0)...]) } ?? name
            return folder.hasSuffix("/") ? folder + base : folder + "/" + base
        case .inPlace:
            return input
        }
    }

    /// Whether `path` is a folder (following a symbolic link).
    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}

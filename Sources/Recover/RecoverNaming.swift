import CamrecCore
import MediaValues
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
        MediaContainer(recordingPath: name) != nil && finalName(ofPartial: name) != nil
    }

    /// Where a recovered movie goes by default: `NAME-recovered-STAMP.EXT` for camrec's
    /// `NAME.partial.EXT` (or `.partial-N.EXT`), STAMP being when the recording last wrote
    /// (``stamp(of:)``), so that it never collides with the newer recording that took
    /// `NAME.EXT` since, nor with another leftover of the same OUTPUT; `NAME-recovered.EXT`
    /// for any other name. In the input's folder, spelled as the input is. An input without
    /// an extension, or with one that is not its container's, gets its container's (`.mp4`,
    /// `.mov`, `.mkv` or `.webm`). A name taken meanwhile gets `-2`, `-3`, … (``numbered(_:_:)``).
    static func besideInput(_ input: String, container: MediaContainer, stamp: String) -> String {
        var (stem, ext) = OutputFile.split(input)
        if !container.accepts(extension: ext) {
            // No extension, or not one of this container's: the container's own.
            if ext.lowercased().hasPrefix(".partial") { stem += ext }
            ext = "." + container.fileExtension
        }
        if let final = finalName(ofPartial: stem + ext) {
            let (finalStem, finalExt) = OutputFile.split(final)
            return finalStem + "-recovered-" + stamp + finalExt
        }
        return stem + "-recovered" + ext
    }

    /// `path` for the first try, then `NAME-2.EXT`, `NAME-3.EXT`, … for later ones.
    /// Where `camrec recover` (without options) puts the movie it makes of the partial file
    /// `partial`, by the file's name and last write: what `camrec ls` looks for to tell that
    /// a partial file was recovered already.
    public static func recoveredName(of partial: String) -> String? {
        guard let container = MediaContainer(recordingPath: partial), finalName(ofPartial: partial) != nil else { return nil }
        return besideInput(partial, container: container, stamp: stamp(of: partial))
    }

    static func numbered(_ path: String, _ attempt: Int) -> String {
        guard attempt > 1 else { return path }
        let (stem, ext) = OutputFile.split(path)
        return stem + "-\(attempt)" + ext
    }

    /// When the file at `path` was last written, local time, as `20261202-061500`.
    static func stamp(of path: String) -> String {
        var info = stat()
        var seconds = stat(path, &info) == 0 ? info.st_mtim.tv_sec : time(nil)
        var parts = tm()
        localtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))-"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))"
    }

    /// The path of a recovered movie for `input` under `destination` (before any `-2`).
    /// `--in-place` on camrec's partial file drops the `.partial` name: the movie goes
    /// beside it under its default name, and the partial file is removed once it is there.
    static func output(for input: String, destination: RecoverDestination, container: MediaContainer,
                       stamp: String) -> String {
        switch destination {
        case .besideInput:
            return besideInput(input, container: container, stamp: stamp)
        case .file(let path):
            return path
        case .folder(let folder):
            let name = besideInput(input, container: container, stamp: stamp)
            let base = name.lastIndex(of: "/").map { String(name[name.index(after: $0)...]) } ?? name
            return folder.hasSuffix("/") ? folder + base : folder + "/" + base
        case .inPlace:
            return dropsPartialName(input) ? besideInput(input, container: container, stamp: stamp) : input
        }
    }

    /// Whether `--in-place` moves `input` to a new name: camrec's own partial files do (a
    /// finished movie must not keep a name that says it is unfinished); others keep theirs.
    static func dropsPartialName(_ input: String) -> Bool {
        isPartialName(input.split(separator: "/").last.map(String.init) ?? input)
    }

    /// Whether `path` is a folder (following a symbolic link).
    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}

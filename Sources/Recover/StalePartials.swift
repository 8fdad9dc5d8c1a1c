import CamrecCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// camrec's own unfinished recordings left in a folder by a recording that could not
/// finalise (a `kill -9`, a power cut, a full disk), for the recorder to mention once at
/// start-up with the command that recovers them. Finding them changes nothing.
public enum StalePartials {
    /// The stale partial files in the folder of `output` (a recording's OUTPUT path):
    /// regular files named `NAME.partial.EXT` or `NAME.partial-N.EXT` (EXT `mp4`, `mov`
    /// or `mkv`, any NAME) that no process has open (a recording still running keeps its
    /// own open; other users' processes are not visible unless camrec runs as root), other
    /// than `excluding` (e.g. the partial file this recording just claimed). Sorted by name,
    /// spelled with OUTPUT's folder as given ("movie.partial.mp4" for OUTPUT "movie.mp4",
    /// "cam/old.partial.mkv" for "cam/new.mkv"). A folder that cannot be read has none.
    public static func find(besideOutput output: String, excluding: [String] = []) -> [String] {
        let folder = OutputFile.folderOf(output)
        guard let directory = opendir(folder) else { return [] }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if RecoverNaming.isPartialName(name) { names.append(name) }
        }
        closedir(directory)
        let spelledFolder = output.contains("/") ? (folder == "/" ? "/" : folder + "/") : ""
        let excluded = Set(excluding.compactMap(OpenFiles.FileID.init(path:)))
        let candidates = names.sorted().map { spelledFolder + $0 }.filter { path in
            guard let id = OpenFiles.FileID(path: path) else { return false }   // regular files only
            return !excluded.contains(id)
        }
        let open = OpenFiles.holders(of: candidates)
        return candidates.filter { open[$0] == nil }
    }

    /// `record --recover-partials`: recovers those of `paths` (stale partial files, see
    /// ``find(besideOutput:excluding:)``) that belong to the series of `output` (its own
    /// `NAME.partial[-N].EXT`, or with `naming` any of the run's segment names) as
    /// `recover --in-place` does: each becomes `NAME-recovered-STAMP.EXT` and the partial
    /// file goes; one that holds no frame is removed. Each outcome is one line to `report`.
    /// Returns the paths left (other series, and refusals).
    public static func recoverSeries(_ paths: [String], output: String, naming: SegmentNaming?,
                                     report: (String) -> Void) -> [String] {
        let outputName = lastComponent(output)
        var left: [String] = []
        for path in paths {
            let final = RecoverNaming.finalName(ofPartial: path).map(lastComponent)
            let ofSeries = final.map { name in naming.map { $0.match(name) != nil } ?? (name == outputName) } ?? false
            guard ofSeries else {
                left.append(path)
                continue
            }
            do {
                let result = try MovieRecovery.recover(path, to: .inPlace, force: false, control: RecoverControl())
                switch result.status {
                case .recovered:
                    report("recovered the unfinished \(path) of an earlier run: \(result.output ?? "?") "
                           + "(\(result.frames ?? 0) frames); the partial file was removed")
                case .removed:
                    report(result.message ?? "removed \(path)")
                case .complete, .refused:
                    left.append(path)
                }
            } catch {
                report("cannot recover \(path): \(error.message)")
                left.append(path)
            }
        }
        return left
    }

    private static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The command that recovers `paths`, each quoted for a POSIX shell when it needs it:
    /// `camrec recover --in-place movie.partial.mp4 'my cam/old.partial.mkv'`. Always safe
    /// to follow: each movie takes a name no other file has (`NAME-recovered-STAMP.EXT`,
    /// never the newer `NAME.EXT`), the partial file goes once its movie is there, and one
    /// that holds no frame is removed.
    public static func recoverCommand(for paths: [String]) -> String {
        (["camrec", "recover", "--in-place"] + paths.map(shellQuoted)).joined(separator: " ")
    }

    /// The one-line warning for `paths` (nil when there are none), e.g. "2 unfinished
    /// recordings from an earlier camrec (killed, power cut or full disk) are in cam/;
    /// camrec leaves them alone: recover them with camrec recover …".
    public static func warning(for paths: [String]) -> String? {
        guard let first = paths.first else { return nil }
        let folder = OutputFile.folderOf(first)
        let place = first.contains("/") ? " in \(folder == "/" ? "/" : folder + "/")" : " here"
        let what = paths.count == 1
            ? "an unfinished recording from an earlier camrec (killed, power cut or full disk) is"
            : "\(paths.count) unfinished recordings from an earlier camrec (killed, power cut or full disk) are"
        return "\(what)\(place); camrec leaves \(paths.count == 1 ? "it" : "them") alone: recover "
            + "\(paths.count == 1 ? "it" : "them") with \(recoverCommand(for: paths))"
    }

    /// `path` as one shell word: as it is when it only holds safe characters, else in
    /// single quotes; a relative path starting with "-" gets "./" so it is not an option.
    package static func shellQuoted(_ path: String) -> String {
        let path = path.hasPrefix("-") ? "./" + path : path
        let safe = !path.isEmpty && path.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || "/._-+,:@%=".unicodeScalars.contains($0)
        }
        if safe { return path }
        return "'" + path.replacing("'", with: "'\\''") + "'"
    }
}

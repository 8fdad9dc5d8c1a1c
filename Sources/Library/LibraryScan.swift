import CamrecCore
import Recover
#if canImport(Glibc)
import Glibc
import MediaValues
#endif

/// Finds the files `camrec ls PATH…` lists and reads each one's headers: a folder's files
/// (not its subfolders, not hidden files), a file itself, or the files an OUTPUT pattern
/// names (`cam.mp4`: its segments `cam-0001.mp4`…, clips, stills and partial files;
/// `cam-%Y%m%d-%H%M%S.mp4`: what `--segment` names with it).
public enum LibraryScan {
    /// The files of every path, each read once, in no particular order.
    ///
    /// - Throws: ``CamrecError`` (exit 66) for a folder that does not exist or holds no
    ///   file, or a pattern that matches none; a usage error for a malformed pattern.
    public static func files(_ paths: [String]) throws(CamrecError) -> [LibraryFile] {
        var found: [LibraryFile] = []
        var seen = Set<String>()
        for path in paths.isEmpty ? ["."] : paths {
            for file in try files(at: path) where seen.insert(file.path).inserted {
                found.append(file)
            }
        }
        // An unfinished movie another process is writing is a recording in progress; so is a
        // `.partial` one too young to be read yet (no whole fragment): not unreadable.
        let unfinished = found.indices.filter { index in
            found[index].health == .unfinished || (found[index].name.partial && found[index].health != .complete)
        }
        if !unfinished.isEmpty {
            let writers = OpenFiles.holders(of: unfinished.map { found[$0].path }, writingOnly: true)
            for index in unfinished {
                guard let writer = writers[found[index].path]?.first else { continue }
                found[index].health = .unfinished
                found[index].writer = writer
                found[index].note = "being written by process \(writer) (a recording in progress)"
            }
        }
        // A partial file recovered already (its movie beside it, by recover's own name for
        // it): not to be recovered again.
        for index in found.indices where found[index].health == .unfinished && found[index].writer == nil {
            guard let recovered = RecoverNaming.recoveredName(of: found[index].path),
                  access(recovered, F_OK) == 0
            else { continue }
            found[index].recoveredAs = recovered
            found[index].note = "recovered already as \(PathName.last(recovered)): remove it once that movie is checked"
        }
        return found
    }

    private static func files(at path: String) throws(CamrecError) -> [LibraryFile] {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            let entries = try entries(of: path)
            guard !entries.isEmpty else { throw CamrecError(.noCamera, "\(path) holds no files: nothing to list") }
            return entries.map { read($0, series: nil) }
        }
        // A file or an OUTPUT pattern: the file itself (if it exists), and its series'.
        if !path.contains("%"), OutputFile.split(path).1.isEmpty, stat(path, &info) != 0 {
            throw CamrecError(.noCamera, "no such folder: \(path)")
        }
        let naming = try SegmentNaming(output: path, utc: false)
        var folderInfo = stat()
        guard stat(naming.folder, &folderInfo) == 0, folderInfo.st_mode & S_IFMT == S_IFDIR else {
            throw CamrecError(.noCamera, "no such folder: \(naming.folder) (of \(path))")
        }
        let plain = baseName(path)
        let stem = OutputFile.split(baseName(naming.stillBase)).0
        let literal = !path.contains("%")
        let outputExtension = String(OutputFile.split(plain).1.dropFirst()).lowercased()
        let matched = try entries(of: naming.folder).compactMap { entry -> LibraryFile? in
            let final = RecoverNaming.finalName(ofPartial: entry.name) ?? entry.name
            if final == plain || naming.match(final) != nil { return read(entry, series: literal ? nil : stem) }
            // The series' other files: clips and cameras' movies in OUTPUT's container, stills.
            let name = RecordingName(entry.name)
            guard name.series == stem || Self.isCamera(name.series, of: stem),
                  name.isStillName || name.fileExtension == outputExtension else { return nil }
            return read(entry, series: nil)
        }
        guard !matched.isEmpty else { throw CamrecError(.noCamera, "no recordings match \(path)") }
        return matched
    }

    /// Whether `series` is one camera's of a run of several named `stem`: `stem-1`, `stem-2`, ….
    private static func isCamera(_ series: String, of stem: String) -> Bool {
        guard series.hasPrefix(stem + "-") else { return false }
        let number = series.dropFirst(stem.count + 1)
        return (1...2).contains(number.count) && number.allSatisfy { $0.isASCII && $0.isNumber }
    }

    private struct Entry {
        var path: String
        var name: String
        var info: stat
    }

    private static func read(_ entry: Entry, series: String?) -> LibraryFile {
        let modified = Int64(entry.info.st_mtim.tv_sec) * 1000 + Int64(entry.info.st_mtim.tv_nsec) / 1_000_000
        return LibraryFileReader.read(path: entry.path, name: RecordingName(entry.name, series: series),
                                      bytes: Int64(entry.info.st_size), modified: modified)
    }

    /// The regular, visible files of a folder.
    private static func entries(of folder: String) throws(CamrecError) -> [Entry] {
        guard let directory = opendir(folder) else {
            throw CamrecError(.noCamera, errno == ENOENT ? "no such folder: \(folder)" : "cannot read \(folder): \(systemMessage(errno))")
        }
        defer { closedir(directory) }
        var entries: [Entry] = []
        while let pointer = readdir(directory) {
            let name = withUnsafeBytes(of: pointer.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix(".") else { continue }
            let path = folder == "." ? name : (folder.hasSuffix("/") ? folder + name : folder + "/" + name)
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            entries.append(Entry(path: path, name: name, info: info))
        }
        return entries
    }

    private static func baseName(_ path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }
}

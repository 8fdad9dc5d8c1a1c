#if canImport(Glibc)
import Glibc
#endif

/// Unfinished recordings in a folder: camrec's `NAME.partial.EXT` (or `NAME.partial-N.EXT`)
/// files that no process holds open (a running recording keeps its own open), left by a
/// recording that was killed, lost its power or filled the disk.
enum StalePartialScan {
    /// One warning naming them, or an ok check when there are none.
    static func check(folder: String) -> DoctorCheck {
        let paths = find(in: folder)
        var check: DoctorCheck
        if paths.isEmpty {
            check = DoctorCheck(.partial, "partial files", .ok, "no unfinished recording in \(folder)")
        } else {
            let what = paths.count == 1 ? "an unfinished recording" : "\(paths.count) unfinished recordings"
            check = DoctorCheck(.partial, "partial files", .warning,
                                "\(what) from an earlier camrec (killed, power cut or full disk): \(paths.joined(separator: ", "))",
                                fix: "each plays as it is (all but about its last second): rename it to keep it, e.g. mv "
                                    + "\(shellQuoted(paths[0])) \(shellQuoted(finishedName(paths[0]))), or delete it")
        }
        check.path = folder
        return check
    }

    /// Whether `name` is a camrec partial recording's name: `NAME.partial.EXT` or
    /// `NAME.partial-N.EXT`, EXT mp4, mov or mkv.
    static func isPartialName(_ name: String) -> Bool {
        let (stem, ext) = OutputFile.split(name)
        guard [".mp4", ".mov", ".mkv"].contains(ext.lowercased()) else { return false }
        let (base, marker) = OutputFile.split(stem)
        guard !base.isEmpty else { return false }
        if marker == ".partial" { return true }
        guard marker.hasPrefix(".partial-") else { return false }
        let number = marker.dropFirst(".partial-".count)
        return !number.isEmpty && number.allSatisfy(\.isNumber)
    }

    /// "cam/movie.mp4" for "cam/movie.partial.mp4".
    static func finishedName(_ path: String) -> String {
        let (stem, ext) = OutputFile.split(path)
        return OutputFile.split(stem).0 + ext
    }

    /// The stale partial recordings in `folder`, sorted, spelled as folder/name.
    static func find(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if isPartialName(name) { names.append(name) }
        }
        closedir(directory)
        let prefix = folder == "/" ? "/" : (folder == "." ? "" : folder + "/")
        let files = names.sorted().map { prefix + $0 }.filter { path in
            var info = stat()
            return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        }
        guard !files.isEmpty else { return [] }
        let open = openFileIDs()
        return files.filter { path in
            var info = stat()
            guard stat(path, &info) == 0 else { return false }
            return !open.contains(FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
        }
    }

    /// A file's identity, to compare with what processes hold open.
    struct FileID: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// Every file the processes this user can see hold open (/proc/PID/fd).
    static func openFileIDs() -> Set<FileID> {
        var ids: Set<FileID> = []
        guard let proc = opendir("/proc") else { return ids }
        defer { closedir(proc) }
        while let entry = readdir(proc) {
            let pid = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !pid.isEmpty, pid.allSatisfy(\.isNumber) else { continue }
            let fdFolder = "/proc/\(pid)/fd"
            guard let fds = opendir(fdFolder) else { continue }
            while let fd = readdir(fds) {
                let name = withUnsafeBytes(of: fd.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                var info = stat()
                if name.first?.isNumber == true, stat(fdFolder + "/" + name, &info) == 0,
                   (info.st_mode & S_IFMT) == S_IFREG {
                    ids.insert(FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
                }
            }
            closedir(fds)
        }
        return ids
    }

    /// `path` as one word for a POSIX shell: as it is when it holds only safe characters,
    /// else in single quotes.
    static func shellQuoted(_ path: String) -> String {
        let safe = !path.isEmpty && !path.hasPrefix("-") && path.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || "/._-+,:@%=".unicodeScalars.contains($0)
        }
        if safe { return path }
        var quoted = "'"
        for character in path {
            quoted += character == "'" ? "'\\''" : String(character)
        }
        return quoted + "'"
    }
}

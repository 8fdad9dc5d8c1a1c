#if canImport(Glibc)
import Glibc
#endif

/// Which processes hold a file open, read from `/proc/PID/fd` (the processes of other
/// users are hidden unless camrec runs as root): a recording still being written is
/// neither stale nor to be recovered.
package enum OpenFiles {
    /// The ids of processes other than this one that have `path` open.
    package static func holders(of path: String) -> [Int32] {
        holders(of: [path])[path] ?? []
    }

    /// The ids of processes other than this one that have `path` open for writing (its
    /// descriptor's flags in `/proc/PID/fdinfo` say O_WRONLY or O_RDWR): a recording being
    /// written, not a player reading it.
    package static func writers(of path: String) -> [Int32] {
        holders(of: [path], writingOnly: true)[path] ?? []
    }

    /// For each of `paths` that some other process has open (for writing, with
    /// `writingOnly`), the ids of those processes.
    package static func holders(of paths: [String], writingOnly: Bool = false) -> [String: [Int32]] {
        var wanted: [FileID: String] = [:]
        for path in paths {
            if let id = FileID(path: path) { wanted[id] = path }
        }
        guard !wanted.isEmpty, let proc = opendir("/proc") else { return [:] }
        defer { closedir(proc) }
        var found: [String: [Int32]] = [:]
        let me = getpid()
        while let entry = readdir(proc) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = Int32(name), pid != me else { continue }
            let folder = "/proc/\(name)/fd"
            guard let descriptors = opendir(folder) else { continue }
            while let fd = readdir(descriptors) {
                let fdName = withUnsafeBytes(of: fd.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard fdName.first?.isNumber == true, let id = FileID(path: folder + "/" + fdName),
                      let path = wanted[id] else { continue }
                if writingOnly, !isOpenForWriting("/proc/\(name)/fdinfo/\(fdName)") { continue }
                if found[path]?.contains(pid) != true { found[path, default: []].append(pid) }
            }
            closedir(descriptors)
        }
        return found
    }

    /// Whether the descriptor described by an fdinfo file was opened for writing.
    private static func isOpenForWriting(_ fdinfo: String) -> Bool {
        guard let file = fopen(fdinfo, "r") else { return false }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("flags:") else { continue }
            guard let flags = Int(String(text.dropFirst(6).filter(\.isNumber)), radix: 8) else { return false }
            return flags & Int(O_ACCMODE) != Int(O_RDONLY)
        }
        return false
    }

    /// A file's device and inode.
    package struct FileID: Hashable {
        var device: UInt64
        var inode: UInt64

        package init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }
}

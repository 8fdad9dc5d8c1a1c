#if canImport(Glibc)
import Glibc
#endif

/// The destination of a recording and the temporary file it is written to first.
///
/// A recording goes to `NAME.partial.EXT` beside OUTPUT (claimed with O_EXCL, so a stale
/// partial file from an earlier crash is never clobbered) and is renamed into place only
/// once the muxer has finalised it. Nothing half-written ever sits under the final name.
public struct OutputFile: Sendable, Equatable {
    /// The final path.
    public let finalPath: String
    /// The temporary path being written.
    public let partialPath: String
    /// Whether an existing final file may be replaced.
    public let overwrite: Bool
    /// The temporary file this run made (its device and inode), to tell it from a file that
    /// took its name meanwhile; nil when it could not be read.
    var identity: FileIdentity? = nil

    /// A file as the kernel knows it, whatever its name.
    struct FileIdentity: Sendable, Equatable {
        var device: UInt64
        var inode: UInt64

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// Checks that OUTPUT can be written (its folder exists and is writable; it does not
    /// exist unless `overwrite`), then claims a temporary file beside it.
    public static func claim(_ path: String, overwrite: Bool) throws(CamrecError) -> OutputFile {
        try claimOpen(path, overwrite: overwrite).file
    }

    /// `claim`, keeping the temporary file open: a writer that opens `held.path` writes to
    /// the very file claimed, even if its name or folder is removed or replaced meanwhile.
    package static func claimOpen(_ path: String, overwrite: Bool) throws(CamrecError) -> (file: OutputFile, held: HeldFile) {
        try checkDestination(path, overwrite: overwrite)
        let (stem, ext) = split(path)
        let nameLimit = Self.nameLimit(in: folderOf(path))
        for attempt in 0..<1000 {
            let marker = attempt == 0 ? ".partial" : ".partial-\(attempt)"
            let candidate = Self.fitting(stem: stem, suffix: marker + ext, limit: nameLimit)
            // 0666: the umask decides what others may do, as with every tool.
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 {
                var info = stat()
                let identity = fstat(fd, &info) == 0 ? FileIdentity(info) : nil
                let file = OutputFile(finalPath: path, partialPath: candidate, overwrite: overwrite, identity: identity)
                return (file, HeldFile(descriptor: fd, path: candidate))
            }
            if errno != EEXIST {
                throw CamrecError(.cannotCreateOutput, "cannot create \(candidate): \(systemMessage(errno))")
            }
        }
        throw CamrecError(.cannotCreateOutput, "too many partial recordings beside \(path): remove the old *.partial* files")
    }

    /// The checks `claim` makes, without creating anything (for `--print-pipeline`): the
    /// folder takes files, the name fits its file system, and OUTPUT does not exist unless
    /// `overwrite`.
    public static func checkDestination(_ path: String, overwrite: Bool) throws(CamrecError) {
        try Destination.checkFolder(of: path)
        try Destination.checkNameLength(of: path)
        var info = stat()
        // lstat: a symbolic link is a name that exists, even when what it points to does not.
        if lstat(path, &info) == 0 {
            let isLink = (info.st_mode & S_IFMT) == S_IFLNK
            var target = stat()
            let pointsTo = isLink && stat(path, &target) == 0 ? target : info
            if (pointsTo.st_mode & S_IFMT) == S_IFDIR {
                throw CamrecError(.cannotCreateOutput, "\(path) is a folder: give a file name such as \(path)/movie.mp4")
            }
            try Destination.refuseSpecialFile(path, mode: pointsTo.st_mode)
            if !overwrite {
                let what = isLink ? "already exists (a symbolic link)" : "already exists"
                throw CamrecError(.cannotCreateOutput, "\(path) \(what): choose another name or pass --force to replace it")
            }
        }
    }

    /// Flushes the finished file to disk and moves it to the final name. Without
    /// `overwrite` an existing file (made meanwhile by someone else) is never replaced.
    public func commit() throws(CamrecError) {
        if let lost = whatHappened() { throw CamrecError(.cannotCreateOutput, lost) }
        do {
            try Destination.publish(partialPath, as: finalPath, replace: overwrite)
        } catch {
            throw CamrecError(error.kind, "\(error.message); the recording is kept in \(partialPath)")
        }
    }

    /// Removes the temporary file (a recording that produced nothing worth keeping), unless
    /// another file took its name meanwhile: that one is not this run's to remove.
    public func discard() {
        guard whatHappened() == nil else { return }
        unlink(partialPath)
    }

    /// Nil while the temporary file is still the one this run made; otherwise what became of
    /// it, said for a person: removed (with its folder, or renamed away) or replaced by
    /// another file under its name. Either way this movie is lost, and nothing of the
    /// other file is touched.
    package func whatHappened() -> String? {
        var info = stat()
        guard lstat(partialPath, &info) == 0 else {
            guard errno == ENOENT || errno == ENOTDIR else { return nil }
            return "\(partialPath) is gone: it (or its folder) was removed or renamed during the recording, and this movie with it"
        }
        if let identity, FileIdentity(info) != identity {
            return "\(partialPath) was replaced by another file during the recording (camrec trim --in-place on a recording in progress?): "
                + "that file is left as it is, and this movie is lost"
        }
        return nil
    }

    /// The size of the temporary file now, in bytes.
    public var partialSize: Int64 { Self.size(of: partialPath) }

    /// The size of a file in bytes (0 when it cannot be read).
    public static func size(of path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// The longest file name the folder's file system takes (255 bytes on Linux's).
    package static func nameLimit(in folder: String) -> Int {
        let limit = pathconf(folder, Int32(_PC_NAME_MAX))
        return limit > 0 ? limit : 255
    }

    /// `stem` + `suffix`, with the stem's file name shortened (at a character boundary,
    /// marked with "~") when the whole name would be longer than `limit` bytes: a valid
    /// OUTPUT near the limit must never fail because its temporary name is longer.
    package static func fitting(stem: String, suffix: String, limit: Int) -> String {
        let nameStart = stem.lastIndex(of: "/").map { stem.index(after: $0) } ?? stem.startIndex
        let folder = stem[..<nameStart]
        let name = stem[nameStart...]
        guard name.utf8.count + suffix.utf8.count > limit else { return stem + suffix }
        var kept = Substring(name)
        while !kept.isEmpty, kept.utf8.count + 1 + suffix.utf8.count > limit { kept.removeLast() }
        return folder + kept + "~" + suffix
    }

    package static func folderOf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// A path without and with its extension: ("dir/movie", ".mp4") for "dir/movie.mp4".
    public static func split(_ path: String) -> (String, String) {
        let nameStart = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        guard let dot = path[nameStart...].lastIndex(of: "."), dot != nameStart else { return (path, "") }
        return (String(path[..<dot]), String(path[dot...]))
    }
}

/// strerror as a Swift string.
package func systemMessage(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
}

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

    /// Checks that OUTPUT can be written (its folder exists and is writable; it does not
    /// exist unless `overwrite`), then claims a temporary file beside it.
    public static func claim(_ path: String, overwrite: Bool) throws(CamrecError) -> OutputFile {
        try checkDestination(path, overwrite: overwrite)
        let (stem, ext) = split(path)
        for attempt in 0..<1000 {
            let candidate = attempt == 0 ? "\(stem).partial\(ext)" : "\(stem).partial-\(attempt)\(ext)"
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 {
                close(fd)
                return OutputFile(finalPath: path, partialPath: candidate, overwrite: overwrite)
            }
            if errno != EEXIST {
                throw CamrecError(.cannotCreateOutput, "cannot create \(candidate): \(systemMessage(errno))")
            }
        }
        throw CamrecError(.cannotCreateOutput, "too many partial recordings beside \(path): remove the old *.partial* files")
    }

    /// The checks `claim` makes, without creating anything (for `--print-pipeline`).
    public static func checkDestination(_ path: String, overwrite: Bool) throws(CamrecError) {
        try checkFolder(folderOf(path))
        var info = stat()
        if stat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR {
                throw CamrecError(.cannotCreateOutput, "\(path) is a folder: give a file name such as \(path)/movie.mp4")
            }
            if !overwrite {
                throw CamrecError(.cannotCreateOutput, "\(path) already exists: choose another name or pass --force to replace it")
            }
        }
    }

    /// Checks that `folder` exists and is writable.
    public static func checkFolder(_ folder: String) throws(CamrecError) {
        var info = stat()
        guard stat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw CamrecError(.cannotCreateOutput, "folder \(folder) does not exist: create it first or choose another OUTPUT")
        }
        guard access(folder, W_OK) == 0 else {
            throw CamrecError(.cannotCreateOutput, "folder \(folder) is not writable: choose another OUTPUT or fix its permissions")
        }
    }

    /// Flushes the finished file to disk and moves it to the final name. Without
    /// `overwrite` an existing file (made meanwhile by someone else) is never replaced.
    public func commit() throws(CamrecError) {
        let fd = open(partialPath, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            _ = fsync(fd)
            close(fd)
        }
        if overwrite {
            guard rename(partialPath, finalPath) == 0 else {
                throw CamrecError(.cannotCreateOutput, "cannot move \(partialPath) to \(finalPath): \(systemMessage(errno)); the recording is in \(partialPath)")
            }
        } else {
            // link() fails with EEXIST instead of replacing: an atomic no-clobber move.
            guard link(partialPath, finalPath) == 0 else {
                let reason = errno == EEXIST ? "it appeared while recording" : systemMessage(errno)
                throw CamrecError(.cannotCreateOutput, "cannot move the recording to \(finalPath) (\(reason)); it is kept in \(partialPath)")
            }
            unlink(partialPath)
        }
        let folder = Self.folderOf(finalPath)
        let dir = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            _ = fsync(dir)
            close(dir)
        }
    }

    /// Removes the temporary file (a recording that produced nothing worth keeping).
    public func discard() {
        unlink(partialPath)
    }

    /// The size of the temporary file now, in bytes.
    public var partialSize: Int64 { Self.size(of: partialPath) }

    /// The size of a file in bytes (0 when it cannot be read).
    public static func size(of path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    static func folderOf(_ path: String) -> String {
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
func systemMessage(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
}

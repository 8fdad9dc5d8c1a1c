import CamrecCore
#if canImport(Glibc)
import Glibc
#endif

/// The input of a recovery: a regular file that is not empty, its first bytes, and what
/// identifies this version of it (so that an in-place replacement never replaces a file
/// that changed meanwhile).
struct RecoverSource {
    /// The path as typed.
    let path: String
    /// Its size in bytes.
    let size: UInt64
    /// Its permission bits (kept by `--in-place`).
    let mode: mode_t
    /// Its first bytes (up to 64).
    let head: [UInt8]
    private let identity: [Int]

    /// Opens `path`.
    ///
    /// - Throws: invalid input (exit 65) when it is missing, not a regular file, empty or
    ///   unreadable.
    init(path: String) throws(CamrecError) {
        self.path = path
        var info = stat()
        guard stat(path, &info) == 0 else {
            let reason = errno == ENOENT ? "no such file" : systemMessage(errno)
            throw CamrecError(.invalidInput, "cannot read \(path): \(reason)")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            let what = (info.st_mode & S_IFMT) == S_IFDIR ? "a folder" : "not a regular file"
            throw CamrecError(.invalidInput, "\(path) is \(what), not a movie")
        }
        guard info.st_size > 0 else {
            throw CamrecError(.invalidInput, "\(path) is empty: nothing was recorded in it, nothing to recover")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CamrecError(.invalidInput, "cannot read \(path): \(systemMessage(errno))") }
        defer { close(descriptor) }
        var head = [UInt8](repeating: 0, count: 64)
        let got = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 64) }
        guard got > 0 else { throw CamrecError(.invalidInput, "cannot read \(path): \(systemMessage(errno))") }
        self.head = Array(head.prefix(got))
        size = UInt64(info.st_size)
        mode = info.st_mode & 0o7777
        identity = Self.identity(of: info)
    }

    /// Whether the file at `path` is still this version (same file, size and modification time).
    var isUnchanged: Bool {
        var info = stat()
        return stat(path, &info) == 0 && Self.identity(of: info) == identity
    }

    private static func identity(of info: stat) -> [Int] {
        [Int(truncatingIfNeeded: info.st_dev), Int(truncatingIfNeeded: info.st_ino), Int(info.st_size),
         Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
    }
}

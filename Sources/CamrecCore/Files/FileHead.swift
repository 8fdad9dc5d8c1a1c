#if canImport(Glibc)
import Glibc
#endif

/// The first bytes of a file, read with plain POSIX calls (Foundation's `FileHandle` is not
/// in FoundationEssentials; see `NamedThread`).
package enum FileHead {
    /// Up to `count` bytes from the start of the file at `path`: nil when it cannot be opened
    /// for reading, fewer bytes (or none) at its end or on a read error.
    package static func read(_ path: String, count: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { Glibc.read(fd, $0 + filled, count - filled) } ?? 0
            }
            if got > 0 { filled += got } else if got < 0 && errno == EINTR { continue } else { break }
        }
        return Array(bytes[..<filled])
    }
}

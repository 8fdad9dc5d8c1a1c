#if canImport(Glibc)
import Glibc
#endif

/// Writes whole files so that a reader never sees a partial one: into a temporary file in
/// the same folder, flushed to disk, then given its name by `Destination` (which never
/// replaces an existing file unless asked to, on every file system).
package enum AtomicFile {
    /// Writes `bytes` to `path`; an existing file is replaced only when `replace` is set.
    package static func write(_ bytes: [UInt8], to path: String, replace: Bool) throws(CamrecError) {
        var existing = stat()
        if stat(path, &existing) == 0 { try Destination.refuseSpecialFile(path, mode: existing.st_mode) }
        let temporary = try writeTemporary(bytes, in: OutputFile.folderOf(path))
        defer { unlink(temporary) }
        do {
            try Destination.publish(temporary, as: path, replace: replace)
        } catch {
            let exists = !replace && access(path, F_OK) == 0
            throw exists ? CamrecError(.cannotCreateOutput, "cannot create \(path): it exists (pass --force to replace it)") : error
        }
    }

    /// A flushed temporary file in `folder` holding `bytes` (`what` it is, for messages); the
    /// caller removes it.
    package static func writeTemporary(_ bytes: [UInt8], in folder: String, what: String = "a still") throws(CamrecError) -> String {
        let temporary = folder + "/.camrec-\(what == "a still" ? "still" : "file")-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        // 0666: the umask decides what others may do, as with every tool.
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else {
            throw CamrecError(.cannotCreateOutput, "cannot write \(what) in \(folder): \(systemMessage(errno))")
        }
        var written = 0
        let failure: Int32? = bytes.withUnsafeBytes { buffer -> Int32? in
            while written < buffer.count {
                let result = Glibc.write(fd, buffer.baseAddress.map { $0 + written }, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += result
            }
            return fsync(fd) == 0 ? nil : errno
        }
        close(fd)
        if let failure {
            unlink(temporary)
            throw CamrecError(failure == ENOSPC ? .diskFull : .cannotCreateOutput,
                              "cannot write \(what) in \(folder): \(systemMessage(failure))")
        }
        return temporary
    }
}

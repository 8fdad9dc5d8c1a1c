#if canImport(Glibc)
import Glibc
#endif

/// Where camrec's files go, and how they get there, for every kind of file (movies,
/// trimmed movies, stills): checks made before any work starts, and the one way a
/// finished temporary file becomes visible under its final name.
enum Destination {
    /// Checks that a new file can be created at `path`: its folder exists, is a folder, and
    /// this process may create files in it. access(2) answers for the real user, root
    /// included (root may write in a read-only-mode folder, not on a read-only file system).
    ///
    /// - Throws: `cannotCreateOutput` (exit 73) with a message naming the folder and the reason.
    static func checkFolder(of path: String) throws(CamrecError) {
        let folder = OutputFile.folderOf(path)
        func failure(_ reason: String) -> CamrecError {
            CamrecError(.cannotCreateOutput, "cannot create \(path): \(reason)")
        }
        var info = stat()
        guard stat(folder, &info) == 0 else {
            switch errno {
            case ENOENT: throw failure("folder \(folder) does not exist; create it first")
            case ENOTDIR: throw failure("\(folder) is not a folder (part of it is a file)")
            case let code: throw failure("cannot use folder \(folder): \(systemMessage(code))")
            }
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw failure("\(folder) is not a folder")
        }
        guard access(folder, W_OK | X_OK) == 0 else {
            switch errno {
            case EACCES, EPERM: throw failure("folder \(folder) is not writable; fix its permissions or choose another folder")
            case EROFS: throw failure("folder \(folder) is on a read-only file system")
            case let code: throw failure("cannot write in folder \(folder): \(systemMessage(code))")
            }
        }
    }

    /// Makes the finished file `temporary` the file `final`: flushes it to disk, moves it
    /// (replacing an existing `final` only when `replace`; without it `link()` fails rather
    /// than replace a file that appeared meanwhile), and flushes the folder so that the new
    /// name survives a power cut. On failure `temporary` is left as it is.
    static func publish(_ temporary: String, as final: String, replace: Bool) throws(CamrecError) {
        let descriptor = open(temporary, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CamrecError(.cannotCreateOutput, "cannot reopen \(temporary): \(systemMessage(errno))")
        }
        let synced = fsync(descriptor) == 0 ? nil : errno
        close(descriptor)
        if let synced {
            throw CamrecError(synced == ENOSPC ? .diskFull : .cannotCreateOutput,
                              "cannot flush \(temporary) to disk: \(systemMessage(synced))")
        }
        if replace {
            guard rename(temporary, final) == 0 else {
                throw CamrecError(.cannotCreateOutput, "cannot move \(temporary) to \(final): \(systemMessage(errno))")
            }
        } else {
            guard link(temporary, final) == 0 else {
                let reason = errno == EEXIST ? "it appeared meanwhile" : systemMessage(errno)
                throw CamrecError(.cannotCreateOutput, "cannot move \(temporary) to \(final) (\(reason))")
            }
            unlink(temporary)
        }
        syncFolder(of: final)
    }

    /// Flushes the folder holding `path`, so that a name made or removed there survives a
    /// power cut.
    static func syncFolder(of path: String) {
        let folder = open(OutputFile.folderOf(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }
}

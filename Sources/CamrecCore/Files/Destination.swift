#if canImport(Glibc)
import Glibc
#endif

/// Where camrec's files go, and how they get there, for every kind of file (movies,
/// segments, clips, trimmed and recovered movies, stills): checks made before any work
/// starts, and the one way a finished temporary file becomes visible under its final name.
package enum Destination {
    /// Checks that a new file can be created at `path`: its folder exists, is a folder, and
    /// this process may create files in it. access(2) answers for the real user, root
    /// included (root may write in a read-only-mode folder, not on a read-only file system).
    ///
    /// - Throws: `cannotCreateOutput` (exit 73) with a message naming the folder and the reason.
    package static func checkFolder(of path: String) throws(CamrecError) {
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

    /// Refuses an existing `path` that is not a regular file, a folder or a symbolic link
    /// (`mode` is what it points to): a FIFO, a device or a socket, which `--force` would
    /// silently replace by a movie (or write a movie into).
    ///
    /// - Throws: `cannotCreateOutput` (exit 73).
    static func refuseSpecialFile(_ path: String, mode: mode_t) throws(CamrecError) {
        let what: String? = switch mode & S_IFMT {
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: nil
        }
        if let what {
            throw CamrecError(.cannotCreateOutput, "\(path) is \(what), not a regular file: camrec writes only regular "
                              + "files, and never replaces anything else (not even with --force); choose another name")
        }
    }

    /// Refuses a file name longer than the folder's file system takes (pathconf
    /// `_PC_NAME_MAX`), before anything is recorded: such a name would fail only when the
    /// finished file is given it.
    ///
    /// - Throws: `cannotCreateOutput` (exit 73).
    static func checkNameLength(of path: String) throws(CamrecError) {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        let limit = OutputFile.nameLimit(in: OutputFile.folderOf(path))
        guard name.utf8.count <= limit else {
            throw CamrecError(.cannotCreateOutput, "cannot create \(path): its name is \(name.utf8.count) bytes long and "
                + "the file system of \(OutputFile.folderOf(path)) takes at most \(limit); choose a shorter name")
        }
    }

    /// Makes the finished file `temporary` the file `final`: flushes it to disk, moves it
    /// (replacing an existing `final` only when `replace`; without it an existing `final`,
    /// made meanwhile by another run, is never replaced: see ``place(_:as:)``), and flushes
    /// the folder so that the new name survives a power cut. On failure `temporary` is left
    /// as it is, under its own name.
    package static func publish(_ temporary: String, as final: String, replace: Bool) throws(CamrecError) {
        try flush(temporary)
        if replace {
            guard rename(temporary, final) == 0 else {
                throw CamrecError(.cannotCreateOutput, "cannot move \(temporary) to \(final): \(systemMessage(errno))")
            }
        } else {
            let code = place(temporary, as: final).code
            guard code == 0 else {
                let reason = code == EEXIST ? "\(final) exists: another run made it meanwhile" : systemMessage(code)
                throw CamrecError(.cannotCreateOutput, "cannot move \(temporary) to \(final) (\(reason))")
            }
        }
        syncFolder(of: final)
    }

    /// Flushes the finished file `temporary` to disk, before it gets its name.
    private static func flush(_ temporary: String) throws(CamrecError) {
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
    }

    /// Like ``publish(_:as:replace:)`` without replacing, but a taken name is no failure:
    /// the file takes the first free name of `name(1)`, `name(2)`, … (at most `tries`).
    /// Returns the name it took.
    package static func publishUnderFreeName(_ temporary: String, tries: Int = 1000,
                                             _ name: (Int) -> String) throws(CamrecError) -> String {
        try flush(temporary)
        for attempt in 1...max(tries, 1) {
            let final = name(attempt)
            let code = place(temporary, as: final).code
            if code == 0 {
                syncFolder(of: final)
                return final
            }
            guard code == EEXIST else {
                throw CamrecError(.cannotCreateOutput, "cannot move \(temporary) to \(final): \(systemMessage(code))")
            }
        }
        throw CamrecError(.cannotCreateOutput, "no free name like \(name(1)): \(tries) are taken")
    }

    /// How a file system lets camrec give a finished file its name without replacing one.
    package enum Placement: String, Equatable, Sendable {
        /// `link()` then `unlink()` of the temporary name (ext4, xfs, btrfs, …).
        case link
        /// `renameat2(RENAME_NOREPLACE)` (file systems without hard links that have it).
        case renameNoReplace = "renameat2(RENAME_NOREPLACE)"
        /// A check that the name is free, then `rename()`, both under a lock file in the
        /// folder (FAT and exFAT through FUSE, which have neither).
        case lockedRename = "a check then rename() under a lock file"
    }

    /// Gives `temporary` the name `final` unless `final` exists, trying each way in turn:
    /// `link()`, then (when the file system has no hard links) `renameat2(RENAME_NOREPLACE)`,
    /// then (when it has no such flag either) a check and `rename()` under the folder's lock
    /// file. Returns 0, or the errno of the failure (EEXIST: the name is taken), `temporary`
    /// then being untouched; and the way it took (or tried last).
    package static func place(_ temporary: String, as final: String) -> (code: Int32, way: Placement) {
        if link(temporary, final) == 0 {
            unlink(temporary)
            return (0, .link)
        }
        let linkError = errno
        // EPERM: FAT, exFAT; EOPNOTSUPP (== ENOTSUP): some FUSE and network file systems.
        guard [EPERM, EOPNOTSUPP, EMLINK, ENOSYS].contains(linkError) else { return (linkError, .link) }
        let renamed = renameNoReplace(temporary, final)
        if renamed == 0 { return (0, .renameNoReplace) }
        guard [EINVAL, ENOSYS, EOPNOTSUPP].contains(renamed) else { return (renamed, .renameNoReplace) }
        return (lockedRename(temporary, final), .lockedRename)
    }

    /// The name of the lock file ``place(_:as:)`` takes in a folder whose file system has
    /// neither hard links nor `RENAME_NOREPLACE`. It stays (empty): removing it would race
    /// with another run taking it.
    package static let lockFileName = ".camrec-publish.lock"

    /// Check-then-rename, made safe between camrec runs by an exclusive `flock` on the
    /// folder's lock file.
    private static func lockedRename(_ temporary: String, _ final: String) -> Int32 {
        let lockPath = OutputFile.folderOf(final) + "/" + lockFileName
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
        guard lock >= 0 else { return errno }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { return errno }
        }
        defer { flock(lock, LOCK_UN) }
        var info = stat()
        if lstat(final, &info) == 0 { return EEXIST }
        guard errno == ENOENT else { return errno }
        return rename(temporary, final) == 0 ? 0 : errno
    }

    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// glibc's `renameat2`, looked up at run time (Swift's Glibc module does not declare it).
    private static let renameAt2: RenameAt2? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: RenameAt2.self)
    }()

    /// `renameat2(RENAME_NOREPLACE)`: 0, or the errno (ENOSYS without the call).
    private static func renameNoReplace(_ from: String, _ to: String) -> Int32 {
        guard let renameAt2 else { return ENOSYS }
        let renameNoReplaceFlag: UInt32 = 1  // RENAME_NOREPLACE, linux/fs.h
        return renameAt2(AT_FDCWD, from, AT_FDCWD, to, renameNoReplaceFlag) == 0 ? 0 : errno
    }

    /// Flushes the folder holding `path`, so that a name made or removed there survives a
    /// power cut.
    package static func syncFolder(of path: String) {
        let folder = open(OutputFile.folderOf(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }
}

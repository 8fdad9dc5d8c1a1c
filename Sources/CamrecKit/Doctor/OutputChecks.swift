#if canImport(Glibc)
import Glibc
#endif

/// The output folder: it exists and can be written, its free space (in hours of video at
/// the planned size and rate), its file system (FAT cannot hold a file over 4 GB), and
/// unfinished recordings left in it.
enum OutputChecks {
    /// What the output checks need to know about the recording that is planned.
    struct Plan: Sendable, Equatable {
        /// Where recordings go: a folder, or an OUTPUT path (its folder is checked).
        var output: String
        /// The movie's size and rate, for the bitrate.
        var size: FrameSize
        var rate: FrameRateValue
        /// `--segment`: the length of each movie, nil for one movie.
        var segment: TimeSpec?

        /// Bytes a second of video takes: the encoder's bitrate (EncoderSettings) plus 2 % for the container.
        var bytesPerSecond: Double {
            Double(EncoderSettings().estimatedBitrate(size: size, rate: rate)) * 1000 / 8 * 1.02
        }

        /// "1280x720 at 30 fps".
        var videoDescription: String { "\(size) at \(rate) fps" }
    }

    /// The folder that OUTPUT names: itself when it is a folder (or does not exist and has
    /// no movie extension), else the folder it is in.
    static func folder(for output: String) -> String {
        var info = stat()
        if stat(output, &info) == 0 { return (info.st_mode & S_IFMT) == S_IFDIR ? output : OutputFile.folderOf(output) }
        return MediaContainer(recordingPath: output) == nil ? output : OutputFile.folderOf(output)
    }

    static func run(_ plan: Plan) -> [DoctorCheck] {
        let folder = folder(for: plan.output)
        var place = DoctorCheck(.output, "folder", .ok, "\(folder) can be written")
        place.path = folder
        if let error = folderError(folder) {
            place = .problem(.output, "folder", error, fix: error.message.contains("does not exist")
                ? "mkdir -p \(StalePartials.shellQuoted(folder))" : "choose a folder you can write, or fix its permissions")
            place.path = folder
            return [place]
        }
        var checks = [place]
        if let free = freeBytes(in: folder) {
            checks.append(space(free: free, folder: folder, plan: plan, total: totalBytes(in: folder)))
        }
        if let mount = MountTable.current().mount(holding: folder) {
            checks.append(fileSystem(mount.type, folder: folder, plan: plan))
        }
        checks.append(publication(in: folder))
        checks.append(StalePartialScan.check(folder: folder))
        return checks
    }

    /// Why a recording cannot write in `folder`, in the words a recording uses; nil when it can.
    static func folderError(_ folder: String) -> CamrecError? {
        func failure(_ reason: String) -> CamrecError { CamrecError(.cannotCreateOutput, reason) }
        var info = stat()
        guard stat(folder, &info) == 0 else {
            switch errno {
            case ENOENT: return failure("folder \(folder) does not exist")
            case ENOTDIR: return failure("\(folder) is not a folder (part of it is a file)")
            case let code: return failure("cannot use folder \(folder): \(systemMessage(code))")
            }
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return failure("\(folder) is not a folder") }
        guard access(folder, W_OK | X_OK) == 0 else {
            switch errno {
            case EACCES, EPERM: return failure("folder \(folder) is not writable")
            case EROFS: return failure("folder \(folder) is on a read-only file system")
            case let code: return failure("cannot write in folder \(folder): \(systemMessage(code))")
            }
        }
        return nil
    }

    /// Free space, in bytes and in hours of video: a warning under an hour, a problem (exit
    /// 74) when none is left. The `--min-free` it suggests fits the file system (`total`
    /// bytes): a tenth of it, at most 1G.
    static func space(free: Int64, folder: String, plan: Plan, total: Int64? = nil) -> DoctorCheck {
        let hours = Double(free) / plan.bytesPerSecond / 3600
        let perHour = humanSize(Int64(plan.bytesPerSecond * 3600))
        let message = "\(humanSize(free)) free in \(folder): about \(humanHours(hours)) of \(plan.videoDescription) (\(perHour) an hour)"
        let fix = "free some space, or record in segments that make room: --segment 10m --min-free \(suggestedMinFree(total: total))"
        var check: DoctorCheck
        if free <= 0 {
            check = .problem(.output, "free space", CamrecError(.diskFull, "no space left in \(folder): a recording there "
                                                                 + "fails at once"), fix: fix)
        } else if hours < 1 {
            check = DoctorCheck(.output, "free space", .warning, message, fix: fix)
        } else {
            check = DoctorCheck(.output, "free space", .ok, message)
        }
        check.path = folder
        check.freeBytes = free
        return check
    }

    /// A `--min-free` value that fits a file system of `total` bytes: a tenth of it, at
    /// most 1G, in whole K or M (powers of 1024, as `--min-free` reads them).
    static func suggestedMinFree(total: Int64?) -> String {
        guard let total, total > 0 else { return "1G" }
        let tenth = total / 10
        if tenth >= 1 << 30 { return "1G" }
        if tenth >= 1 << 20 { return "\(tenth >> 20)M" }
        return "\(max(tenth >> 10, 1))K"
    }

    /// The size of the file system holding `folder`, in bytes.
    static func totalBytes(in folder: String) -> Int64? {
        var info = statvfs()
        guard statvfs(folder, &info) == 0 else { return nil }
        return Int64(info.f_blocks) * Int64(info.f_frsize)
    }

    /// The file system: on FAT a warning unless segments stay under its 4 GB file limit.
    static func fileSystem(_ type: String, folder: String, plan: Plan) -> DoctorCheck {
        var check: DoctorCheck
        if MountTable.isFAT(type) {
            let limitHours = Double(MountTable.fatFileLimit) / plan.bytesPerSecond / 3600
            if let segment = plan.segment {
                let bytes = plan.bytesPerSecond * segment.seconds
                if bytes < Double(MountTable.fatFileLimit) * 0.9 {
                    check = DoctorCheck(.output, "file system", .ok,
                                        "\(folder) is on FAT (\(type)): segments of \(segment) (about \(humanSize(Int64(bytes)))) stay under its 4 GB file limit")
                } else {
                    check = DoctorCheck(.output, "file system", .warning,
                                        "\(folder) is on FAT (\(type)), which cannot hold a file over 4 GB: segments of \(segment) of \(plan.videoDescription) are about \(humanSize(Int64(bytes)))",
                                        fix: "record shorter segments (--segment \(safeSegment(hours: limitHours))), or format the card as exFAT or ext4")
                }
            } else {
                check = DoctorCheck(.output, "file system", .warning,
                                    "\(folder) is on FAT (\(type)), which cannot hold a file over 4 GB: about \(humanHours(limitHours)) of \(plan.videoDescription); a longer recording fails",
                                    fix: "record in segments (--segment \(safeSegment(hours: limitHours))), or format the card as exFAT or ext4")
            }
        } else {
            check = DoctorCheck(.output, "file system", .ok, "\(folder) is on \(type)")
        }
        check.path = folder
        check.filesystem = type
        return check
    }

    /// How a finished file takes its name in `folder`, tried for real the way camrec does
    /// it (``Destination/place(_:as:)``) on two scratch files it removes: link(), or
    /// renameat2(RENAME_NOREPLACE), or a check-then-rename under a lock file; and whether
    /// fsync works there.
    static func publication(in folder: String) -> DoctorCheck {
        let base = folder + "/.camrec-doctor-\(getpid())"
        let (temporary, final) = (base + ".tmp", base + ".name")
        defer {
            unlink(temporary)
            unlink(final)
        }
        func finish(_ check: DoctorCheck) -> DoctorCheck {
            var check = check
            check.path = folder
            return check
        }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            return finish(.problem(.output, "publication", CamrecError(.cannotCreateOutput,
                "cannot create a file in \(folder): \(systemMessage(errno))"), fix: "choose a folder you can write"))
        }
        let byte: [UInt8] = [0]
        let flushed = write(descriptor, byte, 1) == 1 && fsync(descriptor) == 0
        close(descriptor)
        let (code, way) = Destination.place(temporary, as: final)
        guard code == 0 else {
            return finish(.problem(.output, "publication", CamrecError(.cannotCreateOutput,
                "finished files cannot be given their names in \(folder) (\(way.rawValue): \(systemMessage(code))): "
                + "recordings would stay under their .partial names"), fix: "record to another file system (ext4, or FAT/exFAT)"))
        }
        let folderFlushed: Bool = {
            let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            return fsync(fd) == 0
        }()
        let how: String
        switch way {
        case .link: how = "with link(), which never replaces a file"
        case .renameNoReplace: how = "with renameat2(RENAME_NOREPLACE) (the file system has no hard links), which never replaces a file"
        case .lockedRename:
            how = "with a check then rename() under the lock file \(Destination.lockFileName) (the file system has neither hard "
                + "links nor RENAME_NOREPLACE): safe between camrec runs, not against other programs writing the same name"
        }
        guard flushed, folderFlushed else {
            return finish(DoctorCheck(.output, "publication", .warning,
                                      "finished files take their names \(how), but fsync fails in \(folder): a power cut may lose the newest files",
                                      fix: "record to a file system that supports fsync"))
        }
        return finish(DoctorCheck(.output, "publication", .ok, "finished files take their names \(how); fsync works"))
    }

    /// A round segment length well under `hours`: "1h", "30m", "10m", "1m".
    static func safeSegment(hours: Double) -> String {
        let minutes = hours * 60 * 0.8
        for (limit, text) in [(240.0, "4h"), (120, "2h"), (60, "1h"), (30, "30m"), (10, "10m"), (5, "5m")] where minutes >= limit {
            return text
        }
        return "1m"
    }

    static func freeBytes(in folder: String) -> Int64? {
        var info = statvfs()
        guard statvfs(folder, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// "3.4 GB", "812 MB", "20 KB" (powers of 1000, as `df -H`).
    static func humanSize(_ bytes: Int64) -> String {
        let value = Double(bytes)
        if value >= 1e12 { return formatted(value / 1e12, "TB") }
        if value >= 1e9 { return formatted(value / 1e9, "GB") }
        if value >= 1e6 { return formatted(value / 1e6, "MB") }
        return formatted(value / 1e3, "KB")
    }

    /// "3.4 h", "25 min", "less than a minute".
    static func humanHours(_ hours: Double) -> String {
        if hours >= 1 { return formatted(hours, "h") }
        let minutes = hours * 60
        return minutes >= 1 ? "\(Int(minutes.rounded(.down))) min" : "less than a minute"
    }

    /// One decimal under 10, none above: "3.4 GB", "12 GB".
    private static func formatted(_ value: Double, _ unit: String) -> String {
        if value >= 10 { return "\(Int(value.rounded())) \(unit)" }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(unit)"
    }
}

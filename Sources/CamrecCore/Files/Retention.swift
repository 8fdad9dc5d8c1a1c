import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// What a segmented run keeps: `--keep N` (the newest N segments), `--keep-size SIZE`
/// (their total bytes) and `--min-free SIZE` (free space on the output's file system).
/// They apply to the finished files in the output folder that match the run's own name
/// pattern, from this run and earlier ones, oldest first, and never to any other file
/// (not to `.partial` files either). The newest of them is always kept: a rule that
/// would delete it (a `--keep-size` below one movie, free space that deleting cannot
/// give) deletes the others, and the run stops as disk-full if free space stays short.
public struct RetentionPolicy: Sendable, Equatable {
    /// Keep at most this many segments.
    public var keep: Int?
    /// Keep at most this many bytes of segments.
    public var keepBytes: Int64?
    /// Keep at least this many bytes free on the file system.
    public var minFree: Int64?

    public init(keep: Int? = nil, keepBytes: Int64? = nil, minFree: Int64? = nil) {
        self.keep = keep
        self.keepBytes = keepBytes
        self.minFree = minFree
    }

    /// Whether any rule is set.
    public var isActive: Bool { keep != nil || keepBytes != nil || minFree != nil }

    /// A file retention may delete.
    struct Candidate: Equatable {
        var path: String
        var bytes: Int64
        /// Seconds since 1970 of its last change: the order files were finished in.
        var modified: Double
    }

    /// Which rule made a file go.
    public enum Rule: String, Sendable, Codable {
        case keep
        case keepSize = "keep-size"
        case minFree = "min-free"
    }

    /// The files to delete, oldest first, with the rule that deletes each; whether the
    /// free-space rule is still unmet afterwards (nothing left to delete); and the `held`
    /// files a rule would have deleted (an `--on-file` command still has them): they are
    /// passed over for the next oldest, and wait for a later pass.
    func victims(_ files: [Candidate], freeBytes: Int64, held: Set<String> = [])
        -> (deletions: [(Candidate, Rule)], stillShort: Bool, waiting: [String]) {
        let ordered = files.sorted { ($0.modified, $0.path) < ($1.modified, $1.path) }
        var count = ordered.count
        var total = ordered.reduce(Int64(0)) { $0 + $1.bytes }
        var free = freeBytes
        var deletions: [(Candidate, Rule)] = []
        var waiting: [String] = []
        // The newest is always kept.
        for oldest in ordered.dropLast() {
            let rule: Rule
            if let keep, count > keep {
                rule = .keep
            } else if let keepBytes, total > keepBytes {
                rule = .keepSize
            } else if let minFree, free < minFree {
                rule = .minFree
            } else {
                break
            }
            if held.contains(oldest.path) {
                waiting.append(oldest.path)
                continue
            }
            count -= 1
            total -= oldest.bytes
            free += oldest.bytes
            deletions.append((oldest, rule))
        }
        let stillShort = minFree.map { free < $0 } ?? false
        return (deletions, stillShort, waiting)
    }

    /// The warning for a file a rule would delete that an `--on-file` command still has.
    package static func waitingMessage(_ path: String) -> String {
        "retention keeps \(path) until its --on-file command has ended, and deletes the next oldest instead (or, if none, waits)"
    }

    /// Free bytes for an unprivileged writer on the file system holding `folder`.
    package static func freeBytes(in folder: String) -> Int64? {
        var info = statvfs()
        guard statvfs(folder, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}

/// A file that retention deleted.
public struct DeletedFile: Sendable, Codable, Equatable {
    /// Where it was.
    public var path: String
    /// Its size.
    public var bytes: Int64
    /// The rule that deleted it.
    public var rule: RetentionPolicy.Rule
    /// Several cameras in one run: the device of the camera whose series it was; nil with one.
    public var device: String?
}

/// Applies a `RetentionPolicy` to the run's files on disk.
package struct RetentionKeeper {
    let policy: RetentionPolicy
    let naming: SegmentNaming

    package init(policy: RetentionPolicy, naming: SegmentNaming) {
        self.policy = policy
        self.naming = naming
    }

    /// The run's finished files in the folder (matching the pattern, not `.partial`).
    func candidates() -> [RetentionPolicy.Candidate] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: naming.folder) else { return [] }
        var files: [RetentionPolicy.Candidate] = []
        for name in names where !name.contains(".partial") && naming.match(name) != nil {
            let path = naming.folder == "." ? name : (naming.folder == "/" ? "/" + name : naming.folder + "/" + name)
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            files.append(.init(path: path, bytes: Int64(info.st_size), modified: modified))
        }
        return files
    }

    /// Deletes what the policy says must go; returns what was deleted and whether the
    /// free-space rule is still unmet. `freeSpaceOnly` (the frequent check while a movie
    /// is written) looks at the folder only when free space is short: a statvfs, not a
    /// listing of a folder that may hold thousands of movies. `stopping`: the run is
    /// stopping, no movie will follow, so nothing is deleted to make room (`--min-free`
    /// deletes nothing; `--keep` and `--keep-size`, which bound what is kept whatever comes
    /// next, still apply to the movies the run finishes).
    /// `waiting`: the files a rule would have deleted that `holds` holds (an `--on-file`
    /// command has them), kept for now.
    package func apply(freeSpaceOnly: Bool = false, stopping: Bool = false, holds: FileHolds = .process)
        -> (deleted: [DeletedFile], stillShort: Bool, waiting: [String]) {
        var policy = policy
        if stopping { policy.minFree = nil }
        guard policy.isActive else { return ([], false, []) }
        let free = RetentionPolicy.freeBytes(in: naming.folder) ?? Int64.max
        if freeSpaceOnly, free >= policy.minFree ?? 0 { return ([], false, []) }
        let (victims, stillShort, waiting) = policy.victims(candidates(), freeBytes: free, held: holds.paths)
        var deleted: [DeletedFile] = []
        for (file, rule) in victims where unlink(file.path) == 0 {
            deleted.append(DeletedFile(path: file.path, bytes: file.bytes, rule: rule))
        }
        if !deleted.isEmpty { Destination.syncFolder(of: victims[0].0.path) }
        // Freed space is measured again: the estimate above assumed every byte comes back.
        let short = policy.minFree.map { (RetentionPolicy.freeBytes(in: naming.folder) ?? Int64.max) < $0 } ?? false
        return (deleted, stillShort && short, waiting)
    }
}

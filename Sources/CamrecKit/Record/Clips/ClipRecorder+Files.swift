import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Where a clip goes when it is done: its Live Photo still, its publication, retention
/// over the clips and the next free name.
extension ClipRecorder {
    /// A Live Photo's still for clip `number` was written (or not).
    func stillTaken(forClip number: Int, _ result: Result<ResultFile, CamrecError>) {
        shared.withLockWaking { state in
            if case .success(let file) = result { state.stills[number] = file.path } else { state.stills[number] = .some(nil) }
        }
    }

    /// Waits (at most 10 s) for clip `number`'s still; its path, nil when none was written.
    func awaitStill(forClip number: Int) -> String? {
        shared.wait(until: { $0.stills[number] != nil }, deadline: ContinuousClock.now + .seconds(10)) { state, _ in
            state.stills[number] ?? nil
        }
    }

    /// Moves the finalised file into place as it is, through the one publisher (flushed,
    /// never replacing a file that appeared meanwhile, FAT and exFAT included).
    func move(_ writer: ClipWriter, to final: String, frames: Int) -> ResultFile? {
        do {
            try Destination.publish(writer.path, as: final, replace: false)
        } catch {
            events(.warning("clip kept at \(writer.path): \(error.message)"))
            return nil
        }
        var info = stat()
        let bytes = stat(final, &info) == 0 ? Int64(info.st_size) : 0
        return ResultFile(path: final, kind: "clip", duration: Double(UInt64(frames) * frameDuration) / 1e9,
                          frames: frames, bytes: bytes)
    }

    /// `--keep` and friends over the clips (one clip thread at a time: they finish in turn).
    func applyRetention() {
        guard let policy = settings.retention else { return }
        retentionLock.withLock { _ in
            let (deleted, stillShort, waiting) = RetentionKeeper(policy: policy, naming: naming).apply()
            for file in deleted {
                events(.deleted(file))
                shared.withLock { $0.files.removeAll { $0.path == file.path } }
            }
            for path in waiting where shared.withLock({ $0.waitedFor.insert(path).inserted }) {
                events(.warning(RetentionPolicy.waitingMessage(path)))
            }
            if stillShort, waiting.isEmpty {
                events(.warning("free space stays below --min-free with only the newest clip left: clips go on, but the disk is nearly full"))
                if let line = DiskLowLine(policy: policy, folder: naming.folder, action: "going-on") { events(.diskLow(line)) }
            }
        }
    }

    // MARK: Names

    /// The next clip's number and name, a name whose final and partial files are both
    /// free: the counter moves on past taken names; a pattern without a counter (time
    /// fields only) gets `-2`, `-3`, … as segments do. `lastNumber` is the shared state's.
    func nextName(after lastNumber: inout Int) -> (Int, String) {
        let number = lastNumber + 1
        lastNumber = number
        let date = Date()
        var counter = number
        var collision = 1
        while true {
            let path = naming.path(counter: counter, date: date, collision: collision)
            if access(path, F_OK) != 0, access(Self.partialPath(path), F_OK) != 0 { return (number, path) }
            if naming.hasCounter { counter += 1 } else { collision += 1 }
        }
    }

    static func partialPath(_ final: String) -> String {
        let (stem, ext) = OutputFile.split(final)
        return stem + ".partial" + ext
    }
}

import Synchronization

/// The files something of this process still needs, that retention must not delete: a
/// finished movie whose `--on-file` command is queued or running. Process-wide, as the
/// files are: retention (of segments and of clips) asks it, the hooks' queue holds and
/// releases. A file held twice (two hooks) is free once both released it.
package final class FileHolds: Sendable {
    /// The process's holds.
    package static let process = FileHolds()

    private let counts = Mutex<[String: Int]>([:])

    package init() {}

    /// Holds `path` until a matching `release`.
    package func hold(_ path: String) {
        counts.withLock { $0[path, default: 0] += 1 }
    }

    /// Gives up one hold on `path`.
    package func release(_ path: String) {
        counts.withLock { counts in
            guard let count = counts[path] else { return }
            counts[path] = count > 1 ? count - 1 : nil
        }
    }

    /// Whether anything holds `path`.
    package func isHeld(_ path: String) -> Bool {
        counts.withLock { $0[path] != nil }
    }

    /// Every held path.
    package var paths: Set<String> {
        counts.withLock { Set($0.keys) }
    }
}

import Dispatch
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Makes a recording durable as it goes: four times a second it flushes to the disk
/// (`fdatasync`) the data of every movie being written that has grown since its last
/// flush (a new fragment or cluster, about every half second), so that a power cut loses
/// at most the fragment being written plus a quarter of a second, not the tens of
/// seconds a file system may keep in memory. It runs on its own thread: a slow disk (an SD card) delays the flush, never a
/// frame. The folder is flushed whenever a name is made or removed (`Destination`).
package final class DurabilityFlusher: Sendable {
    /// How often the movies are flushed.
    static let interval: Duration = .milliseconds(250)

    private let wake = DispatchSemaphore(value: 0)
    private let stopped = StopFlag()
    private let finished = DispatchSemaphore(value: 0)

    /// Whether the flusher was asked to stop, shared with its thread.
    private final class StopFlag: Sendable {
        private let value = Mutex(false)
        var isSet: Bool { value.withLock { $0 } }
        /// Sets the flag; true when it was already set.
        func set() -> Bool { value.withLock { state in defer { state = true }; return state } }
    }

    /// Starts flushing the files `paths` names (asked again on every turn).
    package init(paths: @escaping @Sendable () -> [String]) {
        let (wake, stopped, finished) = (wake, stopped, finished)
        NamedThread.start("camrec-durability") {
            var flushedSizes: [String: Int64] = [:]
            while !stopped.isSet {
                _ = wake.wait(timeout: .now() + .milliseconds(Int(Self.interval / .milliseconds(1))))
                let open = paths()
                for path in open {
                    let size = OutputFile.size(of: path)
                    guard size != flushedSizes[path] else { continue }
                    Self.flush(path)
                    flushedSizes[path] = size
                }
                flushedSizes = flushedSizes.filter { open.contains($0.key) }
            }
            finished.signal()
        }
    }

    /// Flushes one file's data; a file that is gone (renamed meanwhile) is skipped.
    static func flush(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fdatasync(descriptor)
        close(descriptor)
    }

    /// Stops the thread (after one last flush) and waits for it.
    package func stop() {
        guard !stopped.set() else { return }
        wake.signal()
        finished.wait()
    }

}

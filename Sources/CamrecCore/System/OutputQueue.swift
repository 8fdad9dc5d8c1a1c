import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Lines on their way to a reader that may stop reading (`camrec --json … | sleep 40`, a
/// stalled log collector), written by a thread of their own so that no caller ever waits for
/// the reader: a recording's bus loop, its still taker and its finalising go on whatever the
/// pipe does.
///
/// The queue holds at most `capacity` bytes; a line that does not fit is dropped and counted
/// (`droppedLines`), except an essential one (the final result, an error), which is always
/// queued. `drain(timeout:)` waits, for a bounded time, for what is queued to be written.
public final class OutputQueue: Sendable {
    private let capacity: Int
    private let write: @Sendable ([UInt8]) -> Void
    /// The writer thread waits on it for lines, `drain` for them to be written.
    private let queue = Monitor(Queue())

    private struct Queue {
        /// The lines from `first` on are still to be written.
        var lines: [[UInt8]] = []
        var first = 0
        /// Bytes queued and not yet written (the line being written included).
        var queuedBytes = 0
        /// Whether the writer thread is writing a line.
        var writing = false
        var dropped = 0
    }

    /// Starts the writer thread (`name`), which hands each line to `write` in order; `write`
    /// may block for as long as the reader makes it.
    public init(name: String, capacity: Int, write: @escaping @Sendable ([UInt8]) -> Void) {
        self.capacity = capacity
        self.write = write
        NamedThread.start(name) { [self] in run() }
    }

    /// Queues `line`; false (and counted) when it does not fit and is not `essential`.
    @discardableResult
    public func enqueue(_ line: [UInt8], essential: Bool = false) -> Bool {
        guard !line.isEmpty else { return true }
        return queue.withLockWaking { queue in
            guard essential || queue.queuedBytes + line.count <= capacity else {
                queue.dropped += 1
                return false
            }
            queue.lines.append(line)
            queue.queuedBytes += line.count
            return true
        }
    }

    /// Lines dropped so far because the reader did not keep up.
    public var droppedLines: Int { queue.withLock { $0.dropped } }

    /// Waits until every queued line is written or `timeout` passes; true when all were written.
    @discardableResult
    public func drain(timeout: Duration) -> Bool {
        queue.wait(until: { $0.first >= $0.lines.count && !$0.writing }, deadline: .now + timeout) { _, drained in drained }
    }

    private func run() {
        // Signals are for the thread that waits for them (`SignalWatcher`): this thread may
        // start before they are blocked, and must never take one and die of it.
        var all = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, nil)
        while true {
            let line = queue.wait(until: { $0.first < $0.lines.count }) { queue, _ in
                let line = queue.lines[queue.first]
                queue.first += 1
                // Compact now and then, not on every line.
                if queue.first >= 64, queue.first * 2 >= queue.lines.count {
                    queue.lines.removeFirst(queue.first)
                    queue.first = 0
                }
                queue.writing = true
                return line
            }
            write(line)
            queue.withLockWaking { queue in
                queue.queuedBytes -= line.count
                queue.writing = false
            }
        }
    }
}

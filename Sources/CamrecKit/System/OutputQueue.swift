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
///
/// `@unchecked Sendable`: its state is guarded by a `ThreadCondition`'s mutex (the writer
/// thread waits on that condition, which a `Mutex` cannot offer).
public final class OutputQueue: @unchecked Sendable {
    private let condition = ThreadCondition()
    private let capacity: Int
    private let write: @Sendable ([UInt8]) -> Void
    // Guarded by `condition`.
    private var lines: [[UInt8]] = []
    private var first = 0
    private var queuedBytes = 0
    private var writing = false
    private var dropped = 0

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
        return condition.withLock {
            guard essential || queuedBytes + line.count <= capacity else {
                dropped += 1
                return false
            }
            lines.append(line)
            queuedBytes += line.count
            condition.broadcast()
            return true
        }
    }

    /// Lines dropped so far because the reader did not keep up.
    public var droppedLines: Int { condition.withLock { dropped } }

    /// Waits until every queued line is written or `timeout` passes; true when all were written.
    @discardableResult
    public func drain(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        return condition.withLock {
            while first < lines.count || writing {
                let left = deadline - ContinuousClock.now
                guard left > .zero else { return false }
                condition.wait(seconds: Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18)
            }
            return true
        }
    }

    private func run() {
        // Signals are for the thread that waits for them (`SignalWatcher`): this thread may
        // start before they are blocked, and must never take one and die of it.
        var all = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, nil)
        while true {
            let line: [UInt8] = condition.withLock {
                while first >= lines.count { condition.wait() }
                let line = lines[first]
                first += 1
                // Compact now and then, not on every line.
                if first >= 64, first * 2 >= lines.count {
                    lines.removeFirst(first)
                    first = 0
                }
                writing = true
                return line
            }
            write(line)
            condition.withLock {
                queuedBytes -= line.count
                writing = false
                condition.broadcast()
            }
        }
    }
}

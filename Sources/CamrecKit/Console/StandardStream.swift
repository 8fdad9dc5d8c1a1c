#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// stdout or stderr, written with write(2) so that a reader that has gone away never
/// costs a recording anything.
///
/// A closed pipe (`| head -1`), a terminal that was closed (`tmux kill-pane`: EIO) or a
/// closed descriptor (`2>&-`: EBADF) means that nobody is listening any more: the stream
/// stops writing for good and the caller goes on. Foundation's non-throwing FileHandle write
/// traps on those errors instead, which lost the movie. SIGPIPE must be ignored
/// (`ignoreBrokenPipe()`), or the first such write kills the process before it sees EPIPE.
public final class StandardStream: Sendable {
    /// Standard output (JSON lines, help texts).
    public static let output = StandardStream(descriptor: STDOUT_FILENO)
    /// Standard error (human lines, the progress line).
    public static let error = StandardStream(descriptor: STDERR_FILENO)

    private let descriptor: Int32
    private let gone = Atomic<Bool>(false)
    /// Set by `queueWrites()`: writes then go through a queue of their own thread.
    private let queue = Mutex<OutputQueue?>(nil)

    /// How much a queued stream holds for a reader that does not read, before lines are
    /// dropped (and counted).
    public static let queueCapacity = 1 << 20

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Ignores SIGPIPE for the whole process: a write to a closed pipe then fails with
    /// EPIPE instead of killing camrec. Call first thing in `main`.
    public static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Takes a closed standard descriptor (`>&-`, `2>&-`, `<&-`) with /dev/null before
    /// anything else is opened, so that no file camrec opens gets its number and receives
    /// what was meant for stdout or stderr (a JSON line written over a movie's first bytes);
    /// the stream counts as gone, as after EBADF. Call first thing in `main`.
    public static func holdClosedDescriptors() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if opened >= 0, opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
            if descriptor == STDOUT_FILENO { output.gone.store(true, ordering: .relaxed) }
            if descriptor == STDERR_FILENO { error.gone.store(true, ordering: .relaxed) }
        }
    }

    /// Whether a reader is still there (false after the first EPIPE, EIO or EBADF).
    public var isOpen: Bool { !gone.load(ordering: .relaxed) }

    /// From now on, stdout's and stderr's writes go through queues written by threads of
    /// their own (for commands that record): a reader that stops reading never blocks the
    /// recording, its stills or its finalising; lines that do not fit are dropped and counted.
    public static func queueWrites() {
        output.startQueue(name: "camrec-stdout")
        error.startQueue(name: "camrec-stderr")
    }

    /// This stream's writes go through a queue written by a thread called `name`, from now on.
    func startQueue(name: String, capacity: Int = queueCapacity) {
        queue.withLock { queue in
            if queue == nil {
                queue = OutputQueue(name: name, capacity: capacity) { [self] bytes in
                    var bytes = bytes
                    writeNow(&bytes)
                }
            }
        }
    }

    /// Waits, at most `timeout` in all, for what the queued streams hold to be written
    /// (before camrec exits); nothing to wait for when writes are not queued.
    public static func drain(timeout: Duration) {
        let deadline = ContinuousClock.now + timeout
        for stream in [output, error] {
            stream.queue.withLock { $0 }?.drain(timeout: max(.zero, deadline - ContinuousClock.now))
        }
    }

    /// Whether writes go through a queue (`queueWrites()`).
    public var isQueued: Bool { queue.withLock { $0 != nil } }

    /// Lines dropped because the reader did not keep up (queued writes only).
    public var droppedLines: Int { queue.withLock { $0 }?.droppedLines ?? 0 }

    /// Writes all of `text`, or as much as a reader takes before going away. Never traps.
    /// An `essential` line (a result, an error) is queued even when the queue is full.
    public func write(_ text: String, essential: Bool = false) {
        var bytes = Array(text.utf8)
        write(&bytes, essential: essential)
    }

    /// Writes all of `bytes`; see `write(_:)` for a string.
    public func write(_ bytes: inout [UInt8], essential: Bool = false) {
        guard isOpen, !bytes.isEmpty else { return }
        if let queue = queue.withLock({ $0 }) {
            queue.enqueue(bytes, essential: essential)
            return
        }
        writeNow(&bytes)
    }

    /// Writes `bytes` on the calling thread.
    private func writeNow(_ bytes: inout [UInt8]) {
        guard isOpen, !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var done = 0
            while done < buffer.count {
                let result = Glibc.write(descriptor, base + done, buffer.count - done)
                if result > 0 {
                    done += result
                    continue
                }
                switch errno {
                case EINTR:
                    continue
                case EAGAIN:
                    // A non-blocking descriptor whose reader is slow: wait for room, but
                    // never block a recording on it for long.
                    var wait = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    if poll(&wait, 1, 1000) <= 0 { return }
                default:
                    // EPIPE, EIO, EBADF, ENOSPC…: nobody can read what we write any more.
                    gone.store(true, ordering: .relaxed)
                    return
                }
            }
        }
    }
}

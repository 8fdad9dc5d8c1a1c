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
final class StandardStream: Sendable {
    /// Standard output (JSON lines, help texts).
    static let output = StandardStream(descriptor: STDOUT_FILENO)
    /// Standard error (human lines, the progress line).
    static let error = StandardStream(descriptor: STDERR_FILENO)

    private let descriptor: Int32
    private let gone = Atomic<Bool>(false)

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Ignores SIGPIPE for the whole process: a write to a closed pipe then fails with
    /// EPIPE instead of killing camrec. Call first thing in `main`.
    static func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Whether a reader is still there (false after the first EPIPE, EIO or EBADF).
    var isOpen: Bool { !gone.load(ordering: .relaxed) }

    /// Writes all of `text`, or as much as a reader takes before going away. Never traps.
    func write(_ text: String) {
        var bytes = Array(text.utf8)
        write(&bytes)
    }

    /// Writes all of `bytes`; see `write(_:)` for a string.
    func write(_ bytes: inout [UInt8]) {
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

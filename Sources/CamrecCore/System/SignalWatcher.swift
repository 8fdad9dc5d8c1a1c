import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Turns POSIX signals into calls on one dedicated thread, with `sigwait`.
///
/// `block(_:)` must run on the main thread before any other thread starts (GStreamer's
/// threads inherit the mask), so that the signals reach only the watcher.
public final class SignalWatcher: Sendable {
    /// The signals a recording reacts to: stop (INT, TERM, HUP), take a still (USR1) and
    /// make an event clip (USR2).
    public static let recordingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2]

    /// Blocks `signals` for this thread and every thread it starts later; ignores SIGPIPE
    /// (a closed stdout must give an error, not kill a recording).
    public static func block(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        Glibc.signal(SIGPIPE, SIG_IGN)
    }

    /// Starts a thread that calls `handler` with each of `signals` as it arrives.
    public static func start(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        startBatched(signals) { batch in batch.forEach(handler) }
    }

    /// Starts a thread that calls `handler` with the signals that are pending together, in
    /// the order they were taken: a SIGINT and a SIGTERM sent back to back (a script's
    /// "stop, and now!") arrive as one batch, so that the second is never mistaken for a
    /// late first one.
    public static func startBatched(_ signals: [Int32], handler: @escaping @Sendable ([Int32]) -> Void) {
        NamedThread.start("camrec-signals") {
            var set = sigset_t()
            sigemptyset(&set)
            for signal in signals { sigaddset(&set, signal) }
            var now = timespec(tv_sec: 0, tv_nsec: 0)
            while true {
                var received: Int32 = 0
                guard sigwait(&set, &received) == 0 else { continue }
                var batch = [received]
                while true {
                    let more = sigtimedwait(&set, nil, &now)
                    if more > 0 { batch.append(more) } else { break }
                }
                handler(batch)
            }
        }
    }

    /// The signal's name without "SIG", e.g. "INT".
    public static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: "INT"
        case SIGTERM: "TERM"
        case SIGHUP: "HUP"
        case SIGUSR1: "USR1"
        case SIGUSR2: "USR2"
        default: "\(signal)"
        }
    }
}

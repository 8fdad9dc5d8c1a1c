#if canImport(Glibc)
import Glibc
#endif

/// A detached POSIX thread with a name, for camrec's own long-lived helpers (signals, control
/// socket, stills, keys, flushing, watchdogs).
///
/// It replaces Foundation's `Thread`, the last reason camrec linked full Foundation: without
/// it the release binary carries only FoundationEssentials (no CoreFoundation start-up, no ICU
/// tables), which takes megabytes off every recording's resident memory (issue 14 point 5).
public enum NamedThread {
    /// Starts `body` on a new detached thread called `name` (at most 15 bytes are kept, the
    /// kernel's limit; `top -H` and `/proc/PID/task/*/comm` show it).
    public static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { raw in
            NamedThread.run(raw)
            return nil
        }, box)
        // Out of threads or memory: nothing camrec can go on without.
        precondition(started == 0, "camrec: cannot start the \(name) thread (error \(started))")
        pthread_detach(thread)
    }

    // A GNU extension that Swift's Glibc module does not show: looked up once.
    private typealias SetName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32
    private static let setName: SetName? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_setname_np")
        .map { unsafeBitCast($0, to: SetName.self) }

    private static func run(_ raw: UnsafeMutableRawPointer?) {
        guard let raw else { return }
        let body = Unmanaged<Body>.fromOpaque(raw).takeRetainedValue()
        _ = setName?(pthread_self(), String(body.name.utf8.prefix(15)) ?? "camrec")
        body.run()
    }

    private final class Body: Sendable {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }
}

import CamrecKit
import Foundation
import Synchronization
import Testing

/// `SignalWatcher` in this process, with signals nobody else here uses.
///
/// How, and why it is safe beside the other tests: `block` blocks the signals for the
/// calling thread only (camrec calls it on its main thread before any other thread starts;
/// here a short-lived thread of the test's own that starts nothing but the watcher), and the
/// watcher thread inherits that mask. The test process's main thread does not block them,
/// so a signal sent to the process (`kill`) would be delivered there: SIGUSR2's default
/// action would end the whole test run. The signals are therefore sent to the watcher
/// thread itself (`tgkill`), where `sigwait` takes them as it takes process signals in
/// camrec. No test thread's mask is changed.
///
/// Signals used: SIGUSR2, SIGWINCH and SIGURG (camrec and GStreamer use none of them; the
/// end-to-end tests signal only child processes). Serialized, so that one test's watcher is
/// never taken for another's. The watcher threads run for the rest of the process (`sigwait`
/// never returns without a signal): one per test, idle.
@Suite(.serialized) struct SignalWatcherTests {
    static let signals: [Int32] = [SIGUSR2, SIGWINCH, SIGURG]

    /// Starts a watcher for `signals` the way camrec does (block, then start) on a thread of
    /// its own that starts from an empty signal mask, like camrec's main thread, and starts
    /// nothing else; returns the watcher thread's id: the new thread waiting in `sigwait`
    /// (the kernel's `rt_sigtimedwait`) with the starter's mask. The test threads' masks are
    /// never touched.
    static func startWatcher(batched: Bool, handler: @escaping @Sendable ([Int32]) -> Void) throws -> pid_t {
        let before = Set(ThreadIDs.all())
        let starter = Mutex<(id: pid_t, mask: UInt64)?>(nil)
        let started = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            // Threads made by Dispatch, which runs the tests, block most signals already.
            var none = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, nil)
            SignalWatcher.block(signals)
            if let id = ThreadIDs.current(), let mask = ThreadIDs.blockedSignals(id) {
                starter.withLock { $0 = (id, mask) }
            }
            if batched {
                SignalWatcher.startBatched(signals, handler: handler)
            } else {
                SignalWatcher.start(signals) { handler([$0]) }
            }
            started.signal()
        }
        try #require(started.wait(timeout: .now() + 60) == .success, "the watcher did not start within 60 s")
        let (starterID, mask) = try #require(starter.withLock { $0 }, "cannot read the starting thread's signal mask")
        #expect(mask == signals.reduce(0) { $0 | ThreadIDs.bit($1) }, "block() blocked \(String(mask, radix: 16)), not \(signals)")
        // The watcher's mask is the starter's, shown without the awaited signals while it
        // waits in sigwait; only threads with such a mask are asked what they wait in (a
        // cheap filter first: reading a running thread's system call waits for it to stop).
        var found: [pid_t] = []
        let appeared = Wait.until {
            found = ThreadIDs.all().filter { id in
                guard !before.contains(id), id != starterID, let blocked = ThreadIDs.blockedSignals(id),
                      blocked == mask || blocked == 0 else { return false }
                return ThreadIDs.isInSigwait(id)
            }
            return !found.isEmpty
        }
        try #require(appeared, "no new thread waits in sigwait")
        try #require(found.count == 1, "several new threads wait in sigwait: \(found)")
        return found[0]
    }

    @Test func aSignalReachesTheHandler() throws {
        let received = Mutex<[[Int32]]>([])
        let watcher = try Self.startWatcher(batched: true) { batch in received.withLock { $0.append(batch) } }
        try ThreadIDs.signal(watcher, SIGWINCH)
        #expect(Wait.until { !received.withLock { $0 }.isEmpty }, "the handler never got SIGWINCH")
        #expect(received.withLock { $0 } == [[SIGWINCH]])
    }

    /// Two different signals pending together arrive as one batch. They are made pending
    /// together by holding the watcher in its handler (the first batch) while they are sent.
    @Test func signalsPendingTogetherArriveAsOneBatch() throws {
        let received = Mutex<[[Int32]]>([])
        let release = DispatchSemaphore(value: 0)
        let watcher = try Self.startWatcher(batched: true) { batch in
            let first = received.withLock { batches in
                batches.append(batch)
                return batches.count == 1
            }
            if first { release.wait() }
        }
        try ThreadIDs.signal(watcher, SIGURG)
        try #require(Wait.until { received.withLock { $0.count } == 1 }, "the handler never got SIGURG")
        // The watcher is held in its handler: both stay pending until it returns.
        try ThreadIDs.signal(watcher, SIGWINCH)
        try ThreadIDs.signal(watcher, SIGUSR2)
        release.signal()
        #expect(Wait.until { received.withLock { $0.count } == 2 }, "batches: \(received.withLock { $0 })")
        let batches = received.withLock { $0 }
        #expect(batches.first == [SIGURG])
        #expect(batches.count == 2 && Set(batches[1]) == [SIGWINCH, SIGUSR2] && batches[1].count == 2, "batches: \(batches)")
    }

    /// `start` calls the handler once per signal, also for signals taken in one batch.
    @Test func unbatchedHandlerGetsEachSignal() throws {
        let received = Mutex<[[Int32]]>([])
        let watcher = try Self.startWatcher(batched: false) { batch in received.withLock { $0.append(batch) } }
        try ThreadIDs.signal(watcher, SIGUSR2)
        try ThreadIDs.signal(watcher, SIGWINCH)
        #expect(Wait.until { received.withLock { $0.count } == 2 }, "calls: \(received.withLock { $0 })")
        let calls = received.withLock { $0 }
        #expect(calls.allSatisfy { $0.count == 1 })
        #expect(Set(calls.flatMap { $0 }) == [SIGUSR2, SIGWINCH])
    }

    @Test func namesWithoutSIG() {
        #expect(SignalWatcher.name(SIGINT) == "INT")
        #expect(SignalWatcher.name(SIGTERM) == "TERM")
        #expect(SignalWatcher.name(SIGHUP) == "HUP")
        #expect(SignalWatcher.name(SIGUSR1) == "USR1")
        #expect(SignalWatcher.name(SIGUSR2) == "USR2")
        #expect(SignalWatcher.name(SIGWINCH) == "\(SIGWINCH)")
        #expect(SignalWatcher.recordingSignals == [SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2])
    }
}

/// This process's threads by kernel id, and signals sent to one of them.
enum ThreadIDs {
    /// Ids of this process's threads.
    static func all() -> [pid_t] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).compactMap { pid_t($0) }
    }

    /// The calling thread's id.
    static func current() -> pid_t? {
        // "/proc/thread-self" links to "PID/task/TID".
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self"))
            .flatMap { $0.split(separator: "/").last }.flatMap { pid_t($0) }
    }

    /// The signals thread `id` blocks (`SigBlk` in /proc/self/task/ID/status), one bit each.
    static func blockedSignals(_ id: pid_t) -> UInt64? {
        guard let status = try? String(contentsOfFile: "/proc/self/task/\(id)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") })
        else { return nil }
        return UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
    }

    /// Whether thread `id` is blocked in `rt_sigtimedwait` (what `sigwait` calls), from
    /// /proc/self/task/ID/syscall, or else its wait channel.
    static func isInSigwait(_ id: pid_t) -> Bool {
        #if arch(x86_64)
        let number = "128"
        #elseif arch(arm64)
        let number = "137"
        #else
        let number = "-"
        #endif
        if let syscall = try? String(contentsOfFile: "/proc/self/task/\(id)/syscall", encoding: .utf8),
           syscall.split(separator: " ").first == Substring(number) {
            return true
        }
        let channel = (try? String(contentsOfFile: "/proc/self/task/\(id)/wchan", encoding: .utf8)) ?? ""
        return channel.contains("sigtimedwait")
    }

    /// A signal's bit in a mask of `blockedSignals`.
    static func bit(_ signal: Int32) -> UInt64 { 1 << UInt64(signal - 1) }

    private typealias ThreadKill = @convention(c) (pid_t, pid_t, Int32) -> Int32

    /// glibc's `tgkill`, which Swift's Glibc module does not declare.
    private static let threadKill: ThreadKill? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "tgkill") else { return nil }
        return unsafeBitCast(symbol, to: ThreadKill.self)
    }()

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Sends `signal` to the thread `id` of this process only.
    static func signal(_ id: pid_t, _ signal: Int32) throws {
        guard let threadKill else { throw Failure(description: "no tgkill in this C library") }
        guard threadKill(getpid(), id, signal) == 0 else {
            throw Failure(description: "tgkill(\(id), \(signal)) failed: errno \(errno)")
        }
    }
}

import CamrecCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import GStreamer
import Synchronization

/// Lets other threads watch and stop a running trim: progress reports, cancellation (on a
/// signal), and how long a stage may make no progress before the trim gives up on it.
///
/// One control serves one trim. ``cancel(reason:)`` is safe from any thread (a signal
/// watcher): it removes the trim's temporary file at once, so nothing is left behind even
/// while the trim is still unwinding, and the trim then throws an `interrupted` error.
public final class TrimControl: Sendable {
    /// How long a stage (demuxer, re-encoder, muxer) may go without any progress before
    /// the trim stops with a `stalled` error. Work that progresses, however slowly, never
    /// times out.
    public let stallTimeout: Duration
    private let onProgress: (@Sendable (TrimProgress) -> Void)?
    private let state = Mutex(State())
    private let watchdog: BlockedCallWatchdog

    private struct State {
        /// Why the trim was cancelled (e.g. "SIGINT"); nil while it runs.
        var cancelReason: String?
        /// The temporary output file, once known.
        var temporaryPath: String?
        /// Whether the output has been renamed into place (too late to cancel).
        var committed = false
    }

    /// - Parameters:
    ///   - stallTimeout: how long a stage may make no progress (default 30 s).
    ///   - onProgress: called on the trimming thread as work gets done; keep it quick.
    public init(stallTimeout: Duration = .seconds(30), onProgress: (@Sendable (TrimProgress) -> Void)? = nil) {
        self.stallTimeout = stallTimeout
        self.onProgress = onProgress
        watchdog = BlockedCallWatchdog(limit: stallTimeout)
    }

    deinit { watchdog.stop() }

    /// Stops the trim as soon as it can: removes its temporary file now and makes it throw
    /// an `interrupted` error (exit status 130). Does nothing once the output is in place,
    /// or after the first call.
    ///
    /// - Parameter reason: what stopped it, for the message (e.g. "SIGINT").
    /// - Returns: whether the trim was stopped (false: it had already finished or been stopped).
    @discardableResult
    public func cancel(reason: String) -> Bool {
        let stopped = state.withLock { state -> Bool in
            guard state.cancelReason == nil, !state.committed else { return false }
            state.cancelReason = reason
            if let path = state.temporaryPath { unlink(path) }
            return true
        }
        if stopped { watchdog.cancelAll() }
        return stopped
    }

    /// Whether ``cancel(reason:)`` stopped the trim.
    public var isCancelled: Bool { state.withLock { $0.cancelReason != nil } }

    /// What stopped the trim, once ``cancel(reason:)`` did.
    var cancelReason: String? { state.withLock { $0.cancelReason } }

    /// Removes the temporary file, if any and not yet committed (a second signal, just
    /// before the process exits at once).
    public func removeTemporaryFile() {
        state.withLock { state in
            if !state.committed, let path = state.temporaryPath { unlink(path) }
        }
    }

    // MARK: Used by the trim

    /// Throws `interrupted` once the trim has been cancelled.
    func checkCancelled() throws(CamrecError) {
        if let reason = state.withLock({ $0.cancelReason }) { throw CamrecError.interrupted(by: reason) }
    }

    /// Remembers the temporary output file, which ``cancel(reason:)`` removes.
    func track(temporaryPath: String) {
        state.withLock { $0.temporaryPath = temporaryPath }
    }

    /// Runs `rename` (the step that puts the output in place) unless the trim was
    /// cancelled; a cancellation cannot slip in between the check and the rename.
    func commit(_ rename: () throws(CamrecError) -> Void) throws(CamrecError) {
        try state.withLock { state throws(CamrecError) in
            if let reason = state.cancelReason { throw CamrecError.interrupted(by: reason) }
            try rename()
            state.committed = true
        }
    }

    /// Reports progress to whoever watches.
    func report(_ progress: TrimProgress) {
        onProgress?(progress)
    }

    /// Runs `body`, a call that may block (a push into a full re-encoder), and unblocks it
    /// with `unblock` (from another thread) when it takes longer than `within` (default
    /// ``stallTimeout``) or the trim is cancelled meanwhile; then throws `stalled` or `interrupted`.
    func bounded<Result>(
        _ stage: String, within limit: Duration? = nil, unblock: @escaping @Sendable () -> Void, _ body: () -> Result
    ) throws(CamrecError) -> Result {
        try checkCancelled()
        let (result, firing) = watchdog.run(limit: limit, unblock: unblock, body)
        switch firing {
        case nil: return result
        case .stalled?: throw CamrecError.stalled(stage, after: stallTimeout)
        case .cancelled?: throw CamrecError.interrupted(by: cancelReason ?? "a request")
        }
    }

    /// A watch over a wait that polls: see ``StallWatch``.
    func watch(_ stage: String) -> StallWatch { StallWatch(control: self, stage: stage) }
}

/// Bounds a polling wait by its progress: each poll either sees progress (the clock
/// restarts) or not; after ``TrimControl/stallTimeout`` without any, the stage has stalled.
struct StallWatch {
    let control: TrimControl
    /// What is waited for, as a message names it ("the re-encoder").
    let stage: String
    /// When the stage last progressed (or the watch began).
    private(set) var lastProgress = ContinuousClock.now

    init(control: TrimControl, stage: String) {
        self.control = control
        self.stage = stage
    }

    /// Something happened: the stall clock restarts.
    mutating func progressed() { lastProgress = .now }

    /// Throws `interrupted` once the trim is cancelled, `stalled` after the stall timeout
    /// without progress.
    func check() throws(CamrecError) {
        try control.checkCancelled()
        if ContinuousClock.now - lastProgress > control.stallTimeout {
            throw CamrecError.stalled(stage, after: control.stallTimeout)
        }
    }
}

/// One thread that unblocks calls that wait too long, or that must stop because the trim
/// was cancelled. A call registers with its deadline and an `unblock` action; the thread
/// sleeps until the nearest deadline (or a cancellation) and runs the actions due.
final class BlockedCallWatchdog: Sendable {
    enum Firing { case stalled, cancelled }

    private struct Call {
        var deadline: ContinuousClock.Instant
        var unblock: @Sendable () -> Void
        var fired: Firing?
    }

    private struct Calls {
        var running: [Int: Call] = [:]
        var nextID = 0
        var cancelled = false
        var stopped = false
        var threadStarted = false

        /// When the thread must look again: the nearest deadline of a call not yet unblocked.
        var nearestDeadline: ContinuousClock.Instant? {
            running.values.filter { $0.fired == nil }.map(\.deadline).min()
        }

        /// Whether a call must be unblocked before any deadline: the trim was cancelled.
        var cancelledCallWaits: Bool {
            cancelled && running.values.contains { $0.fired == nil }
        }

        /// Marks the calls due at `now` (every one, once cancelled) as fired; their actions.
        mutating func fireDue(at now: ContinuousClock.Instant) -> [@Sendable () -> Void] {
            var due: [@Sendable () -> Void] = []
            for (id, call) in running where call.fired == nil && (cancelled || call.deadline <= now) {
                running[id]?.fired = cancelled ? .cancelled : .stalled
                due.append(call.unblock)
            }
            return due
        }
    }

    private let limit: Duration
    /// Changes wake the thread: a new call may be due sooner than the one it waits for.
    private let calls = Monitor(Calls())

    init(limit: Duration) { self.limit = limit }

    /// Runs `body`; returns its result and whether (and why) it was unblocked. `limit`
    /// (default: the watchdog's) is how long it may take.
    func run<Result>(
        limit: Duration? = nil, unblock: @escaping @Sendable () -> Void, _ body: () -> Result
    ) -> (Result, Firing?) {
        let deadline = ContinuousClock.now + (limit ?? self.limit)
        let (id, startThread) = calls.withLockWaking { calls in
            let id = calls.nextID
            calls.nextID += 1
            calls.running[id] = Call(deadline: deadline, unblock: unblock)
            defer { calls.threadStarted = true }
            return (id, !calls.threadStarted)
        }
        if startThread { NamedThread.start("camrec-trim-watchdog") { [self] in loop() } }
        let result = body()
        let fired = calls.withLock { $0.running.removeValue(forKey: id)?.fired }
        return (result, fired)
    }

    /// Unblocks every call now and every call made from now on.
    func cancelAll() {
        calls.withLockWaking { $0.cancelled = true }
    }

    /// Ends the thread.
    func stop() {
        calls.withLockWaking { $0.stopped = true }
    }

    private func loop() {
        while true {
            // Sleeps until the nearest deadline, read again after every change; nil: stopped.
            let due = calls.wait(until: { $0.stopped || $0.cancelledCallWaits }, deadline: \.nearestDeadline) {
                calls, _ -> [@Sendable () -> Void]? in
                calls.stopped ? nil : calls.fireDue(at: .now)
            }
            guard let due else { return }
            // Outside the lock: an unblock action may take locks of its own.
            for unblock in due { unblock() }
        }
    }
}

extension AppSrc {
    /// Pushes into an appsrc with `block=true`, waiting while its queue is full for at most
    /// the stall timeout: a pipeline that takes nothing in that long has stalled. The push is
    /// woken by lifting the queue's limit (`max-bytes` 0), which appsrc applies at once.
    func push(_ buffer: Buffer, stage: String, control: TrimControl) throws(CamrecError) -> FlowResult {
        try control.bounded(stage, unblock: { [self] in try? set("max-bytes", 0) }) { push(buffer) }
    }
}

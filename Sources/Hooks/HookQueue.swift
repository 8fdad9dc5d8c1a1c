import CamrecCore
import CProcess
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The `--on-file` (or `--on-event`) commands of one job: a queue of finished files (or
/// events), at most `jobs` commands running at once on threads of their own, each bounded
/// by `timeout`. Nothing here ever waits for a command on the caller's thread: `enqueue`
/// only appends (a recording calls it from its streaming and stills threads). A queued or
/// running file is held from retention (`FileHolds.process`), and listed in the series'
/// ledger until its command has ended, so that a run killed before then leaves it for the
/// next run; an event is a moment, so none is kept for the next run, and at most
/// `maxQueuedEvents` wait (more are dropped, with a warning). Commands run at nice 10.
/// ``finish()`` waits for the queue at the end of the job, at most `timeout`.
public final class HookQueue: Sendable {
    private struct State: Sendable {
        var queue: [Entry] = []
        /// Taken off the queue, by a number of its own; its process once started.
        var running: [Int: Entry] = [:]
        var nextNumber = 0
        var workers = 0
        /// The end of the job's wait has passed: no command starts any more, and the running
        /// ones were told to stop.
        var closed = false
        /// The ledger's content changed since it was last written.
        var dirty = false
        var ledgerRunning = false
        /// Events dropped because `maxQueuedEvents` were waiting.
        var droppedEvents = 0
        /// `abandon()`: the end's wait is given up.
        var abandoned = false

        /// The process groups of the running commands.
        var groups: [Int32] { running.values.compactMap(\.pid) }
    }

    private struct Entry: Sendable {
        var subject: HookSubject
        var earlierRun: Bool
        var pid: Int32?
    }

    /// The nice value commands run at.
    static let niceness: Int32 = 10
    /// Events waiting for a command, at most: more are dropped (a burst of motion must not
    /// grow the queue without end while the commands are slow).
    static let maxQueuedEvents = 100

    private let settings: HookSettings
    private let ledger: HookLedger?
    private let report: @Sendable (HookLine) -> Void
    private let warn: @Sendable (String) -> Void
    private let holds: FileHolds
    private let baseEnvironment: [String]
    private let state = Monitor(State())

    /// Hooks as `settings` ask, listing pending files in `ledger` (nil: no ledger, e.g. for
    /// `camrec trim`), reporting each command's end to `report` and problems to `warn`.
    package init(settings: HookSettings, ledgerFor series: String?, holds: FileHolds = .process,
                report: @escaping @Sendable (HookLine) -> Void, warn: @escaping @Sendable (String) -> Void) {
        self.settings = settings
        self.ledger = series.map { HookLedger(series: $0) }
        self.report = report
        self.warn = warn
        self.holds = holds
        baseEnvironment = ProcessInfo.processInfo.environment
            .filter { !$0.key.hasPrefix("CAMREC_") }
            .map { $0.key + "=" + $0.value }
            .sorted()
    }

    /// Queues the files an earlier run of the same series left in its ledger (its commands
    /// never ended: the run was killed), before this run's own; a file that is gone is
    /// dropped with a warning.
    public func resumeEarlierRuns() {
        guard let ledger else { return }
        let left = ledger.load(warn: warn)
        guard !left.isEmpty else { return }
        let present = left.filter { access($0.path, F_OK) == 0 }
        for file in left where access(file.path, F_OK) != 0 {
            warn("an earlier run's --on-file command for \(file.path) never ended, and the file is gone: it is left out")
        }
        if !present.isEmpty {
            warn("running the --on-file command for \(present.count) file\(present.count == 1 ? "" : "s") an earlier run left unfinished (it was killed): "
                 + present.map(\.path).joined(separator: ", "))
        }
        for file in present { enqueue(file, earlierRun: true) }
        if present.count < left.count { markDirty() }
    }

    /// Queues `file`'s command; returns at once.
    public func enqueue(_ file: HookedFile) {
        enqueue(file, earlierRun: false)
    }

    private func enqueue(_ file: HookedFile, earlierRun: Bool) {
        holds.hold(file.path)
        enqueue(Entry(subject: .file(file), earlierRun: earlierRun, pid: nil))
        startLedgerWriter()
    }

    /// Queues `event`'s command; returns at once. When `maxQueuedEvents` wait already, the
    /// event is dropped (the first drop is said in a warning, the count at the end).
    public func enqueue(_ event: HookedEvent) {
        let dropped = state.withLock { state -> Int? in
            guard state.queue.count(where: { $0.subject.file == nil }) >= Self.maxQueuedEvents else { return nil }
            state.droppedEvents += 1
            return state.droppedEvents
        }
        if dropped == 1 {
            warn("\(settings.command.option): \(Self.maxQueuedEvents) events wait for their command already: more are dropped until the commands catch up (the run goes on)")
        }
        if dropped == nil { enqueue(Entry(subject: .event(event), earlierRun: false, pid: nil)) }
    }

    private func enqueue(_ entry: Entry) {
        let startWorker = state.withLockWaking { state -> Bool in
            state.queue.append(entry)
            if entry.subject.file != nil { state.dirty = true }
            guard !state.closed, state.workers < settings.jobs else { return false }
            state.workers += 1
            return true
        }
        if startWorker { NamedThread.start("camrec" + settings.command.option.dropFirst()) { [self] in work() } }
    }

    /// Waits for every queued command to end, at most `timeout` (and 3 s) from now; then stops the
    /// running ones (SIGTERM to their groups, SIGKILL 2 s later) and leaves the queued ones
    /// in the ledger for the next run (a warning says so). Call once, at the job's end.
    public func finish() {
        // A command already running ends by its own limit (and SIGKILL's grace) before this:
        // only what the end itself cut short is left for the next run.
        let deadline = ContinuousClock.now + settings.timeout + HookProcess.termGrace + .seconds(1)
        let done = state.wait(until: { ($0.queue.isEmpty && $0.running.isEmpty) || $0.abandoned }, deadline: deadline) { state, ready -> Bool in
            if !ready {
                state.closed = true
                for pid in state.groups { killpg(pid, SIGTERM) }
            }
            return ready
        }
        if !done {
            let killed = state.wait(until: { $0.running.isEmpty }, deadline: ContinuousClock.now + HookProcess.termGrace) { state, ready in
                if !ready { for pid in state.groups { killpg(pid, SIGKILL) } }
                return ready
            }
            if !killed { state.wait(until: { $0.running.isEmpty }) { _, _ in } }
            let left = state.withLock { $0.queue.compactMap(\.subject.file?.path) }
            let events = state.withLock { $0.queue.count(where: { $0.subject.file == nil }) }
            if events > 0 {
                warn("\(settings.command.option): \(events) event\(events == 1 ? "" : "s") got no command: the run's end came first (--on-event-timeout)")
            }
            if !left.isEmpty {
                warn("the run's --on-file commands did not all run within --on-file-timeout after its end: "
                     + "\(left.count) file\(left.count == 1 ? "" : "s") left for the next run of the same OUTPUT (\(ledger?.path ?? "no list kept")): "
                     + left.joined(separator: ", "))
            }
        } else if state.withLock({ $0.abandoned }) {
            // Queued files, and those whose command still runs (in its own group: it goes on).
            let left = state.withLock { $0.queue.compactMap(\.subject.file?.path) + $0.running.values.compactMap(\.subject.file?.path) }
            if !left.isEmpty, ledger != nil {
                warn("asked to stop again while waiting for the --on-file commands: \(left.count) file\(left.count == 1 ? "" : "s") "
                     + "whose command has not ended \(left.count == 1 ? "is" : "are") left for the next run of the same OUTPUT (\(ledger?.path ?? "")): "
                     + left.joined(separator: ", "))
            }
        }
        let dropped = state.withLock { $0.droppedEvents }
        if dropped > 0 {
            warn("\(settings.command.option): \(dropped) event\(dropped == 1 ? "" : "s") dropped in all: the commands could not keep up")
        }
        // The ledger's last state written (what is left, or nothing).
        markDirty()
        state.wait(until: { !$0.ledgerRunning }) { _, _ in }
    }

    /// Commands queued or running now.
    public var pending: Int { state.withLock { $0.queue.count + $0.running.count } }

    /// Gives up the end's wait (a further stop signal while `finish` waits, or a run that was
    /// aborted): no command starts any more, those running go on in their own process
    /// groups, and `finish` returns at once, leaving every file whose command has not ended in
    /// the ledger for the next run (a command may so run twice for a file, never zero times).
    public func abandon() {
        state.withLockWaking { state in
            state.closed = true
            state.abandoned = true
        }
    }

    // MARK: The commands

    private func work() {
        // Its commands inherit the thread's nice value: they take only the CPU the
        // recording leaves (an upload, a transcode of 20 files at once).
        _ = camrec_thread_nice(Self.niceness)
        while let (number, entry) = take() {
            let subject = entry.subject
            let process = HookProcess(arguments: subject.arguments(settings.command),
                                      environment: baseEnvironment + subject.environment,
                                      input: subject.input, timeout: settings.timeout)
            let outcome = process.run { pid in
                // Registered so that `finish` can stop it; a run already closed stops it at once.
                state.withLock { state in
                    state.running[number]?.pid = pid
                    if state.closed { killpg(pid, SIGTERM) }
                }
            }
            // Stopped because the run's wait ran out: not judged, so kept for the next run.
            let stoppedAtEnd = state.withLock { $0.closed && outcome.signal != nil }
            // Said before the file is let go (retention's `deleted` line for it comes after),
            // and before `finish` can see it done (camrec exits once it returns).
            let event: HookedEvent? = if case .event(let event) = subject { event } else { nil }
            report(HookLine(file: subject.file?.path, event: event?.name, kind: subject.file?.kind ?? "event", exitStatus: outcome.exitStatus, signal: outcome.signal,
                            timedOut: outcome.timedOut || stoppedAtEnd, duration: (outcome.seconds * 1000).rounded() / 1000,
                            stderr: outcome.stderrTail.isEmpty ? nil : outcome.stderrTail, error: outcome.failure,
                            earlierRun: entry.earlierRun ? true : nil))
            // A file left for the next run stays held: the run's last retention keeps it.
            if let file = subject.file, !stoppedAtEnd { holds.release(file.path) }
            state.withLockWaking { state in
                state.running[number] = nil
                if stoppedAtEnd, subject.file != nil { state.queue.append(Entry(subject: subject, earlierRun: entry.earlierRun, pid: nil)) }
                if subject.file != nil { state.dirty = true }
            }
            startLedgerWriter()
        }
    }

    /// The next queued file, taken off the queue; nil (and the worker ends) when there is
    /// none or the run is closed.
    private func take() -> (Int, Entry)? {
        state.withLockWaking { state -> (Int, Entry)? in
            guard !state.closed, !state.queue.isEmpty else {
                state.workers -= 1
                return nil
            }
            let entry = state.queue.removeFirst()
            state.nextNumber += 1
            // Listed as running from now on: the ledger never misses it.
            state.running[state.nextNumber] = entry
            return (state.nextNumber, entry)
        }
    }

    // MARK: The ledger

    private func markDirty() {
        state.withLockWaking { $0.dirty = true }
        startLedgerWriter()
    }

    /// Starts the ledger's writer unless it runs: it writes the pending files whenever they
    /// changed, on its own thread (a flush to a slow card never holds up a recording).
    private func startLedgerWriter() {
        guard let ledger else { return }
        let start = state.withLock { state -> Bool in
            guard state.dirty, !state.ledgerRunning else { return false }
            state.ledgerRunning = true
            return true
        }
        guard start else { return }
        NamedThread.start("camrec-on-file-l") { [self] in
            var warned = false
            while true {
                let pending = state.withLockWaking { state -> [HookedFile]? in
                    guard state.dirty else {
                        state.ledgerRunning = false
                        return nil
                    }
                    state.dirty = false
                    return state.queue.compactMap(\.subject.file) + state.running.values.compactMap(\.subject.file)
                }
                guard let pending else { return }
                do throws(CamrecError) {
                    try ledger.save(pending)
                } catch {
                    if !warned { warn("--on-file: \(error.message) (the commands run all the same; a killed run would forget them)") }
                    warned = true
                }
            }
        }
    }
}

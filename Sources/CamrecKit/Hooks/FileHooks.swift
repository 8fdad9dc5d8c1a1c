import CProcess
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The `--on-file` commands of one job: a queue of finished files, at most `jobs` commands
/// running at once on threads of their own, each bounded by `timeout`. Nothing here ever
/// waits for a command on the caller's thread: `enqueue` only appends (a recording calls it
/// from its streaming and stills threads). A queued or running file is held from retention
/// (`FileHolds.process`), and listed in the series' ledger until its command has ended, so
/// that a run killed before then leaves it for the next run. Commands run at nice 10.
/// ``finish()`` waits for the queue at the end of the job, at most `timeout`.
public final class FileHooks: Sendable {
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

        /// The process groups of the running commands.
        var groups: [Int32] { running.values.compactMap(\.pid) }
    }

    private struct Entry: Sendable {
        var file: HookedFile
        var earlierRun: Bool
        var pid: Int32?
    }

    /// The nice value commands run at.
    static let niceness: Int32 = 10

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
        let startWorker = state.withLockWaking { state -> Bool in
            state.queue.append(Entry(file: file, earlierRun: earlierRun, pid: nil))
            state.dirty = true
            guard !state.closed, state.workers < settings.jobs else { return false }
            state.workers += 1
            return true
        }
        startLedgerWriter()
        if startWorker { NamedThread.start("camrec-on-file") { [self] in work() } }
    }

    /// Waits for every queued command to end, at most `timeout` (and 3 s) from now; then stops the
    /// running ones (SIGTERM to their groups, SIGKILL 2 s later) and leaves the queued ones
    /// in the ledger for the next run (a warning says so). Call once, at the job's end.
    public func finish() {
        // A command already running ends by its own limit (and SIGKILL's grace) before this:
        // only what the end itself cut short is left for the next run.
        let deadline = ContinuousClock.now + settings.timeout + HookProcess.termGrace + .seconds(1)
        let done = state.wait(until: { $0.queue.isEmpty && $0.running.isEmpty }, deadline: deadline) { state, ready -> Bool in
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
            let left = state.withLock { $0.queue.map(\.file.path) }
            if !left.isEmpty {
                warn("the run's --on-file commands did not all run within --on-file-timeout after its end: "
                     + "\(left.count) file\(left.count == 1 ? "" : "s") left for the next run of the same OUTPUT (\(ledger?.path ?? "no list kept")): "
                     + left.joined(separator: ", "))
            }
        }
        // The ledger's last state written (what is left, or nothing).
        markDirty()
        state.wait(until: { !$0.ledgerRunning }) { _, _ in }
    }

    /// `camrec trim` and `export`: runs `settings`' command for each of `files` (no ledger:
    /// the job is over when they end), its `hook` lines on `console`, and waits for them.
    static func runOnce(_ settings: HookSettings, for files: HookedFile..., console: Console) {
        runOnce(settings, for: files, console: console)
    }

    /// See ``runOnce(_:for:console:)``.
    static func runOnce(_ settings: HookSettings, for files: [HookedFile], console: Console) {
        let printer = RecordingPrinter(console: console)
        let hooks = FileHooks(settings: settings, ledgerFor: nil, report: { printer.show($0) }, warn: { printer.show(.warning($0)) })
        for file in files { hooks.enqueue(file) }
        hooks.finish()
    }

    // MARK: The commands

    private func work() {
        // Its commands inherit the thread's nice value: they take only the CPU the
        // recording leaves (an upload, a transcode of 20 files at once).
        _ = camrec_thread_nice(Self.niceness)
        while let (number, entry) = take() {
            let file = entry.file
            let process = HookProcess(arguments: settings.command.arguments(for: file.path),
                                      environment: baseEnvironment + file.environment,
                                      input: Array((file.line + "\n").utf8), timeout: settings.timeout)
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
            report(HookLine(file: file.path, kind: file.kind, exitStatus: outcome.exitStatus, signal: outcome.signal,
                            timedOut: outcome.timedOut || stoppedAtEnd, duration: (outcome.seconds * 1000).rounded() / 1000,
                            stderr: outcome.stderrTail.isEmpty ? nil : outcome.stderrTail, error: outcome.failure,
                            earlierRun: entry.earlierRun ? true : nil))
            // A file left for the next run stays held: the run's last retention keeps it.
            if !stoppedAtEnd { holds.release(file.path) }
            state.withLockWaking { state in
                state.running[number] = nil
                if stoppedAtEnd { state.queue.append(Entry(file: file, earlierRun: entry.earlierRun, pid: nil)) }
                state.dirty = true
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
                    return state.queue.map(\.file) + state.running.values.map(\.file)
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

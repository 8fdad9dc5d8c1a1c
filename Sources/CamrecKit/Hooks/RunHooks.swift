import Synchronization

/// A recording's `--on-file` and `--on-event` commands. `--on-file`: one for each still,
/// segment and clip as its event says it is in place, and, at the end, for each file of
/// the result that no event announced (the one movie of a run without segments, a segment
/// kept as written); files kept under their temporary `.partial` names are not finished: no
/// command runs for them. `--on-event`: one for each motion, clip started, camera lost or
/// back, and disk low (see ``HookedEvent``).
public final class RunHooks: Sendable {
    private let files: HookQueue?
    private let events: HookQueue?
    private let series: String
    private let announced = Mutex<Set<String>>([])
    private let finished = Mutex(false)
    /// The camera of a one-camera run (its `started` line's device); several cameras' files
    /// name their own.
    private let camera = Mutex<String?>(nil)

    /// The commands for the run whose OUTPUT (as given) is `series`: `files` for its files,
    /// `events` for its events (nil: none).
    public init(files: HookQueue?, events: HookQueue?, series: String) {
        self.files = files
        self.events = events
        self.series = series
    }

    /// Queues the command for the file or the event `event` announces, if any.
    public func published(_ event: RecordingEvent) {
        switch event {
        case .started(let start): camera.withLock { $0 = start.device }
        case .still(let file): queue(file, kind: "still")
        case .segment(let file): queue(file, kind: "segment")
        case .clip(let file): queue(file, kind: "clip")
        default:
            guard let events else { return }
            let now = WallTime.now()
            if let hooked = HookedEvent(event, time: now.seconds * 1000 + now.nanoseconds / 1_000_000,
                                        camera: camera.withLock { $0 }, series: series) {
                events.enqueue(hooked)
            }
        }
    }

    /// Queues the commands for the files of `result` that no event announced.
    public func published(_ result: RecordingResult) {
        for file in result.files where !file.path.contains(".partial.") && !announced.withLock({ $0.contains(file.path) }) {
            queue(file, kind: file.kind == "movie" ? (file.index == nil ? "movie" : "segment") : file.kind)
        }
    }

    /// Queues what an earlier run of the series left (see ``HookQueue/resumeEarlierRuns()``).
    public func resumeEarlierRuns() {
        files?.resumeEarlierRuns()
    }

    /// Waits for the queued commands (see ``HookQueue/finish()``), both queues at once;
    /// once: later calls return at once.
    public func finish() {
        guard finished.withLock({ finished in
            defer { finished = true }
            return !finished
        }) else { return }
        guard let files, let events else { return (files ?? events)?.finish() ?? () }
        let eventsDone = Monitor(false)
        NamedThread.start("camrec-on-event") {
            events.finish()
            eventsDone.withLockWaking { $0 = true }
        }
        files.finish()
        eventsDone.wait(until: { $0 }) { _, _ in }
    }

    /// Commands queued or running now, of both kinds.
    public var pending: Int { (files?.pending ?? 0) + (events?.pending ?? 0) }

    /// Gives up waiting for the commands (see ``HookQueue/abandon()``): camrec was asked to
    /// stop again while it waited for them at the end, or the run was aborted.
    public func abandon() {
        files?.abandon()
        events?.abandon()
    }

    private func queue(_ file: ResultFile, kind: String) {
        guard let files, announced.withLock({ $0.insert(file.path).inserted }) else { return }
        files.enqueue(HookedFile(file, kind: kind, camera: camera.withLock { $0 }, series: series))
    }
}

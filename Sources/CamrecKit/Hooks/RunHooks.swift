import Synchronization

/// A recording's `--on-file` commands: one for each still, segment and clip as its event
/// says it is in place, and, at the end, for each file of the result that no event
/// announced (the one movie of a run without segments, a segment kept as written). Files
/// kept under their temporary `.partial` names are not finished: no command runs for them.
public final class RunHooks: Sendable {
    private let hooks: FileHooks
    private let series: String
    private let announced = Mutex<Set<String>>([])
    private let finished = Mutex(false)
    /// The camera of a one-camera run (its `started` line's device); several cameras' files
    /// name their own.
    private let camera = Mutex<String?>(nil)

    /// The commands for the run whose OUTPUT (as given) is `series`.
    public init(_ hooks: FileHooks, series: String) {
        self.hooks = hooks
        self.series = series
    }

    /// Queues the command for the file `event` announces, if any.
    public func published(_ event: RecordingEvent) {
        switch event {
        case .started(let start): camera.withLock { $0 = start.device }
        case .still(let file): queue(file, kind: "still")
        case .segment(let file): queue(file, kind: "segment")
        case .clip(let file): queue(file, kind: "clip")
        default: break
        }
    }

    /// Queues the commands for the files of `result` that no event announced.
    public func published(_ result: RecordingResult) {
        for file in result.files where !file.path.contains(".partial.") && !announced.withLock({ $0.contains(file.path) }) {
            queue(file, kind: file.kind == "movie" ? (file.index == nil ? "movie" : "segment") : file.kind)
        }
    }

    /// Queues what an earlier run of the series left (see ``FileHooks/resumeEarlierRuns()``).
    public func resumeEarlierRuns() {
        hooks.resumeEarlierRuns()
    }

    /// Waits for the queued commands (see ``FileHooks/finish()``); once: later calls return at once.
    public func finish() {
        guard finished.withLock({ finished in
            defer { finished = true }
            return !finished
        }) else { return }
        hooks.finish()
    }

    private func queue(_ file: ResultFile, kind: String) {
        guard announced.withLock({ $0.insert(file.path).inserted }) else { return }
        hooks.enqueue(HookedFile(file, kind: kind, camera: camera.withLock { $0 }, series: series))
    }
}

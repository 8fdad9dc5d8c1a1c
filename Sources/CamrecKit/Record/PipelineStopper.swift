import FoundationEssentials
import GStreamer

/// Stops a recording's pipeline (state NULL) without letting one stuck element hang
/// camrec. A state change waits for every streaming thread to leave its element; a thread
/// blocked for good (a sound server that stopped answering, an element deadlocked under
/// load) would hold camrec forever, and an unattended recorder must end, keep what it wrote
/// and say so instead.
///
/// The change runs on a thread of its own; `stop(within:)` waits for it a bounded time.
/// When it does not finish, the thread keeps its reference to the pipeline (so nothing is
/// freed under a streaming thread) and the caller goes on; later calls do not wait again.
final class PipelineStopper: Sendable {
    private let pipeline: Pipeline
    private struct Progress {
        var started = false
        var done = false
        var gaveUp = false
    }
    private let progress = Monitor(Progress())

    /// How long a pipeline is given to stop before camrec goes on without it. Stopping takes
    /// milliseconds; this only bounds the case where it never would.
    static let timeoutSeconds = 15.0

    init(_ pipeline: Pipeline) { self.pipeline = pipeline }

    /// Sets the pipeline to NULL, waiting at most `seconds`; true when it stopped. After a
    /// time-out, every later call returns false at once.
    func stop(within seconds: Double = PipelineStopper.timeoutSeconds) -> Bool {
        let first = progress.withLock { progress -> Bool in
            defer { progress.started = true }
            return !progress.started
        }
        if first {
            let pipeline = pipeline
            NamedThread.start("camrec-stop") { [self] in
                _ = try? pipeline.setState(.null)
                progress.withLockWaking { $0.done = true }
            }
        }
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        return progress.wait(until: { $0.done || $0.gaveUp }, deadline: deadline) { progress, _ in
            if !progress.done { progress.gaveUp = true }
            return progress.done
        }
    }

    /// Whether a stop was given up on (the pipeline is left as it is).
    var isStuck: Bool { progress.withLock { $0.gaveUp && !$0.done } }

    /// The warning when a stop was given up on: camrec went on without the pipeline,
    /// keeping the files as they were written (a movie not finalised plays, or `camrec
    /// recover` finishes it); nil when it stopped.
    var stuckWarning: String? {
        guard isStuck else { return nil }
        return "GStreamer did not stop within \(Int(Self.timeoutSeconds)) s (an element is stuck): "
            + "camrec went on without it; the files are kept as written"
    }
}

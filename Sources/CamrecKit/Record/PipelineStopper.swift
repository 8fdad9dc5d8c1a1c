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
final class PipelineStopper: @unchecked Sendable {
    private let pipeline: Pipeline
    private let condition = ThreadCondition()
    // Guarded by `condition`.
    private var started = false
    private var done = false
    private var gaveUp = false

    /// How long a pipeline is given to stop before camrec goes on without it. Stopping takes
    /// milliseconds; this only bounds the case where it never would.
    static let timeoutSeconds = 15.0

    init(_ pipeline: Pipeline) { self.pipeline = pipeline }

    /// Sets the pipeline to NULL, waiting at most `seconds`; true when it stopped. After a
    /// time-out, every later call returns false at once.
    func stop(within seconds: Double = PipelineStopper.timeoutSeconds) -> Bool {
        let first = condition.withLock { () -> Bool in
            defer { started = true }
            return !started
        }
        if first {
            let pipeline = pipeline
            NamedThread.start("camrec-stop") { [self] in
                _ = try? pipeline.setState(.null)
                condition.withLock {
                    done = true
                    condition.broadcast()
                }
            }
        }
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        return condition.withLock {
            while !done, !gaveUp {
                let left = deadline - ContinuousClock.now
                guard left > .zero else {
                    gaveUp = true
                    return false
                }
                condition.wait(seconds: Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18)
            }
            return done
        }
    }

    /// Whether a stop was given up on (the pipeline is left as it is).
    var isStuck: Bool { condition.withLock { gaveUp && !done } }
}

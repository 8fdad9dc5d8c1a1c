import Dispatch
import FoundationEssentials
import GStreamer
import Synchronization

/// What the outside world (signals, the control socket, keys) and a running
/// `RecordingSession` share: stop requests, the still taker and the status, behind one
/// mutex. The session attaches itself while it runs and wakes on the bus messages named
/// here; it never holds a reference back to the `Recorder`.
final class RecordingControl: Sendable {
    /// Application messages our own code posts to wake the bus loop.
    enum Wake {
        /// The gate held back the first frame past the limit.
        static let limit = "camrec/limit"
        /// A stop was requested.
        static let stop = "camrec/stop"
        /// The first corrupt camera frame was held back.
        static let corruptFrame = "camrec/corrupt-frame"
        /// splitmuxsink refused a split (not a splitmuxsink after all).
        static let splitFailed = "camrec/split-failed"
        /// The sound source delivered nothing while frames waited for it.
        static let noSound = "camrec/no-sound"
    }

    private struct Shared {
        var bus: Bus?
        var stills: StillTaker?
        var text: TextReader?
        var status: (@Sendable () -> RecorderStatus)?
        var split: (@Sendable (UInt64?) -> Void)?
        var clip: ClipTrigger.Request?
        var clipNewest: (@Sendable () -> UInt64?)?
        var requestedStop: StopReason?
        var stopRequests = 0
    }

    private let shared = Mutex(Shared())

    /// Signalled at every stop request, for ``waitForStop(upTo:)``.
    private let stopped = DispatchSemaphore(value: 0)

    /// Counts a stop request (`requests` at once for signals that arrived together) and
    /// wakes the running session, if any; one that comes before the session runs is acted
    /// on when it attaches.
    func requestStop(_ reason: StopReason, requests: Int = 1) {
        let bus = shared.withLock { shared -> Bus? in
            shared.stopRequests += max(1, requests)
            if shared.requestedStop == nil { shared.requestedStop = reason }
            return shared.bus
        }
        stopped.signal()
        bus?.postApplicationMessage(Wake.stop)
    }

    /// The first stop reason asked for, and how many requests came in all.
    var pendingStop: (reason: StopReason?, count: Int) {
        shared.withLock { ($0.requestedStop, $0.stopRequests) }
    }

    /// The running session's still taker, nil when none runs.
    var stills: StillTaker? { shared.withLock { $0.stills } }

    /// The running session's text reader (`--text`, `--text-every`), nil when none runs.
    var text: TextReader? { shared.withLock { $0.text } }

    /// The running session's status, with its still count; nil when none runs.
    func status() -> RecorderStatus? {
        let (status, stills) = shared.withLock { ($0.status, $0.stills) }
        return status.map { provider in
            var status = provider()
            status.stills = stills?.files.count ?? 0
            return status
        }
    }

    /// Starts a new movie file at the next frame, or at the first frame captured at or
    /// after `captureTime` (CLOCK_MONOTONIC nanoseconds); false when no recording runs.
    func requestSplit(atCaptureTime captureTime: UInt64? = nil) -> Bool {
        guard let split = shared.withLock({ $0.split }) else { return false }
        split(captureTime)
        return true
    }

    /// Asks the running session for an event clip at capture time `at` (nil: its newest
    /// encoded frame); nil when no recording runs.
    func requestClip(at: UInt64? = nil, after: TimeSpec?, still: Bool) -> Result<ClipRecorder.TriggerOutcome, CamrecError>? {
        shared.withLock { $0.clip }.map { $0(at, after, still) }
    }

    /// The capture time of the running session's newest encoded frame (clips' timeline);
    /// nil without clips, or before the first frame.
    func newestClipFrame() -> UInt64? {
        shared.withLock { $0.clipNewest }?()
    }

    /// Called by the session once its pipeline runs; `clip` is nil without event clips,
    /// `text` without text reading.
    func attach(bus: Bus, stills: StillTaker, text: TextReader? = nil, split: @escaping @Sendable (UInt64?) -> Void,
                clip: ClipTrigger.Request? = nil, clipNewest: (@Sendable () -> UInt64?)? = nil,
                status: @escaping @Sendable () -> RecorderStatus) {
        let pendingRequests = shared.withLock { shared -> Int in
            shared.bus = bus
            shared.stills = stills
            shared.text = text
            shared.split = split
            shared.clip = clip
            shared.clipNewest = clipNewest
            shared.status = status
            return shared.stopRequests
        }
        // A stop that came before the pipeline existed must still wake the loop.
        if pendingRequests > 0 { bus.postApplicationMessage(Wake.stop) }
    }

    /// Called by the recorder while it waits for a lost camera: status answers with
    /// `status`, stills and splits are refused.
    func attachWaiting(status: @escaping @Sendable () -> RecorderStatus) {
        shared.withLock { $0.status = status }
    }

    /// Waits until a stop is requested (or was already) or `duration` passes.
    func waitForStop(upTo duration: Duration) {
        guard pendingStop.count == 0 else { return }
        // A request between the check and the wait has signalled already: no wake is lost.
        let (seconds, attoseconds) = duration.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        _ = stopped.wait(timeout: .now() + .nanoseconds(nanoseconds))
    }

    /// Called by the session when it ends.
    func detach() {
        shared.withLock { shared in
            shared.bus = nil
            shared.stills = nil
            shared.text = nil
            shared.split = nil
            shared.clip = nil
            shared.clipNewest = nil
            shared.status = nil
        }
    }
}

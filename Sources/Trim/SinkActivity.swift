import CamrecCore
import FoundationEssentials
import GStreamer

/// Lets a trim stage's thread block until its pipeline has something for it, instead of
/// polling: appsink callbacks (a sample queued, the end of the stream), an error posted on
/// the bus, and the stall watchdog (time out, cancellation) each count as an event and
/// wake the waiter, which then looks at the sinks and the bus itself.
typealias SinkActivity = EventCount

extension EventCount {
    /// Makes `sinks` and errors posted on `pipeline`'s bus signal this activity; the tokens
    /// undo it.
    func watch(_ sinks: [AppSink], errorsOf pipeline: Pipeline) -> ActivityWatch {
        let callbacks = sinks.map { sink in
            sink.setCallbacks(
                newSample: { [self] _ in
                    signal()
                    return .ok
                },
                endOfStream: { [self] in signal() }
            )
        }
        let errors = ErrorWatch(errorsOf: pipeline) { [self] _ in signal() }
        return ActivityWatch(callbacks: callbacks, errors: errors)
    }
}

/// What makes a `SinkActivity` signal; `stop()` undoes it (also when it goes).
final class ActivityWatch {
    private let callbacks: [AppSinkCallbacksToken]
    /// The errors posted on the pipeline's bus, left there for its reader.
    let errors: ErrorWatch

    init(callbacks: [AppSinkCallbacksToken], errors: ErrorWatch) {
        self.callbacks = callbacks
        self.errors = errors
    }

    /// Uninstalls the callbacks and the error watch; safe to call more than once.
    func stop() {
        for token in callbacks { token.remove() }
        errors.stop()
    }

    deinit { stop() }
}

extension StallWatch {
    /// Blocks until `activity` moves past `seen`, for at most what is left of the stall
    /// timeout since the last progress: throws `stalled` when that runs out, `interrupted`
    /// once the trim is cancelled (the watchdog wakes the wait for either).
    func wait(for activity: SinkActivity, since seen: UInt64) throws(CamrecError) {
        let left = control.stallTimeout - (ContinuousClock.now - lastProgress)
        guard left > .zero else { throw CamrecError.stalled(stage, after: control.stallTimeout) }
        try control.bounded(stage, within: left, unblock: { activity.signal() }) { activity.wait(since: seen) }
    }
}

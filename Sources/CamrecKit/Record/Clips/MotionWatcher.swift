import FoundationEssentials
import GStreamer

/// Runs the motion trigger (`--on-motion`) on its branch of the pipeline: a probe lets
/// `MotionSettings.rate` frames a second into the branch's queue (the others are dropped
/// before it, in the camera's thread, at the cost of a comparison), and the appsink
/// "motion" hands each small grey frame to `MotionDetector` on the queue's own thread,
/// never on the recording's path. A detection calls `onDetection` with the frame's
/// timestamp and the share of the picture that changed.
final class MotionWatcher: @unchecked Sendable {
    private let lock = ThreadCondition()
    // Guarded by `lock`.
    private var detector: MotionDetector
    private var nextDue: UInt64?
    private let interval: UInt64
    private var tokens: (ProbeToken, AppSinkCallbacksToken)?

    /// Watches the branch of `pipeline` ("motionqueue", "motion") with `settings`.
    init(settings: MotionSettings, pipeline: Pipeline, width: Int, height: Int,
         onDetection: @escaping @Sendable (_ pts: UInt64, _ area: Double) -> Void) throws(GStreamerError) {
        let mask = settings.mask.flatMap { $0.count == width * height ? $0 : nil }
        detector = MotionDetector(width: width, height: height, tuning: .sensitivity(settings.sensitivity), mask: mask)
        interval = UInt64(1e9 / max(settings.rate, 0.1))
        let queue = try pipeline.element(named: "motionqueue")
        let sink = try AppSink(pipeline.element(named: "motion"))
        let probe = try queue.staticPad("sink").addProbe(.buffer) { [self] info in
            guard let pts = info.buffer?.pts else { return .drop }
            return admit(pts) ? .pass : .drop
        }
        let callbacks = sink.setCallbacks(newSample: { [self] view in
            guard let sample = view.pullSample(), let pts = sample.timing?.pts else { return .ok }
            let area: Double? = sample.withBytes { bytes in
                lock.withLock {
                    guard bytes.count >= width * height else { return nil }
                    return detector.feed(Array(bytes.prefix(width * height))).map(\.area)
                }
            } ?? nil
            if let area { onDetection(pts, area) }
            return .ok
        })
        tokens = (probe, callbacks)
    }

    /// Whether a frame at `pts` goes to the detector (about `rate` a second).
    private func admit(_ pts: UInt64) -> Bool {
        lock.withLock {
            if let due = nextDue, pts + interval / 10 < due { return false }
            // The next one is due an interval later, measured from the one let through.
            nextDue = pts + interval
            return true
        }
    }

    /// Stops watching.
    func remove() {
        tokens?.0.remove()
        tokens?.1.remove()
        tokens = nil
    }
}

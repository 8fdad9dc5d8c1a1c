import FoundationEssentials
import GStreamer
import Synchronization

/// Runs the motion trigger (`--on-motion`) on its branch of the pipeline: a probe lets
/// `MotionSettings.rate` frames a second into the branch's queue (the others are dropped
/// before it, in the camera's thread, at the cost of a comparison), and the appsink
/// "motion" hands each small grey frame to `MotionDetector` on the queue's own thread,
/// never on the recording's path. A detection calls `onDetection` with the frame's
/// timestamp and the share of the picture that changed.
final class MotionWatcher: Sendable {
    private let detector: Mutex<MotionDetector>
    /// When the next frame is let through to the detector.
    private let nextDue = Mutex<UInt64?>(nil)
    private let interval: UInt64
    private let tokens = Mutex<(ProbeToken, AppSinkCallbacksToken)?>(nil)

    /// Watches the branch of `pipeline` ("motionqueue", "motion") with `settings`.
    init(settings: MotionSettings, pipeline: Pipeline, width: Int, height: Int,
         onDetection: @escaping @Sendable (_ pts: UInt64, _ area: Double) -> Void) throws(GStreamerError) {
        let mask = settings.mask.flatMap { $0.count == width * height ? $0 : nil }
        detector = Mutex(MotionDetector(width: width, height: height, tuning: .sensitivity(settings.sensitivity), mask: mask))
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
                detector.withLock { detector in
                    guard bytes.count >= width * height else { return nil }
                    return detector.feed(Array(bytes.prefix(width * height))).map(\.area)
                }
            } ?? nil
            if let area { onDetection(pts, area) }
            return .ok
        })
        tokens.withLock { $0 = (probe, callbacks) }
    }

    /// Whether a frame at `pts` goes to the detector (about `rate` a second).
    private func admit(_ pts: UInt64) -> Bool {
        nextDue.withLock { nextDue in
            if let due = nextDue, pts + interval / 10 < due { return false }
            // The next one is due an interval later, measured from the one let through.
            nextDue = pts + interval
            return true
        }
    }

    /// Stops watching.
    func remove() {
        let taken = tokens.withLock { tokens in
            defer { tokens = nil }
            return tokens
        }
        taken?.0.remove()
        taken?.1.remove()
    }
}

import GStreamer
import Synchronization

/// Watches the encoder's output in a recording's first seconds (`EncoderPace`) and, when it
/// falls behind, keeps the warning and wakes the bus loop with `wake` so that it reports
/// it: once per pipeline. The probe removes itself once the pace is judged.
final class EncoderPaceWatch: Sendable {
    /// The application message that says a warning is waiting (`takeWarning`).
    static let wake = "camrec/encoder-behind"

    /// What the probe (a streaming thread) and the bus loop share.
    private final class Shared: Sendable {
        let pace: Mutex<EncoderPace>
        let pending = Mutex<String?>(nil)
        init(_ pace: EncoderPace) { self.pace = Mutex(pace) }
    }

    private let shared: Shared
    private let token: ProbeToken

    /// Watches `encoderOutput` (the encoder's source pad) in `pipeline`, whose bus gets the
    /// wake-up; `settings` and `rate` word the warning.
    init(encoderOutput: Pad, pipeline: Pipeline, bus: Bus, settings: EncoderSettings, rate: FrameRateValue) {
        let shared = Shared(EncoderPace(rate: rate))
        self.shared = shared
        // The pipeline is held weakly: were the probe the last to hold it, removing the probe
        // (under the pad's lock) would take the pipeline down there, and its pads with it.
        token = encoderOutput.addProbe(.buffer) { [weak pipeline] info in
            guard let pipeline, let pts = info.buffer?.pts, let clock = pipeline.clockTime else { return .pass }
            let now = clock &- pipeline.baseTime
            let lag = Int64(bitPattern: now &- pts)
            switch shared.pace.withLock({ $0.note(lag: lag, at: now) }) {
            case nil:
                return .pass
            case .keepsUp?:
                return .remove
            case .behind(let fps)?:
                shared.pending.withLock { $0 = EncoderPace.warning(settings, rate: rate, framesPerSecond: fps) }
                _ = bus.postApplicationMessage(Self.wake)
                return .remove
            }
        }
    }

    /// The warning waiting to be reported, once.
    func takeWarning() -> String? {
        shared.pending.withLock { text in
            defer { text = nil }
            return text
        }
    }
}

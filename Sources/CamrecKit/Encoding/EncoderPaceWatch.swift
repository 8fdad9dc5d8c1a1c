import GStreamer
import Synchronization

/// Watches the frames going into the encoder in a recording's first seconds (`EncoderPace`):
/// each is taken when the encoder is ready for it, so its lag behind its capture is the time
/// it waited in the recording's queue. (The encoder's output would say the same later, but
/// its times are reordered and may be offset: x264enc with B-frames starts at 1000 hours.)
/// When the encoder falls behind, it keeps the warning and wakes the bus loop with `wake` so
/// that it reports it: once per pipeline. The probe removes itself once the pace is judged.
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

    /// Watches `encoderInput` (the encoder's sink pad) in `pipeline`, whose bus gets the
    /// wake-up; `settings` and `rate` word the warning; `shedding` says whether frames are
    /// being left out before the encoder (`LoadShedWatch`).
    init(encoderInput: Pad, pipeline: Pipeline, bus: Bus, settings: EncoderSettings, rate: FrameRateValue,
         shedding: @escaping @Sendable () -> Bool = { false }) {
        let shared = Shared(EncoderPace(rate: rate))
        self.shared = shared
        // The pipeline is held weakly: were the probe the last to hold it, removing the probe
        // (under the pad's lock) would take the pipeline down there, and its pads with it.
        token = encoderInput.addProbe(.buffer) { [weak pipeline] info in
            guard let pipeline, let pts = info.buffer?.pts, let clock = pipeline.clockTime else { return .pass }
            let now = clock &- pipeline.baseTime
            let lag = Int64(bitPattern: now &- pts)
            let shed = shedding()
            switch shared.pace.withLock({ $0.note(lag: lag, at: now, shedding: shed) }) {
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

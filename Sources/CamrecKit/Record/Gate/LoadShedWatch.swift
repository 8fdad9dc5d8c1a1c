import GStreamer
import Synchronization

/// The `LoadShedder` of one pipeline: a probe on the source pad of the queue named "record",
/// before the gate's, leaves frames out while the encoder is behind, and wakes the bus loop
/// with `wake` the first time so that it warns (`warning`).
final class LoadShedWatch: Sendable {
    /// The application message that says the first frame was left out.
    static let wake = "camrec/shedding"

    /// What the probe (a streaming thread) and the bus loop share.
    private final class Shared: Sendable {
        let shedder = Mutex(LoadShedder())
    }

    private let shared = Shared()
    private let token: ProbeToken
    /// The warning the bus loop reports on `wake`, posted once: at the first frame left out.
    let warning: String

    /// Watches the queue named "record" of `pipeline`, whose bus gets the wake-up; nil when
    /// it has none. Frames past `gate`'s limit are the gate's to drop: they are neither left
    /// out nor counted here. `rate` words the warning.
    init?(pipeline: Pipeline, bus: Bus, gate: FrameGate, rate: FrameRateValue) {
        guard let queue = try? pipeline.element(named: "record"), let pad = try? queue.staticPad("src") else { return nil }
        warning = LoadShedder.warning(rate: rate)
        let shared = shared
        // The probe holds the queue, whose pad holds the probe: `remove()` breaks the circle.
        token = pad.addProbe(.buffer) { info in
            guard let pts = info.buffer?.pts, let backlog = queue.unsignedProperty("current-level-time") else { return .pass }
            // The gate's lock only while the encoder is behind: in time, no frame is left out.
            if backlog > LoadShedder.calm, gate.isPastLimit(pts) { return .pass }
            let (shed, first) = shared.shedder.withLock { state in
                let shed = state.leavesOut(backlog: backlog)
                return (shed, shed && state.shed == 1)
            }
            if first { _ = bus.postApplicationMessage(Self.wake) }
            return shed ? .drop : .pass
        }
    }

    /// Frames left out so far.
    var shed: UInt64 { shared.shedder.withLock { $0.shed } }

    /// Removes the probe (and with it its hold on the queue).
    func remove() { token.remove() }
}

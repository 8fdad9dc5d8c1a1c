import FoundationEssentials
import GStreamer

/// Stills from a passthrough recording (`--codec copy`, or `auto` storing an H.264
/// camera's stream): the movie's frames are never decoded while recording, so the stills
/// branch keeps the camera's compressed frames since the last keyframe, copied out of the
/// camera's buffers (holding those would starve the camera's few buffers), and a still
/// decodes them only when one is asked for (`StillDecoder`).
///
/// Memory: one GOP of compressed frames (about 250 KB for a second of 2 Mbit/s H.264);
/// a camera that sends no keyframe for more than `byteLimit` loses its stills until it does.
// `@unchecked`: its frames are guarded by `condition`'s lock, which a still waits on for a
// frame new enough (a `Mutex` has no condition to wait on).
final class GOPKeeper: @unchecked Sendable {
    /// One compressed frame, copied.
    struct Frame: Sendable {
        var bytes: [UInt8]
        var pts: UInt64?
        var dts: UInt64?
        var duration: UInt64?
        var keyframe: Bool
    }

    /// The most bytes kept: past it, the frames are dropped until the next keyframe.
    let byteLimit: Int
    private let condition = ThreadCondition()
    // Guarded by `condition`.
    private var frames: [Frame] = []
    private var bytes = 0
    private var caps: String?
    private var closed = false

    init(byteLimit: Int = 64 << 20) {
        self.byteLimit = byteLimit
    }

    /// Adds the next frame of the stream (on the streaming thread: a copy and an append).
    func append(_ frame: Frame, caps: String?) {
        condition.withLock {
            if frame.keyframe {
                frames.removeAll(keepingCapacity: true)
                bytes = 0
            } else if frames.isEmpty || bytes + frame.bytes.count > byteLimit {
                // Nothing to decode it from (no keyframe yet, or the GOP outgrew the limit).
                frames.removeAll(keepingCapacity: true)
                bytes = 0
                return
            }
            frames.append(frame)
            bytes += frame.bytes.count
            if let caps { self.caps = caps }
            condition.broadcast()
        }
    }

    /// The frames from the last keyframe to the newest, once the newest is at least
    /// `notBefore` (nil: any), and the stream's caps; nil when none arrive within `timeout`
    /// or the keeper is closed.
    func newest(notBefore: UInt64?, timeout: Duration) -> (frames: [Frame], caps: String)? {
        let deadline = Date(timeIntervalSinceNow: Double(timeout.components.seconds)
            + Double(timeout.components.attoseconds) / 1e18)
        return condition.withLock {
            while !closed {
                if let last = frames.last, let caps, (notBefore ?? 0) <= (last.pts ?? UInt64.max) {
                    return (frames, caps)
                }
                if !condition.wait(until: deadline) { break }
            }
            return nil
        }
    }

    /// Wakes every waiter: no frame will come any more.
    func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    /// Takes every sample from `sink` as it arrives (the stills branch's appsink) into a
    /// new keeper; the token stops it.
    static func attach(to sink: AppSink) -> (GOPKeeper, AppSinkCallbacksToken) {
        let keeper = GOPKeeper()
        let token = sink.setCallbacks(newSample: { view in
            guard let sample = view.pullSample(), let timing = sample.timing else { return .ok }
            let frame = Frame(bytes: sample.bytes, pts: timing.pts, dts: timing.dts, duration: timing.duration,
                              keyframe: timing.isKeyframe)
            keeper.append(frame, caps: sample.caps?.description)
            return .ok
        }, endOfStream: { keeper.close() })
        return (keeper, token)
    }
}

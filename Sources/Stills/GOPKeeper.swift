import CamrecCore
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
package final class GOPKeeper: Sendable {
    /// One compressed frame, copied.
    package struct Frame: Sendable {
        var bytes: [UInt8]
        var pts: UInt64?
        var dts: UInt64?
        var duration: UInt64?
        var keyframe: Bool
    }

    /// The most bytes kept: past it, the frames are dropped until the next keyframe.
    let byteLimit: Int

    /// What the streaming thread adds and a still waits for.
    private struct Kept: Sendable {
        var frames: [Frame] = []
        var bytes = 0
        var caps: String?
        var closed = false

        /// The frames and caps, once the newest frame is at least `notBefore` (nil: any).
        func newest(notBefore: UInt64?) -> (frames: [Frame], caps: String)? {
            guard let last = frames.last, let caps, (notBefore ?? 0) <= (last.pts ?? UInt64.max) else { return nil }
            return (frames, caps)
        }
    }
    private let kept = Monitor(Kept())

    init(byteLimit: Int = 64 << 20) {
        self.byteLimit = byteLimit
    }

    /// Adds the next frame of the stream (on the streaming thread: a copy and an append).
    func append(_ frame: Frame, caps: String?) {
        kept.withLockWaking { kept in
            if frame.keyframe {
                kept.frames.removeAll(keepingCapacity: true)
                kept.bytes = 0
            } else if kept.frames.isEmpty || kept.bytes + frame.bytes.count > byteLimit {
                // Nothing to decode it from (no keyframe yet, or the GOP outgrew the limit).
                kept.frames.removeAll(keepingCapacity: true)
                kept.bytes = 0
                return
            }
            kept.frames.append(frame)
            kept.bytes += frame.bytes.count
            if let caps { kept.caps = caps }
        }
    }

    /// The frames from the last keyframe to the newest, once the newest is at least
    /// `notBefore` (nil: any), and the stream's caps; nil when none arrive within `timeout`
    /// or the keeper is closed.
    package func newest(notBefore: UInt64?, timeout: Duration) -> (frames: [Frame], caps: String)? {
        kept.wait(until: { $0.closed || $0.newest(notBefore: notBefore) != nil },
                  deadline: ContinuousClock.now + max(timeout, .zero)) { kept, _ in
            kept.closed ? nil : kept.newest(notBefore: notBefore)
        }
    }

    /// Wakes every waiter: no frame will come any more.
    package func close() {
        kept.withLockWaking { $0.closed = true }
    }

    /// Takes every sample from `sink` as it arrives (the stills branch's appsink) into a
    /// new keeper; the token stops it.
    package static func attach(to sink: AppSink) -> (GOPKeeper, AppSinkCallbacksToken) {
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

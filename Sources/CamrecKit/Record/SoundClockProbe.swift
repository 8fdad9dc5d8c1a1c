import GStreamer
import Synchronization

/// `SoundClock` at work on the sound source's pad: each buffer of captured sound leaves
/// with the timestamp the clock places it at, with the sample frames it repeats or drops
/// (a repeated frame is a copy of its neighbour, so nothing clicks).
final class SoundClockProbe: Sendable {
    private let shared = Shared()
    private let token: ProbeToken

    /// The clock, shared with the probe (made at the first buffer, when the rate is known).
    private final class Shared: Sendable {
        let clock = Mutex<SoundClock?>(nil)
    }

    /// Installs the probe on `source`'s "src" pad; `remove()` takes it away.
    init(source: Element) throws(GStreamerError) {
        let pad = try source.staticPad("src")
        let shared = self.shared
        token = pad.addProbe(.buffer) { info in
            guard let view = info.buffer, let offsets = view.offsets, !offsets.isEmpty,
                  let now = source.clockTime
            else { return .pass }
            let count = Int(offsets.count)
            let arrival = now - min(now, source.baseTime)
            let placed: SoundClock.Placement? = shared.clock.withLock { clock in
                if clock == nil {
                    guard let rate = pad.currentCaps?.int("rate"), rate > 0 else { return nil }
                    clock = SoundClock(rate: rate)
                }
                return clock?.place(
                    pts: view.pts, count: count, arrival: arrival, discontinuous: view.isDiscontinuous)
            }
            guard let placed, var buffer = Self.edited(view, count: count, edit: placed.edit) else { return .pass }
            buffer.pts = placed.pts
            buffer.duration = placed.duration
            return .replace(buffer.finished())
        }
    }

    /// How fast the sound card's clock runs against the system clock (ppm, positive: fast):
    /// the drift the sound clock has learnt.
    var clockPPM: Double { shared.clock.withLock { $0?.clockPPM ?? 0 } }

    /// Removes the probe.
    func remove() { token.remove() }

    /// The buffer to send on: a copy of its metadata when no frame changes, otherwise new
    /// bytes with `edit` frames repeated (positive) or dropped, spread evenly.
    static func edited(_ view: BufferView, count: Int, edit: Int) -> WritableBuffer? {
        guard edit != 0 else { return view.writableCopy() }
        let edited = view.withBytes { bytes in FrameEdit(bytes: bytes, count: count, edit: edit)?.result } ?? nil
        guard let edited else { return view.writableCopy() }
        return WritableBuffer(bytes: edited)
    }
}

/// Interleaved sample frames with a few repeated or dropped at evenly spaced places.
struct FrameEdit {
    let result: [UInt8]

    /// `bytes` holding `count` whole frames; `edit` frames repeated (positive) or dropped
    /// (negative; fewer than `count`). Nil when the bytes are not whole frames.
    init?(bytes: UnsafeRawBufferPointer, count: Int, edit: Int) {
        guard count > 0, bytes.count % count == 0, abs(edit) < count else { return nil }
        let width = bytes.count / count
        let places = Set((0..<abs(edit)).map { ($0 + 1) * count / (abs(edit) + 1) })
        var result: [UInt8] = []
        result.reserveCapacity((count + edit) * width)
        for frame in 0..<count {
            let slice = bytes[(frame * width)..<((frame + 1) * width)]
            if places.contains(frame) {
                if edit > 0 { result.append(contentsOf: slice) } else { continue }
            }
            result.append(contentsOf: slice)
        }
        self.result = result
    }
}

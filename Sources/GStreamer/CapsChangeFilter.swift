import CGStreamer
import Synchronization

/// Remembers whether a pad has let its first caps through; released once, by the probe's
/// destroy notify.
private final class FirstCapsBox: Sendable {
    let seen = Mutex(false)
}

extension Pad {
    /// Lets the first CAPS event through this pad and drops the later ones, so that a
    /// muxer that cannot take caps changes (matroskamux) keeps the first caps. Use it only
    /// where later caps differ in fields that do not matter downstream (a parser
    /// re-deriving profile and level from in-band parameter sets).
    public func keepFirstCaps() -> ProbeToken {
        let box = Unmanaged.passRetained(FirstCapsBox()).toOpaque()
        let id = gst_pad_add_probe(
            padPointer, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
            { _, info, userData in
                guard let info, let userData, let event = info.pointee.data else { return GST_PAD_PROBE_OK }
                let type = event.assumingMemoryBound(to: GstEvent.self).pointee.type
                guard type == GST_EVENT_CAPS else { return GST_PAD_PROBE_OK }
                let box = Unmanaged<FirstCapsBox>.fromOpaque(userData).takeUnretainedValue()
                let first = box.seen.withLock { seen -> Bool in
                    defer { seen = true }
                    return !seen
                }
                return first ? GST_PAD_PROBE_OK : GST_PAD_PROBE_DROP
            },
            box,
            { userData in
                guard let userData else { return }
                Unmanaged<FirstCapsBox>.fromOpaque(userData).release()
            }
        )
        return ProbeToken(pad: self, id: id)
    }
}

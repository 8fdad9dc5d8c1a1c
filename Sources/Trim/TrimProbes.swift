import GStreamer
import Synchronization

/// The two event fixes trim's pipelines need, as pad probes.
extension Pad {
    /// Rewrites every time SEGMENT event passing this pad so that it starts at 0 (stream and
    /// running times change: use it before a sink with `sync=false`). Sinks then deliver
    /// buffers that lie before the demuxer's segment start (frames an edit list hides, or the
    /// keyframes before a seek position), which a copying reader needs as decoding references.
    func openSegmentStarts() -> ProbeToken {
        addProbe(.downstreamEvent) { info in
            guard let event = info.event, var segment = event.segment, segment.isTime, segment.start > 0 else {
                return .pass
            }
            segment.start = 0
            guard let replacement = Event.segment(segment, seqnum: event.seqnum) else { return .pass }
            return .replaceEvent(replacement)
        }
    }

    /// Lets the first CAPS event through this pad and drops the later ones, so that a
    /// muxer that cannot take caps changes (matroskamux) keeps the first caps. Use it only
    /// where later caps differ in fields that do not matter downstream (a parser
    /// re-deriving profile and level from in-band parameter sets).
    func keepFirstCaps() -> ProbeToken {
        let firstSeen = FirstCaps()
        return addProbe(.downstreamEvent) { info in
            guard info.event?.type == .caps else { return .pass }
            return firstSeen.seen.exchange(true, ordering: .relaxed) ? .drop : .pass
        }
    }
}

/// Whether a pad has let its first caps through.
private final class FirstCaps: Sendable {
    let seen = Atomic(false)
}

import CGStreamer
import CGStreamerShim
import Synchronization

/// Which data a pad probe sees.
public struct ProbeKind: OptionSet, Sendable {
    /// GStreamer's GstPadProbeType bits.
    public let rawValue: UInt32
    /// The kinds with these GstPadProbeType bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Buffers flowing downstream.
    public static let buffer = ProbeKind(rawValue: GST_PAD_PROBE_TYPE_BUFFER.rawValue)
    /// Events flowing downstream (stream start, caps, segment, EOS, …).
    public static let downstreamEvent = ProbeKind(rawValue: GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue)
    /// Events flowing upstream (QoS, seeks, navigation from a video sink's window, …).
    public static let upstreamEvent = ProbeKind(rawValue: GST_PAD_PROBE_TYPE_EVENT_UPSTREAM.rawValue)
    /// Queries travelling downstream, seen before they are sent to the peer. (GStreamer
    /// also calls a downstream-query probe once the peer answered, with the PULL bit, but
    /// only when the answer succeeded; this kind asks for the first call only. A probe that
    /// wants the answer asks the peer itself and returns `.handled`.)
    public static let downstreamQuery = ProbeKind(
        rawValue: GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM.rawValue | GST_PAD_PROBE_TYPE_PUSH.rawValue)
}

/// What a probe callback decides for the data it saw.
public enum ProbeDecision: Sendable {
    /// Let it through.
    case pass
    /// Drop it (it never reaches the peer).
    case drop
    /// The probe dealt with it: it goes no further, and a query counts as answered (with
    /// what the probe put in it).
    case handled
    /// Let it through and remove the probe (its token's `remove()` then does nothing).
    case remove
    /// Send this buffer on instead of the one seen (a buffer probe; e.g. a `writableCopy()`
    /// given new timestamps, then `finished()`). The pipeline takes its own reference. Ignored for an event.
    case replace(Buffer)
    /// Send this event on instead of the one seen (an event probe). The event is handed
    /// over: it cannot be sent again. Ignored for a buffer.
    case replaceEvent(Event)
}

/// What a probe sees: a borrowed view of the pad probe's info, valid only during the
/// callback. No reference is taken; keep values read from it, never the view itself.
public struct ProbeInfo {
    private let info: UnsafeMutablePointer<GstPadProbeInfo>

    init(_ info: UnsafeMutablePointer<GstPadProbeInfo>) { self.info = info }

    /// The buffer, for a buffer probe (borrowed, like the info).
    public var buffer: BufferView? {
        guard info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0,
              let buffer = camrec_probe_info_buffer(info)
        else { return nil }
        return BufferView(borrowing: buffer)
    }

    /// The event, for an event probe, downstream or upstream (borrowed, like the info).
    public var event: EventView? {
        let events = GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue | GST_PAD_PROBE_TYPE_EVENT_UPSTREAM.rawValue
        guard info.pointee.type.rawValue & events != 0,
              let event = camrec_probe_info_event(info)
        else { return nil }
        return EventView(borrowing: event)
    }

    /// The query, for a query probe (borrowed, like the info).
    public var query: QueryView? {
        let queries = GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM.rawValue | GST_PAD_PROBE_TYPE_QUERY_UPSTREAM.rawValue
        guard info.pointee.type.rawValue & queries != 0, let query = camrec_probe_info_query(info) else { return nil }
        return QueryView(borrowing: query)
    }
}

/// A registered pad probe; `remove()` (or dropping the last reference) unregisters it,
/// and GStreamer then releases the callback (at once, or when a call in progress returns).
public final class ProbeToken: Sendable {
    private let removal: OnceAction

    init(removal: OnceAction) { self.removal = removal }

    /// Removes the probe; safe to call more than once, from any thread.
    public func remove() { removal.run() }

    deinit { remove() }
}

/// One probe on one pad, shared by its token and its callback box: removes the probe at
/// most once, and not at all once the callback removed it itself (`.remove`), whose id
/// GStreamer may then have given to another probe.
private final class ProbeRegistration: Sendable {
    /// Kept alive until the probe is gone.
    let pad: Pad
    private let state = Mutex<(id: gulong, gone: Bool)>((0, false))

    init(pad: Pad) { self.pad = pad }

    func installed(as id: gulong) {
        state.withLock { $0.id = id }
    }

    /// The callback returned `.remove`: GStreamer removes the probe itself.
    func removedByCallback() {
        state.withLock { $0.gone = true }
    }

    func remove() {
        let id = state.withLock { state -> gulong in
            defer { state.gone = true }
            return state.gone ? 0 : state.id
        }
        if id != 0 { gst_pad_remove_probe(pad.padPointer, id) }
    }
}

/// Holds a probe's Swift callback for the C side; released exactly once, by the destroy
/// notify GStreamer calls when the probe is removed (or its pad finalised).
private final class ProbeBox {
    let callback: @Sendable (ProbeInfo) -> ProbeDecision
    let registration: ProbeRegistration

    init(_ callback: @escaping @Sendable (ProbeInfo) -> ProbeDecision, registration: ProbeRegistration) {
        self.callback = callback
        self.registration = registration
    }
}

extension Pad {
    /// Adds a probe. The callback runs on a streaming thread: it must be quick, never block,
    /// and touch shared state only through a `Mutex` or atomics. It sees the data through a
    /// borrowed `ProbeInfo` and decides with a `ProbeDecision`:
    ///
    /// ```swift
    /// let token = pad.addProbe(.buffer) { info in
    ///     guard let buffer = info.buffer, let pts = buffer.pts else { return .pass }
    ///     return pts < limit ? .pass : .drop
    /// }
    /// ```
    public func addProbe(
        _ kind: ProbeKind,
        _ callback: @escaping @Sendable (ProbeInfo) -> ProbeDecision
    ) -> ProbeToken {
        let registration = ProbeRegistration(pad: self)
        let box = Unmanaged.passRetained(ProbeBox(callback, registration: registration)).toOpaque()
        let id = gst_pad_add_probe(
            padPointer,
            GstPadProbeType(rawValue: kind.rawValue),
            { _, info, userData in
                guard let info, let userData else { return GST_PAD_PROBE_OK }
                let box = Unmanaged<ProbeBox>.fromOpaque(userData).takeUnretainedValue()
                let decision = box.callback(ProbeInfo(info))
                if case .remove = decision { box.registration.removedByCallback() }
                return decision.apply(to: info)
            },
            box,
            { userData in
                guard let userData else { return }
                Unmanaged<ProbeBox>.fromOpaque(userData).release()
            }
        )
        registration.installed(as: id)
        return ProbeToken(removal: OnceAction { registration.remove() })
    }
}

extension ProbeDecision {
    /// Carries the decision out on the probe's info: a replacement takes the place of the
    /// data, whose reference (owned by the probe) is released.
    fileprivate func apply(to info: UnsafeMutablePointer<GstPadProbeInfo>) -> GstPadProbeReturn {
        switch self {
        case .pass: return GST_PAD_PROBE_OK
        case .drop: return GST_PAD_PROBE_DROP
        case .handled: return GST_PAD_PROBE_HANDLED
        case .remove: return GST_PAD_PROBE_REMOVE
        case .replace(let buffer):
            guard info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0,
                  let old = info.pointee.data
            else { return GST_PAD_PROBE_OK }
            // Take the new reference first: the replacement may be the same buffer.
            info.pointee.data = UnsafeMutableRawPointer(buffer.retainedPointer())
            gst_mini_object_unref(old.assumingMemoryBound(to: GstMiniObject.self))
            return GST_PAD_PROBE_OK
        case .replaceEvent(let event):
            guard info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue != 0,
                  let old = info.pointee.data, let replacement = event.take()
            else { return GST_PAD_PROBE_OK }
            info.pointee.data = UnsafeMutableRawPointer(replacement)
            gst_mini_object_unref(old.assumingMemoryBound(to: GstMiniObject.self))
            return GST_PAD_PROBE_OK
        }
    }
}

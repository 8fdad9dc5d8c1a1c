import CGStreamer
import CGStreamerShim

/// Which data a pad probe sees.
public struct ProbeKind: OptionSet, Sendable {
    /// GStreamer's GstPadProbeType bits.
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Buffers flowing downstream.
    public static let buffer = ProbeKind(rawValue: GST_PAD_PROBE_TYPE_BUFFER.rawValue)
    /// Events flowing downstream (segment, EOS, …).
    public static let downstreamEvent = ProbeKind(rawValue: GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue)
}

/// What a probe callback decides for the data it saw.
public enum ProbeDecision: Sendable {
    /// Let it through.
    case pass
    /// Drop it (it never reaches the peer).
    case drop
    /// Let it through and remove the probe.
    case remove

    var gstValue: GstPadProbeReturn {
        switch self {
        case .pass: GST_PAD_PROBE_OK
        case .drop: GST_PAD_PROBE_DROP
        case .remove: GST_PAD_PROBE_REMOVE
        }
    }
}

/// Timing and flags of a buffer seen by a probe (copied out: safe to keep).
public struct BufferTiming: Sendable, Equatable {
    /// Presentation time in nanoseconds, when set.
    public var pts: UInt64?
    /// Decoding time in nanoseconds, when set.
    public var dts: UInt64?
    /// Duration in nanoseconds, when set.
    public var duration: UInt64?
    /// Whether the buffer can be decoded on its own (no DELTA_UNIT flag).
    public var isKeyframe: Bool
    /// Size in bytes.
    public var size: Int

    init(_ buffer: UnsafeMutablePointer<GstBuffer>) {
        func time(_ value: GstClockTime) -> UInt64? { value == GstClockTime(UInt64.max) ? nil : UInt64(value) }
        pts = time(camrec_buffer_pts(buffer))
        dts = time(camrec_buffer_dts(buffer))
        duration = time(camrec_buffer_duration(buffer))
        isKeyframe = camrec_buffer_is_delta(buffer) == 0
        size = Int(gst_buffer_get_size(buffer))
    }
}

/// What a probe saw: a buffer's timing, or the kind of an event.
public enum ProbeData: Sendable, Equatable {
    case buffer(BufferTiming)
    case endOfStream
    case segment
    case otherEvent
    case other
}

/// A registered pad probe; `remove()` (or dropping the last reference) unregisters it.
public final class ProbeToken: Sendable {
    private let removal: OnceAction

    init(pad: Pad, id: gulong) {
        // The closure keeps the pad alive until the probe is removed.
        removal = OnceAction { [pad] in gst_pad_remove_probe(pad.padPointer, id) }
    }

    /// Removes the probe; safe to call more than once.
    public func remove() { removal.run() }

    deinit { remove() }
}

/// Holds a probe's Swift callback for the C side; released once, by GStreamer's destroy notify.
private final class ProbeCallbackBox {
    let callback: @Sendable (ProbeData) -> ProbeDecision
    init(_ callback: @escaping @Sendable (ProbeData) -> ProbeDecision) { self.callback = callback }
}

extension Pad {
    /// Adds a probe. The callback runs on a streaming thread: it must be quick, never block,
    /// and touch shared state only through a `Mutex` or atomics.
    public func addProbe(
        _ kind: ProbeKind,
        _ callback: @escaping @Sendable (ProbeData) -> ProbeDecision
    ) -> ProbeToken {
        let box = Unmanaged.passRetained(ProbeCallbackBox(callback)).toOpaque()
        let id = gst_pad_add_probe(
            padPointer,
            GstPadProbeType(rawValue: kind.rawValue),
            { _, info, userData in
                guard let info, let userData else { return GST_PAD_PROBE_OK }
                let box = Unmanaged<ProbeCallbackBox>.fromOpaque(userData).takeUnretainedValue()
                return box.callback(ProbeData(info)).gstValue
            },
            box,
            { userData in
                guard let userData else { return }
                Unmanaged<ProbeCallbackBox>.fromOpaque(userData).release()
            }
        )
        return ProbeToken(pad: self, id: id)
    }
}

extension ProbeData {
    init(_ info: UnsafeMutablePointer<GstPadProbeInfo>) {
        let type = info.pointee.type.rawValue
        if type & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0, let buffer = camrec_probe_info_buffer(info) {
            self = .buffer(BufferTiming(buffer))
        } else if type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue != 0, let event = camrec_probe_info_event(info) {
            switch event.pointee.type {
            case GST_EVENT_EOS: self = .endOfStream
            case GST_EVENT_SEGMENT: self = .segment
            default: self = .otherEvent
            }
        } else {
            self = .other
        }
    }
}

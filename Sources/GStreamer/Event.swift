import CGStreamer

/// A `GstEvent` we own until it is sent (sending transfers it to GStreamer).
public final class Event: @unchecked Sendable {
    private var pointer: UnsafeMutablePointer<GstEvent>?

    private init(_ pointer: UnsafeMutablePointer<GstEvent>) { self.pointer = pointer }

    /// Takes over a new event's reference (transfer full).
    init(taking pointer: UnsafeMutablePointer<GstEvent>) { self.pointer = pointer }

    /// End of stream: muxers finalise their files when it reaches them.
    public static func endOfStream() -> Event {
        // gst_event_new_eos never fails.
        Event(gst_event_new_eos())
    }

    /// A SEGMENT event carrying `segment`; with `seqnum`, it continues that event (a probe
    /// that replaces an event keeps its sequence number). Nil when GStreamer refuses the segment.
    public static func segment(_ segment: Segment, seqnum: UInt32? = nil) -> Event? {
        var raw = segment.raw
        guard let pointer = gst_event_new_segment(&raw) else { return nil }
        if let seqnum { gst_event_set_seqnum(pointer, guint32(seqnum)) }
        return Event(pointer)
    }

    /// A CAPS event announcing `caps` (the event takes its own reference); nil when
    /// GStreamer refuses them.
    public static func caps(_ caps: Caps) -> Event? {
        gst_event_new_caps(caps.capsPointer).map { Event($0) }
    }

    /// Hands the event's reference over (to a send call or a probe's replacement); the
    /// wrapper is empty afterwards.
    func take() -> UnsafeMutablePointer<GstEvent>? {
        defer { pointer = nil }
        return pointer
    }

    deinit {
        if let pointer {
            gst_mini_object_unref(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstMiniObject.self))
        }
    }
}

/// The kinds of event camrec looks at.
public enum EventType: Sendable, Equatable {
    /// The start of a stream.
    case streamStart
    /// The caps of the buffers that follow.
    case caps
    /// The time segment of the buffers that follow.
    case segment
    /// End of stream.
    case endOfStream
    /// Start or end of a flush (a flushing seek).
    case flushStart, flushStop
    /// Any other event, by GStreamer's name (e.g. "tag").
    case other(String)

    init(_ type: GstEventType) {
        switch type {
        case GST_EVENT_STREAM_START: self = .streamStart
        case GST_EVENT_CAPS: self = .caps
        case GST_EVENT_SEGMENT: self = .segment
        case GST_EVENT_EOS: self = .endOfStream
        case GST_EVENT_FLUSH_START: self = .flushStart
        case GST_EVENT_FLUSH_STOP: self = .flushStop
        default: self = .other(gst_event_type_get_name(type).map { String(cString: $0) } ?? "unknown")
        }
    }
}

/// An event we do not own: a borrowed view of the event a pad probe sees, valid only
/// during the callback that received it (no reference is taken). Values read from it
/// (`segment`, `caps`) are copies or references of their own, safe to keep.
public struct EventView {
    /// The borrowed event.
    public let eventPointer: UnsafeMutablePointer<GstEvent>

    /// Views an event someone else keeps alive for as long as the view is used.
    public init(borrowing pointer: UnsafeMutablePointer<GstEvent>) {
        eventPointer = pointer
    }

    /// What kind of event it is.
    public var type: EventType { EventType(eventPointer.pointee.type) }

    /// The sequence number that ties related events together.
    public var seqnum: UInt32 { UInt32(gst_event_get_seqnum(eventPointer)) }

    /// A copy of a SEGMENT event's segment; nil for other events.
    public var segment: Segment? {
        guard eventPointer.pointee.type == GST_EVENT_SEGMENT else { return nil }
        var parsed: UnsafePointer<GstSegment>?
        gst_event_parse_segment(eventPointer, &parsed)
        return parsed.map { Segment($0.pointee) }
    }

    /// The key of a navigation key-press event (a key pressed in a video sink's window, as
    /// X11 names it: "s", "q", "space"); nil for any other event.
    public var navigationKeyPress: String? {
        guard gst_navigation_event_get_type(eventPointer) == GST_NAVIGATION_EVENT_KEY_PRESS else { return nil }
        var key: UnsafePointer<gchar>?
        guard gst_navigation_event_parse_key_event(eventPointer, &key) != 0, let key else { return nil }
        return String(cString: key)
    }

    /// A CAPS event's caps (the wrapper takes its own reference); nil for other events.
    public var caps: Caps? {
        guard eventPointer.pointee.type == GST_EVENT_CAPS else { return nil }
        var parsed: UnsafeMutablePointer<GstCaps>?
        gst_event_parse_caps(eventPointer, &parsed)
        return parsed.map { Caps($0, transfer: .none) }
    }
}

import CGStreamer

/// The part of a time segment that maps buffer times to the stream's presentation
/// timeline (`stream time = pts - start + time`): how demuxers apply an edit list.
public struct SegmentTimes: Sendable, Equatable {
    /// First buffer time in the segment (ns).
    public var start: UInt64
    /// Stream time of `start` (ns).
    public var time: UInt64
    /// Last buffer time in the segment, if bounded (ns).
    public var stop: UInt64?

    /// Creates segment times.
    public init(start: UInt64, time: UInt64, stop: UInt64?) {
        self.start = start
        self.time = time
        self.stop = stop
    }
}

extension Pad {
    /// The time segment the pad last carried (its sticky SEGMENT event), if any.
    public var segmentTimes: SegmentTimes? {
        guard let event = gst_pad_get_sticky_event(padPointer, GST_EVENT_SEGMENT, 0) else { return nil }
        defer { gst_mini_object_unref(UnsafeMutableRawPointer(event).assumingMemoryBound(to: GstMiniObject.self)) }
        var segment: UnsafePointer<GstSegment>?
        gst_event_parse_segment(event, &segment)
        guard let segment, segment.pointee.format == GST_FORMAT_TIME else { return nil }
        let stop = segment.pointee.stop
        return SegmentTimes(
            start: UInt64(segment.pointee.start), time: UInt64(segment.pointee.time),
            stop: stop == GstClockTime(UInt64.max) ? nil : UInt64(stop)
        )
    }

    /// The caps the pad can produce or accept now: the negotiated caps when there are
    /// some, else the result of a caps query (transfer full).
    public var capsNowOrQueried: Caps? {
        if let caps = currentCaps { return caps }
        return gst_pad_query_caps(padPointer, nil).map { Caps($0, transfer: .full) }
    }

    /// The element that owns this pad (transfer full), if any.
    public var parentElement: Element? {
        gst_pad_get_parent_element(padPointer).map { Element($0, transfer: .full) }
    }
}

extension Caps {
    /// The bytes of a buffer-valued field of the first structure, e.g. `codec_data`.
    public func bytes(_ field: String) -> [UInt8]? {
        guard gst_caps_get_size(capsPointer) > 0, let structure = gst_caps_get_structure(capsPointer, 0),
              let value = gst_structure_get_value(structure, field),
              g_type_check_value_holds(value, gst_buffer_get_type()) != 0,
              let boxed = g_value_get_boxed(value)
        else { return nil }
        let buffer = Buffer(UnsafeMutableRawPointer(mutating: boxed).assumingMemoryBound(to: GstBuffer.self), transfer: .none)
        return buffer.bytes
    }

    /// A copy of the caps with the named fields removed from every structure.
    public func removingFields(_ fields: [String]) -> Caps {
        let copy = gst_caps_copy(capsPointer)
        if let copy {
            for index in 0..<gst_caps_get_size(copy) {
                guard let structure = gst_caps_get_structure(copy, index) else { continue }
                for field in fields { gst_structure_remove_field(structure, field) }
            }
            return Caps(copy, transfer: .full)
        }
        return Caps(capsPointer, transfer: .none)
    }
}

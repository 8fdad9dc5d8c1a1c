import CGStreamer

extension Pad {
    /// Rewrites every time SEGMENT event passing this pad so that it starts at 0 (stream and
    /// running times change: use it before a sink with `sync=false`). Sinks then deliver buffers that lie
    /// before the demuxer's segment start (frames an edit list hides, or the keyframes before
    /// a seek position), which a copying reader needs as decoding references.
    public func openSegmentStarts() -> ProbeToken {
        let id = gst_pad_add_probe(
            padPointer, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
            { _, info, _ in
                guard let info, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
                let event = data.assumingMemoryBound(to: GstEvent.self)
                guard event.pointee.type == GST_EVENT_SEGMENT else { return GST_PAD_PROBE_OK }
                var parsed: UnsafePointer<GstSegment>?
                gst_event_parse_segment(event, &parsed)
                guard let parsed, parsed.pointee.format == GST_FORMAT_TIME, parsed.pointee.start > 0,
                      let copy = gst_segment_copy(parsed)
                else { return GST_PAD_PROBE_OK }
                defer { gst_segment_free(copy) }
                copy.pointee.start = 0
                guard let replacement = gst_event_new_segment(copy) else { return GST_PAD_PROBE_OK }
                gst_event_set_seqnum(replacement, gst_event_get_seqnum(event))
                gst_mini_object_unref(UnsafeMutableRawPointer(event).assumingMemoryBound(to: GstMiniObject.self))
                info.pointee.data = UnsafeMutableRawPointer(replacement)
                return GST_PAD_PROBE_OK
            },
            nil, nil
        )
        return ProbeToken(pad: self, id: id)
    }
}

import CGStreamer

/// What a stream says about itself besides its caps: the language and title of its
/// stream-scope tags. Demuxers set them from the container's track headers (matroskademux,
/// qtdemux); muxers write them back into theirs (matroskamux: track language and name;
/// mp4mux/qtmux: the media header's language).
public struct StreamTags: Sendable, Equatable {
    /// `GST_TAG_LANGUAGE_CODE` as the element gives it: ISO 639-1 ("fr") where GStreamer
    /// knows one, else the container's own code ("und", "fra").
    public var languageCode: String?
    /// `GST_TAG_TITLE`: the track's name.
    public var title: String?

    /// Tags with the language and title given (nil: not said).
    public init(languageCode: String? = nil, title: String? = nil) {
        self.languageCode = languageCode
        self.title = title
    }
}

/// A stream's STREAM_START event: its id and the selection flags its demuxer set
/// (matroskademux: `select` for a track with the default flag, `unselect` for a disabled one).
public struct StreamStart: Sendable, Equatable {
    /// The stream id (matroskademux ends it with "/TRACKNUMBER:TRACKUID", three digits at least each).
    public var streamID: String
    /// `GST_STREAM_FLAG_SELECT`.
    public var isSelected: Bool
    /// `GST_STREAM_FLAG_UNSELECT`.
    public var isUnselected: Bool
}

extension Pad {
    /// The stream-scope tags the pad carried (its sticky TAG events), the first value of each.
    public var streamTags: StreamTags {
        var tags = StreamTags()
        var index: guint = 0
        while let event = gst_pad_get_sticky_event(padPointer, GST_EVENT_TAG, index) {
            defer { gst_mini_object_unref(UnsafeMutableRawPointer(event).assumingMemoryBound(to: GstMiniObject.self)) }
            var list: UnsafeMutablePointer<GstTagList>?
            gst_event_parse_tag(event, &list)
            if let list, gst_tag_list_get_scope(list) == GST_TAG_SCOPE_STREAM {
                tags.languageCode = tags.languageCode ?? TagListText.string(list, "language-code")
                tags.title = tags.title ?? TagListText.string(list, "title")
            }
            index += 1
        }
        return tags
    }

    /// The pad's STREAM_START event (sticky), if it carried one.
    public var streamStart: StreamStart? {
        guard let event = gst_pad_get_sticky_event(padPointer, GST_EVENT_STREAM_START, 0) else { return nil }
        defer { gst_mini_object_unref(UnsafeMutableRawPointer(event).assumingMemoryBound(to: GstMiniObject.self)) }
        var id: UnsafePointer<gchar>?
        gst_event_parse_stream_start(event, &id)
        var flags = GST_STREAM_FLAG_NONE
        gst_event_parse_stream_flags(event, &flags)
        return StreamStart(
            streamID: id.map { String(cString: $0) } ?? "",
            isSelected: flags.rawValue & GST_STREAM_FLAG_SELECT.rawValue != 0,
            isUnselected: flags.rawValue & GST_STREAM_FLAG_UNSELECT.rawValue != 0
        )
    }

}

extension Event {
    /// A TAG event of stream scope saying `tags` (nil when both are nil, or GStreamer
    /// refuses the list). Sent to an appsrc, it goes out in order with its buffers.
    public static func streamTags(_ tags: StreamTags) -> Event? {
        guard tags.languageCode != nil || tags.title != nil, let list = gst_tag_list_new_empty() else { return nil }
        gst_tag_list_set_scope(list, GST_TAG_SCOPE_STREAM)
        for (tag, text) in [("language-code", tags.languageCode), ("title", tags.title)] {
            guard let text, !text.isEmpty else { continue }
            TagListText.set(list, tag, text)
        }
        // gst_event_new_tag takes the list.
        return gst_event_new_tag(list).map { Event(taking: $0) }
    }
}

/// String tags of a `GstTagList`, read and written the one way (stream tags, TOC entries).
enum TagListText {
    /// A string tag of `list` (copied), nil when absent.
    static func string(_ list: UnsafePointer<GstTagList>, _ tag: String) -> String? {
        var value: UnsafeMutablePointer<gchar>?
        guard gst_tag_list_get_string(list, tag, &value) != 0, let value else { return nil }
        defer { g_free(value) }
        return String(cString: value)
    }

    /// Sets `tag` of `list` (writable) to `text`, replacing what it held.
    static func set(_ list: UnsafeMutablePointer<GstTagList>, _ tag: String, _ text: String) {
        var value = GValue()
        g_value_init(&value, GType(16 << 2))  // G_TYPE_STRING (a macro Swift cannot call)
        g_value_set_string(&value, text)
        gst_tag_list_add_value(list, GST_TAG_MERGE_REPLACE, tag, &value)
        g_value_unset(&value)
    }
}

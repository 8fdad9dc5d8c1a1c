import CGStreamer

/// Flags of a seek (GStreamer's `GstSeekFlags`, the ones camrec uses).
public struct SeekFlags: OptionSet, Sendable {
    /// GStreamer's GstSeekFlags bits.
    public let rawValue: UInt32
    /// The flags with these GstSeekFlags bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Discard the data in flight and restart from the new position.
    public static let flush = SeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue)
    /// Position exactly (demuxers still start video at the keyframe before; decoders clip).
    public static let accurate = SeekFlags(rawValue: GST_SEEK_FLAG_ACCURATE.rawValue)
    /// Move the position to a keyframe.
    public static let keyUnit = SeekFlags(rawValue: GST_SEEK_FLAG_KEY_UNIT.rawValue)
    /// With `keyUnit`: the keyframe at or before the position.
    public static let snapBefore = SeekFlags(rawValue: GST_SEEK_FLAG_SNAP_BEFORE.rawValue)
    /// With `keyUnit`: the keyframe nearest the position.
    public static let snapNearest = SeekFlags(rawValue: GST_SEEK_FLAG_SNAP_NEAREST.rawValue)
    /// Play to the end (or `stop`) and post "segment-done" instead of ending the stream: a
    /// further seek without `flush` then goes on seamlessly, its running time continuing.
    public static let segment = SeekFlags(rawValue: GST_SEEK_FLAG_SEGMENT.rawValue)
}

extension Element {
    /// Seeks in time to `start` nanoseconds, playing until `stop` (nil: the end).
    /// Send it to a pipeline that has reached PAUSED. Returns whether an element handled it.
    @discardableResult
    public func seek(to start: UInt64, stop: UInt64? = nil, flags: SeekFlags) -> Bool {
        let stopType = stop == nil ? GST_SEEK_TYPE_NONE : GST_SEEK_TYPE_SET
        return gst_element_seek(
            elementPointer, 1.0, GST_FORMAT_TIME, GstSeekFlags(rawValue: flags.rawValue),
            GST_SEEK_TYPE_SET, gint64(clamping: start), stopType, gint64(clamping: stop ?? UInt64.max)
        ) != 0
    }

    /// The stream duration in nanoseconds, when an element knows it.
    public func queryDuration() -> UInt64? {
        var duration: gint64 = 0
        guard gst_element_query_duration(elementPointer, GST_FORMAT_TIME, &duration) != 0, duration >= 0 else {
            return nil
        }
        return UInt64(duration)
    }
}

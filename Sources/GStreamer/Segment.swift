import CGStreamer

/// A copy of a `GstSegment` (a plain C struct, held by value): how buffer times map to
/// running and stream times. Read one from a SEGMENT event (`EventView.segment`), change
/// it, and send it on in a new event (`Event.segment(_:seqnum:)`).
public struct Segment: @unchecked Sendable {
    // @unchecked: GstSegment's only pointers are reserved padding, always NULL.
    var raw: GstSegment

    init(_ raw: GstSegment) { self.raw = raw }

    /// Whether the segment is in time (nanoseconds), as every segment camrec handles is.
    public var isTime: Bool { raw.format == GST_FORMAT_TIME }

    /// First buffer time in the segment.
    public var start: UInt64 {
        get { UInt64(raw.start) }
        set { raw.start = guint64(newValue) }
    }

    /// Last buffer time in the segment (nil: unbounded).
    public var stop: UInt64? {
        get { raw.stop == guint64(UInt64.max) ? nil : UInt64(raw.stop) }
        set { raw.stop = guint64(newValue ?? UInt64.max) }
    }

    /// Stream time of `start`.
    public var time: UInt64 {
        get { UInt64(raw.time) }
        set { raw.time = guint64(newValue) }
    }

    /// Running time already elapsed before this segment.
    public var base: UInt64 {
        get { UInt64(raw.base) }
        set { raw.base = guint64(newValue) }
    }

    /// Playback rate (1 for normal playback).
    public var rate: Double { raw.rate }

    /// Start, stream time and stop.
    public var times: SegmentTimes { SegmentTimes(start: start, time: time, stop: stop) }

    /// The running time of buffer time `position` in this (time) segment; nil when it lies
    /// outside the segment. Different branches of a pipeline compare their buffers by
    /// running time: an encoder may shift its buffer times (x264enc adds 1000 hours) and a
    /// pad offset moves the running time, both through the segment.
    public func runningTime(of position: UInt64) -> UInt64? {
        var copy = raw
        let time = gst_segment_to_running_time(&copy, GST_FORMAT_TIME, guint64(position))
        return time == guint64(UInt64.max) ? nil : UInt64(time)
    }
}

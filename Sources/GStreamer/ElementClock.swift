import CGStreamer

extension Element {
    /// The element's base time: the pipeline clock's time when it went to PLAYING, which
    /// a live source subtracts from capture times to make running times (nanoseconds).
    public var baseTime: UInt64 { UInt64(gst_element_get_base_time(elementPointer)) }

    /// The time on the clock the element runs with (the pipeline's), nanoseconds; nil
    /// before the pipeline has chosen a clock.
    public var clockTime: UInt64? {
        guard let clock = gst_element_get_clock(elementPointer) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(clock)) }
        let time = UInt64(gst_clock_get_time(clock))
        return time == UInt64.max ? nil : time
    }
}

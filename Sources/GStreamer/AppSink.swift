import CGStreamer

/// An `appsink` element: where our code takes buffers out of a pipeline.
public final class AppSink: Element, @unchecked Sendable {
    /// The wrapped appsink.
    var sinkPointer: UnsafeMutablePointer<GstAppSink> {
        UnsafeMutableRawPointer(objectPointer).assumingMemoryBound(to: GstAppSink.self)
    }

    /// Views `element` as an appsink (a `GstAppSink` or a subclass, checked by GType);
    /// throws `.wrongType` when it is some other element. Takes a reference of its own.
    public init(_ element: Element) throws(GStreamerError) {
        try element.requireType(gst_app_sink_get_type())
        super.init(element.elementPointer, transfer: .none)
    }

    /// The next sample, waiting up to `timeoutNanoseconds`; nil on time-out or end of stream.
    public func pullSample(timeoutNanoseconds: UInt64) -> Sample? {
        gst_app_sink_try_pull_sample(sinkPointer, GstClockTime(timeoutNanoseconds)).map { Sample($0, transfer: .full) }
    }

    /// The preroll sample, waiting up to `timeoutNanoseconds`.
    public func pullPreroll(timeoutNanoseconds: UInt64) -> Sample? {
        gst_app_sink_try_pull_preroll(sinkPointer, GstClockTime(timeoutNanoseconds)).map { Sample($0, transfer: .full) }
    }

    /// Whether the sink has received end of stream.
    public var isEndOfStream: Bool { gst_app_sink_is_eos(sinkPointer) != 0 }
}

import CGStreamer

/// What a push into an `AppSrc` returned (GStreamer's `GstFlowReturn`, reduced).
public enum FlowResult: Sendable, Equatable, CustomStringConvertible {
    /// Accepted.
    case ok
    /// The element is flushing or not running (e.g. the pipeline stopped).
    case flushing
    /// The element has already received end of stream.
    case endOfStream
    /// Downstream could not agree on the caps.
    case notNegotiated
    /// Any other flow error, with its GStreamer value.
    case error(Int)

    /// GStreamer's value.
    var gstValue: GstFlowReturn {
        switch self {
        case .ok: GST_FLOW_OK
        case .flushing: GST_FLOW_FLUSHING
        case .endOfStream: GST_FLOW_EOS
        case .notNegotiated: GST_FLOW_NOT_NEGOTIATED
        case .error(let value): GstFlowReturn(rawValue: Int32(clamping: value))
        }
    }

    init(_ value: GstFlowReturn) {
        switch value {
        case GST_FLOW_OK: self = .ok
        case GST_FLOW_FLUSHING: self = .flushing
        case GST_FLOW_EOS: self = .endOfStream
        case GST_FLOW_NOT_NEGOTIATED: self = .notNegotiated
        default: self = .error(Int(value.rawValue))
        }
    }

    /// The result in words ("not negotiated").
    public var description: String {
        switch self {
        case .ok: "ok"
        case .flushing: "flushing"
        case .endOfStream: "end of stream"
        case .notNegotiated: "not negotiated"
        case .error(let value): "flow error \(value)"
        }
    }
}

/// An `appsrc` element: where our code puts buffers into a pipeline.
public final class AppSrc: Element, @unchecked Sendable {
    var sourcePointer: UnsafeMutablePointer<GstAppSrc> {
        UnsafeMutableRawPointer(objectPointer).assumingMemoryBound(to: GstAppSrc.self)
    }

    /// Views `element` as an appsrc (a `GstAppSrc` or a subclass, checked by GType);
    /// throws `.wrongType` when it is some other element. Takes a reference of its own.
    public init(_ element: Element) throws(GStreamerError) {
        try element.requireType(gst_app_src_get_type())
        super.init(element.elementPointer, transfer: .none)
    }

    /// Sets the caps of the buffers pushed from now on (the appsrc takes its own reference).
    public func setCaps(_ caps: Caps) {
        gst_app_src_set_caps(sourcePointer, caps.capsPointer)
    }

    /// Pushes a buffer (the appsrc takes a new reference; `buffer` stays usable).
    /// With `block=true` the call waits while the queue is above `max-bytes`.
    @discardableResult
    public func push(_ buffer: Buffer) -> FlowResult {
        FlowResult(gst_app_src_push_buffer(sourcePointer, buffer.retainedPointer()))
    }

    /// Signals that no more buffers will come; downstream gets end of stream after the queued ones.
    @discardableResult
    public func endOfStream() -> FlowResult {
        FlowResult(gst_app_src_end_of_stream(sourcePointer))
    }
}

extension AppSrc {
    /// Pushes a buffer preceded by a new time segment starting at `segmentStart` (ns), with
    /// stream time 0 there: buffers may then carry decoding times before the segment start
    /// (negative running time), which muxers turn into an edit list. Needs the appsrc's
    /// `handle-segment-change` property set to true.
    @discardableResult
    public func push(_ buffer: Buffer, segmentStart: UInt64) -> FlowResult {
        guard let segment = gst_segment_new() else { return .error(-5) }
        defer { gst_segment_free(segment) }
        gst_segment_init(segment, GST_FORMAT_TIME)
        segment.pointee.start = guint64(segmentStart)
        segment.pointee.position = guint64(segmentStart)
        segment.pointee.time = 0
        guard let sample = gst_sample_new(buffer.bufferPointer, nil, segment, nil) else { return .error(-5) }
        defer { gst_mini_object_unref(UnsafeMutableRawPointer(sample).assumingMemoryBound(to: GstMiniObject.self)) }
        let appsrc = UnsafeMutableRawPointer(objectPointer).assumingMemoryBound(to: GstAppSrc.self)
        return FlowResult(gst_app_src_push_sample(appsrc, sample))
    }
}

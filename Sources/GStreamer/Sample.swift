import CGStreamer

/// A `GstSample` (buffer plus caps) we hold one reference to, e.g. from an `AppSink`.
public final class Sample: @unchecked Sendable {
    /// The wrapped sample.
    public let samplePointer: OpaquePointer

    /// Wraps a sample (samples never float: `.floating` is treated as `.full`).
    public init(_ pointer: OpaquePointer, transfer: Transfer) {
        samplePointer = pointer
        if transfer == .none { gst_mini_object_ref(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstMiniObject.self)) }
    }

    /// A new sample of `buffer` with `caps` (each gets its own reference); nil when GStreamer cannot make one.
    public convenience init?(buffer: Buffer, caps: Caps) {
        guard let pointer = gst_sample_new(buffer.bufferPointer, caps.capsPointer, nil, nil) else { return nil }
        self.init(pointer, transfer: .full)
    }

    deinit {
        gst_mini_object_unref(UnsafeMutableRawPointer(samplePointer).assumingMemoryBound(to: GstMiniObject.self))
    }

    /// The segment its buffer belongs to (a copy), nil when it has none.
    public var segment: Segment? {
        gst_sample_get_segment(samplePointer).map { Segment($0.pointee) }
    }

    /// The sample's caps (borrowed by the sample; the wrapper takes its own reference).
    public var caps: Caps? {
        gst_sample_get_caps(samplePointer).map { Caps($0, transfer: .none) }
    }

    /// The buffer's timing and flags.
    public var timing: BufferTiming? {
        gst_sample_get_buffer(samplePointer).map { BufferTiming($0) }
    }

    /// Calls `body` with the buffer's bytes mapped for reading; the bytes are valid only
    /// during the call. Returns nil when the sample has no readable buffer.
    public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result? {
        guard let buffer = gst_sample_get_buffer(samplePointer) else { return nil }
        var map = GstMapInfo()
        guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { return nil }
        defer { gst_buffer_unmap(buffer, &map) }
        return try body(UnsafeRawBufferPointer(start: map.data, count: Int(map.size)))
    }

    /// A copy of the buffer's bytes.
    public var bytes: [UInt8] {
        withBytes { Array($0) } ?? []
    }
}

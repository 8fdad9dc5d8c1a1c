import CGStreamer
import CGStreamerShim

/// A `GstBuffer` (a mini object) we hold one reference to: compressed frames read from an
/// `AppSink` and pushed into an `AppSrc`, with timestamps rewritten on the way.
public final class Buffer: @unchecked Sendable {
    /// The wrapped buffer; it may change when a setter makes the buffer writable
    /// (copy-on-write of the metadata; the memory is shared, not copied).
    public private(set) var bufferPointer: UnsafeMutablePointer<GstBuffer>

    /// Wraps a buffer with the given transfer (`.floating` is treated as `.full`: buffers never float).
    public init(_ pointer: UnsafeMutablePointer<GstBuffer>, transfer: Transfer) {
        bufferPointer = pointer
        if transfer == .none { _ = gst_buffer_ref(pointer) }
    }

    /// A new buffer holding a copy of `bytes`; nil only when memory cannot be allocated.
    public convenience init?(bytes: [UInt8]) {
        let pointer = bytes.withUnsafeBytes { raw -> UnsafeMutablePointer<GstBuffer>? in
            guard let base = raw.baseAddress else { return gst_buffer_new() }
            return gst_buffer_new_memdup(base, gsize(raw.count))
        }
        guard let pointer else { return nil }
        self.init(pointer, transfer: .full)
    }

    deinit { gst_buffer_unref(bufferPointer) }

    /// The reference count (for ownership tests; racy by nature).
    public var referenceCount: Int { Int(camrec_miniobject_refcount(bufferPointer)) }

    /// Hands a new reference over to a call that takes ownership (transfer full).
    func retainedPointer() -> UnsafeMutablePointer<GstBuffer> {
        gst_buffer_ref(bufferPointer)
    }

    /// A borrowed view of the buffer, valid while this wrapper lives and is not written to.
    public var view: BufferView { BufferView(borrowing: bufferPointer) }

    /// Timing, flags and size.
    public var timing: BufferTiming { BufferTiming(bufferPointer) }

    /// Presentation time in nanoseconds (nil: none).
    public var pts: UInt64? {
        get { Buffer.time(bufferPointer.pointee.pts) }
        set { makeWritable(); bufferPointer.pointee.pts = Buffer.clockTime(newValue) }
    }

    /// Decoding time in nanoseconds (nil: none).
    public var dts: UInt64? {
        get { Buffer.time(bufferPointer.pointee.dts) }
        set { makeWritable(); bufferPointer.pointee.dts = Buffer.clockTime(newValue) }
    }

    /// Duration in nanoseconds (nil: unknown).
    public var duration: UInt64? {
        get { Buffer.time(bufferPointer.pointee.duration) }
        set { makeWritable(); bufferPointer.pointee.duration = Buffer.clockTime(newValue) }
    }

    /// Whether the buffer can be decoded on its own (the DELTA_UNIT flag is clear).
    public var isKeyframe: Bool {
        get { timing.isKeyframe }
        set {
            makeWritable()
            if newValue {
                _ = gst_buffer_unset_flags(bufferPointer, GST_BUFFER_FLAG_DELTA_UNIT)
            } else {
                _ = gst_buffer_set_flags(bufferPointer, GST_BUFFER_FLAG_DELTA_UNIT)
            }
        }
    }

    /// Size in bytes.
    public var size: Int { Int(gst_buffer_get_size(bufferPointer)) }

    /// Calls `body` with the bytes mapped for reading; valid only during the call.
    public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result? {
        var map = GstMapInfo()
        guard gst_buffer_map(bufferPointer, &map, GST_MAP_READ) != 0 else { return nil }
        defer { gst_buffer_unmap(bufferPointer, &map) }
        return try body(UnsafeRawBufferPointer(start: map.data, count: Int(map.size)))
    }

    /// A copy of the bytes.
    public var bytes: [UInt8] { withBytes { Array($0) } ?? [] }

    /// Calls `body` with the bytes mapped for writing, valid only during the call. The
    /// buffer is made writable first (a buffer someone else shares is copied, and memory
    /// shared with another buffer is copied when mapped), so no other owner sees the change.
    /// Nil when the buffer cannot be mapped.
    public func withMutableBytes<Result>(_ body: (UnsafeMutableRawBufferPointer) throws -> Result) rethrows -> Result? {
        makeWritable()
        var map = GstMapInfo()
        guard gst_buffer_map(bufferPointer, &map, GST_MAP_WRITE) != 0 else { return nil }
        defer { gst_buffer_unmap(bufferPointer, &map) }
        return try body(UnsafeMutableRawBufferPointer(start: map.data, count: Int(map.size)))
    }

    /// Copies the metadata when another owner shares this buffer, so setters never
    /// change a buffer someone else sees.
    private func makeWritable() {
        let object = UnsafeMutableRawPointer(bufferPointer).assumingMemoryBound(to: GstMiniObject.self)
        guard gst_mini_object_is_writable(object) == 0 else { return }
        // make_writable consumes our reference and returns one to a writable copy.
        guard let writable = gst_mini_object_make_writable(object) else { return }
        bufferPointer = UnsafeMutableRawPointer(writable).assumingMemoryBound(to: GstBuffer.self)
    }

    private static func time(_ value: GstClockTime) -> UInt64? {
        value == GstClockTime(UInt64.max) ? nil : UInt64(value)
    }

    private static func clockTime(_ value: UInt64?) -> GstClockTime {
        GstClockTime(value ?? UInt64.max)
    }
}

extension Sample {
    /// The sample's buffer (borrowed by the sample; the wrapper takes its own reference).
    public var buffer: Buffer? {
        gst_sample_get_buffer(samplePointer).map { Buffer($0, transfer: .none) }
    }
}

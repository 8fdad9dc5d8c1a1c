import CGStreamer
import CGStreamerShim

/// Timing and flags of a buffer (copied out: safe to keep).
public struct BufferTiming: Sendable, Equatable {
    /// Presentation time in nanoseconds, when set.
    public var pts: UInt64?
    /// Decoding time in nanoseconds, when set.
    public var dts: UInt64?
    /// Duration in nanoseconds, when set.
    public var duration: UInt64?
    /// Whether the buffer can be decoded on its own (no DELTA_UNIT flag).
    public var isKeyframe: Bool
    /// Size in bytes.
    public var size: Int

    /// Timing read elsewhere than from a buffer (a container's own index).
    public init(pts: UInt64?, dts: UInt64?, duration: UInt64?, isKeyframe: Bool, size: Int) {
        self.pts = pts
        self.dts = dts
        self.duration = duration
        self.isKeyframe = isKeyframe
        self.size = size
    }

    init(_ buffer: UnsafeMutablePointer<GstBuffer>) {
        pts = BufferView.time(camrec_buffer_pts(buffer))
        dts = BufferView.time(camrec_buffer_dts(buffer))
        duration = BufferView.time(camrec_buffer_duration(buffer))
        isKeyframe = camrec_buffer_is_delta(buffer) == 0
        size = Int(gst_buffer_get_size(buffer))
    }
}

/// A buffer we do not own: a borrowed view of the buffer a pad probe sees, valid only
/// during the callback that received it. It takes no reference (nothing is counted per
/// buffer); never keep it or hand it to another thread. To keep the buffer take a `Buffer`
/// with `retained()`; to change it, a `WritableBuffer` with `writableCopy()`.
public struct BufferView {
    /// The borrowed buffer.
    public let bufferPointer: UnsafeMutablePointer<GstBuffer>

    /// Views a buffer someone else keeps alive for as long as the view is used.
    public init(borrowing pointer: UnsafeMutablePointer<GstBuffer>) {
        bufferPointer = pointer
    }

    /// Presentation time in nanoseconds (nil: none).
    public var pts: UInt64? { Self.time(camrec_buffer_pts(bufferPointer)) }
    /// Decoding time in nanoseconds (nil: none).
    public var dts: UInt64? { Self.time(camrec_buffer_dts(bufferPointer)) }
    /// Duration in nanoseconds (nil: unknown).
    public var duration: UInt64? { Self.time(camrec_buffer_duration(bufferPointer)) }
    /// Whether the buffer can be decoded on its own (the DELTA_UNIT flag is clear).
    public var isKeyframe: Bool { camrec_buffer_is_delta(bufferPointer) == 0 }
    /// Size in bytes.
    public var size: Int { Int(gst_buffer_get_size(bufferPointer)) }
    /// The media offsets: for raw sound from a source, the first sample frame's number and
    /// the one after the last (nil when either is unset).
    public var offsets: Range<UInt64>? {
        let start = UInt64(bufferPointer.pointee.offset), end = UInt64(bufferPointer.pointee.offset_end)
        guard start != UInt64.max, end != UInt64.max, end >= start else { return nil }
        return start..<end
    }
    /// Whether data was lost before this buffer (the DISCONT flag).
    public var isDiscontinuous: Bool {
        bufferPointer.pointee.mini_object.flags & GST_BUFFER_FLAG_DISCONT.rawValue != 0
    }
    /// Timing, flags and size, copied out.
    public var timing: BufferTiming { BufferTiming(bufferPointer) }
    /// The reference count, which the view does not change (for ownership tests; racy by nature).
    public var referenceCount: Int { Int(camrec_miniobject_refcount(bufferPointer)) }

    /// Calls `body` with the bytes mapped for reading; the bytes are valid only during the
    /// call. Nil when the buffer cannot be mapped.
    public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result? {
        var map = GstMapInfo()
        guard gst_buffer_map(bufferPointer, &map, GST_MAP_READ) != 0 else { return nil }
        defer { gst_buffer_unmap(bufferPointer, &map) }
        return try body(UnsafeRawBufferPointer(start: map.data, count: Int(map.size)))
    }

    /// An owned reference to this same buffer (one reference taken), to keep or read later;
    /// a `Buffer` never changes, so the pipeline's buffer never changes through it.
    public func retained() -> Buffer {
        Buffer(bufferPointer, transfer: .none)
    }

    /// An owned copy that may be changed (timestamps, flags, bytes): the metadata is copied
    /// now, the memory is shared until the bytes are written. Nil only when GStreamer cannot
    /// allocate. Return it as `.replace(copy.finished())` from a probe to send it on instead.
    public func writableCopy() -> WritableBuffer? {
        guard let copy = gst_buffer_copy(bufferPointer) else { return nil }
        return WritableBuffer(owning: copy)
    }

    /// A copy with memory of its own (the bytes copied, timestamps, flags and metadata
    /// kept): the original's memory, e.g. a camera driver's buffer, can go back at once.
    public func deepCopy() -> Buffer? {
        gst_buffer_copy_deep(bufferPointer).map { Buffer($0, transfer: .full) }
    }

    static func time(_ value: GstClockTime) -> UInt64? {
        value == GstClockTime(UInt64.max) ? nil : UInt64(value)
    }
}

import CGStreamer
import CGStreamerShim

/// A buffer being made: its timings, flags and bytes can be set, because it holds the one
/// reference to its `GstBuffer` (a new buffer, or a copy of another's metadata). It cannot
/// be copied and is not `Sendable`, so only one owner on one thread ever writes to it;
/// `finished()` hands it over as a ``Buffer``, which never changes.
public struct WritableBuffer: ~Copyable {
    /// The buffer, writable: its one reference is ours.
    private let pointer: UnsafeMutablePointer<GstBuffer>

    /// Takes over a buffer whose one reference the caller hands over (a new buffer, a
    /// copy): writable, or nil.
    init?(owning pointer: UnsafeMutablePointer<GstBuffer>) {
        let object = UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstMiniObject.self)
        guard gst_mini_object_is_writable(object) != 0 else {
            gst_buffer_unref(pointer)
            return nil
        }
        self.pointer = pointer
    }

    /// A new buffer holding a copy of `bytes`; nil only when memory cannot be allocated.
    public init?(bytes: [UInt8]) {
        let pointer = bytes.withUnsafeBytes { raw -> UnsafeMutablePointer<GstBuffer>? in
            guard let base = raw.baseAddress else { return gst_buffer_new() }
            return gst_buffer_new_memdup(base, gsize(raw.count))
        }
        guard let pointer else { return nil }
        self.init(owning: pointer)
    }

    deinit { gst_buffer_unref(pointer) }

    /// The buffer, no longer to be written: a `Buffer` that takes over the reference.
    public consuming func finished() -> Buffer {
        Buffer(take(), transfer: .full)
    }

    /// Hands the reference over (transfer full) without releasing it.
    consuming func take() -> UnsafeMutablePointer<GstBuffer> {
        let pointer = self.pointer
        discard self
        return pointer
    }

    /// Presentation time in nanoseconds (nil: none).
    public var pts: UInt64? {
        get { BufferView.time(pointer.pointee.pts) }
        set { pointer.pointee.pts = Self.clockTime(newValue) }
    }

    /// Decoding time in nanoseconds (nil: none).
    public var dts: UInt64? {
        get { BufferView.time(pointer.pointee.dts) }
        set { pointer.pointee.dts = Self.clockTime(newValue) }
    }

    /// Duration in nanoseconds (nil: unknown).
    public var duration: UInt64? {
        get { BufferView.time(pointer.pointee.duration) }
        set { pointer.pointee.duration = Self.clockTime(newValue) }
    }

    /// Whether the buffer can be decoded on its own (the DELTA_UNIT flag is clear).
    public var isKeyframe: Bool {
        get { camrec_buffer_is_delta(pointer) == 0 }
        set {
            if newValue {
                _ = gst_buffer_unset_flags(pointer, GST_BUFFER_FLAG_DELTA_UNIT)
            } else {
                _ = gst_buffer_set_flags(pointer, GST_BUFFER_FLAG_DELTA_UNIT)
            }
        }
    }

    /// Size in bytes.
    public var size: Int { Int(gst_buffer_get_size(pointer)) }

    /// Calls `body` with the bytes mapped for writing, valid only during the call. Memory
    /// this buffer shares with another (a copy's) is copied when mapped, so no other buffer
    /// sees the change. Nil when the buffer cannot be mapped.
    public mutating func withMutableBytes<Result>(_ body: (UnsafeMutableRawBufferPointer) throws -> Result) rethrows -> Result? {
        var map = GstMapInfo()
        guard gst_buffer_map(pointer, &map, GST_MAP_WRITE) != 0 else { return nil }
        defer { gst_buffer_unmap(pointer, &map) }
        return try body(UnsafeMutableRawBufferPointer(start: map.data, count: Int(map.size)))
    }

    private static func clockTime(_ value: UInt64?) -> GstClockTime {
        GstClockTime(value ?? UInt64.max)
    }
}

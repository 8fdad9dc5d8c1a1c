import CGStreamer
import CGStreamerShim

/// A `GstBuffer` (a mini object) we hold one reference to: compressed frames read from an
/// `AppSink` and pushed into an `AppSrc`. It never changes, so it may be shared between
/// threads: timings, flags and bytes are set on a ``WritableBuffer`` (`edited(_:)`, or
/// ``WritableBuffer/init(bytes:)`` for a new one), which hands back a new `Buffer`.
///
/// `@unchecked Sendable`: it holds a pointer (never Sendable to the compiler) that no
/// method changes, and it writes nothing through it; GStreamer writes only to buffers it
/// holds the one reference to, and this wrapper holds one of its own.
public final class Buffer: @unchecked Sendable {
    /// The wrapped buffer.
    public let bufferPointer: UnsafeMutablePointer<GstBuffer>

    /// Wraps a buffer with the given transfer (`.floating` is treated as `.full`: buffers never float).
    public init(_ pointer: UnsafeMutablePointer<GstBuffer>, transfer: Transfer) {
        bufferPointer = pointer
        if transfer == .none { _ = gst_buffer_ref(pointer) }
    }

    /// A new buffer holding a copy of `bytes`, without timings; nil only when memory cannot
    /// be allocated. To give it timings, build a ``WritableBuffer`` instead.
    public convenience init?(bytes: [UInt8]) {
        guard let writable = WritableBuffer(bytes: bytes) else { return nil }
        self.init(writable.take(), transfer: .full)
    }

    deinit { gst_buffer_unref(bufferPointer) }

    /// The reference count (for ownership tests; racy by nature).
    public var referenceCount: Int { Int(camrec_miniobject_refcount(bufferPointer)) }

    /// Hands a new reference over to a call that takes ownership (transfer full).
    func retainedPointer() -> UnsafeMutablePointer<GstBuffer> {
        gst_buffer_ref(bufferPointer)
    }

    /// A borrowed view of the buffer, valid while this wrapper lives.
    public var view: BufferView { BufferView(borrowing: bufferPointer) }

    /// Timing, flags and size.
    public var timing: BufferTiming { BufferTiming(bufferPointer) }

    /// Presentation time in nanoseconds (nil: none).
    public var pts: UInt64? { BufferView.time(bufferPointer.pointee.pts) }

    /// Decoding time in nanoseconds (nil: none).
    public var dts: UInt64? { BufferView.time(bufferPointer.pointee.dts) }

    /// Duration in nanoseconds (nil: unknown).
    public var duration: UInt64? { BufferView.time(bufferPointer.pointee.duration) }

    /// Whether the buffer can be decoded on its own (the DELTA_UNIT flag is clear).
    public var isKeyframe: Bool { timing.isKeyframe }

    /// Size in bytes.
    public var size: Int { Int(gst_buffer_get_size(bufferPointer)) }

    /// Calls `body` with the bytes mapped for reading; valid only during the call.
    public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result? {
        try view.withBytes(body)
    }

    /// A copy of the bytes.
    public var bytes: [UInt8] { withBytes { Array($0) } ?? [] }

    /// This buffer changed by `body`, as a new buffer: `body` gets a copy of the metadata
    /// (timings, flags) sharing this buffer's memory, which is copied only if `body` writes
    /// the bytes. This buffer stays as it was. Nil only when GStreamer cannot make the copy.
    public func edited(_ body: (inout WritableBuffer) throws -> Void) rethrows -> Buffer? {
        guard var writable = view.writableCopy() else { return nil }
        try body(&writable)
        return writable.finished()
    }

    /// A new buffer of `bytes` with this one's timings and keyframe flag; nil only when
    /// memory cannot be allocated.
    public func replacingBytes(_ bytes: [UInt8]) -> Buffer? {
        guard var buffer = WritableBuffer(bytes: bytes) else { return nil }
        buffer.pts = pts
        buffer.dts = dts
        buffer.duration = duration
        buffer.isKeyframe = isKeyframe
        return buffer.finished()
    }
}

extension Sample {
    /// The sample's buffer (borrowed by the sample; the wrapper takes its own reference).
    public var buffer: Buffer? {
        gst_sample_get_buffer(samplePointer).map { Buffer($0, transfer: .none) }
    }
}

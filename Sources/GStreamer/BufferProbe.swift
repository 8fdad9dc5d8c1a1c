import CGStreamer

/// Holds a buffer probe's Swift callback for the C side; released once, by the destroy notify.
private final class BufferProbeBox {
    let callback: @Sendable (Buffer) -> ProbeDecision
    init(_ callback: @escaping @Sendable (Buffer) -> ProbeDecision) { self.callback = callback }
}

extension Pad {
    /// Adds a probe that sees each buffer itself (timing, flags and bytes), e.g. to read the
    /// NAL unit types of keyframes. The `Buffer` holds its own reference; it must not be kept
    /// or written to. The callback runs on a streaming thread: keep it short, never block.
    public func addBufferProbe(_ callback: @escaping @Sendable (Buffer) -> ProbeDecision) -> ProbeToken {
        let box = Unmanaged.passRetained(BufferProbeBox(callback)).toOpaque()
        let id = gst_pad_add_probe(
            padPointer, GST_PAD_PROBE_TYPE_BUFFER,
            { _, info, userData in
                guard let info, let userData, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
                let box = Unmanaged<BufferProbeBox>.fromOpaque(userData).takeUnretainedValue()
                let buffer = Buffer(data.assumingMemoryBound(to: GstBuffer.self), transfer: .none)
                return box.callback(buffer).gstValue
            },
            box,
            { userData in
                guard let userData else { return }
                Unmanaged<BufferProbeBox>.fromOpaque(userData).release()
            }
        )
        return ProbeToken(pad: self, id: id)
    }
}

import CGStreamer

/// What cutting raw audio at a sample needs to know of its caps: frames (samples of every
/// channel) per second and the bytes of one frame across its channels.
public struct AudioFormat: Sendable, Equatable {
    /// Frames per second.
    public var rate: Int
    /// Bytes of one frame: a sample's size times the channels (also for planar layouts).
    public var bytesPerFrame: Int

    /// A format given as values (for tests and callers that know it).
    public init(rate: Int, bytesPerFrame: Int) {
        self.rate = rate
        self.bytesPerFrame = bytesPerFrame
    }

    /// The format of raw audio caps (`audio/x-raw` with a fixed format, rate and
    /// channels); nil for any other caps.
    public init?(caps: Caps) {
        var info = GstAudioInfo()
        guard gst_audio_info_from_caps(&info, caps.capsPointer) != 0, info.rate > 0, info.bpf > 0 else { return nil }
        rate = Int(info.rate)
        bytesPerFrame = Int(info.bpf)
    }
}

extension BufferView {
    /// A buffer of raw audio in `format` holding `keep` frames from the `skip`th on (fewer
    /// where the buffer ends sooner; the memory shared, not copied; a planar layout's audio
    /// metadata adjusted), stamped `skip` frames after this one's PTS and lasting the
    /// frames kept. Nil when no frame is left or the buffer has no PTS.
    public func audioFrames(skip: Int, keep: Int, format: AudioFormat) -> Buffer? {
        guard let pts, skip >= 0, format.bytesPerFrame > 0, format.rate > 0 else { return nil }
        let keep = min(keep, size / format.bytesPerFrame - skip)
        guard keep > 0 else { return nil }
        // gst_audio_buffer_truncate takes a reference and makes the buffer writable
        // (copying the metadata while the probe still holds the original).
        guard let cut = gst_audio_buffer_truncate(gst_buffer_ref(bufferPointer), gint(format.bytesPerFrame), gsize(skip), gsize(keep))
        else { return nil }
        guard var buffer = WritableBuffer(owning: cut) else { return nil }
        let second: UInt64 = 1_000_000_000
        buffer.pts = pts + UInt64(skip) * second / UInt64(format.rate)
        buffer.duration = UInt64(keep) * second / UInt64(format.rate)
        return buffer.finished()
    }
}

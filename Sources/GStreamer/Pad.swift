import CGStreamer

/// A `GstPad` we hold one reference to.
public final class Pad: Object, @unchecked Sendable {
    /// The wrapped pad.
    public var padPointer: UnsafeMutablePointer<GstPad> {
        UnsafeMutableRawPointer(objectPointer).assumingMemoryBound(to: GstPad.self)
    }

    /// Wraps a pad pointer with the given transfer.
    public init(_ pointer: UnsafeMutablePointer<GstPad>, transfer: Transfer) {
        super.init(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstObject.self), transfer: transfer)
    }

    /// The negotiated caps, once data has flowed (transfer full).
    public var currentCaps: Caps? {
        gst_pad_get_current_caps(padPointer).map { Caps($0, transfer: .full) }
    }

    /// Links this (source) pad to `sink`.
    public func link(_ sink: Pad) throws(GStreamerError) {
        let result = gst_pad_link(padPointer, sink.padPointer)
        guard result == GST_PAD_LINK_OK else {
            throw .parse("cannot link pad \(name) to \(sink.name) (\(result.rawValue))")
        }
    }

}

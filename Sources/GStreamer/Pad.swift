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

    /// Nanoseconds added to the running time of everything that leaves (or enters) this
    /// pad: downstream, its data is that much later. Buffer timestamps stay as they are.
    public var offset: Int64 {
        get { Int64(gst_pad_get_offset(padPointer)) }
        set { gst_pad_set_offset(padPointer, gint64(newValue)) }
    }

    /// Links this (source) pad to `sink`; throws `.link` with GStreamer's reason.
    public func link(_ sink: Pad) throws(GStreamerError) {
        let result = gst_pad_link(padPointer, sink.padPointer)
        guard result == GST_PAD_LINK_OK else {
            throw .link(source: fullName, sink: sink.fullName, reason: Pad.describe(result))
        }
    }

    /// "element:pad", as GStreamer's logs name pads ("pad" alone when it has no parent).
    public var fullName: String {
        guard let parent = gst_object_get_parent(objectPointer) else { return name }
        defer { gst_object_unref(UnsafeMutableRawPointer(parent)) }
        guard let parentName = gst_object_get_name(parent) else { return name }
        defer { g_free(parentName) }
        return "\(String(cString: parentName)):\(name)"
    }

    private static func describe(_ result: GstPadLinkReturn) -> String {
        switch result {
        case GST_PAD_LINK_WRONG_HIERARCHY: "the pads have no common parent"
        case GST_PAD_LINK_WAS_LINKED: "a pad is already linked"
        case GST_PAD_LINK_WRONG_DIRECTION: "the pads' directions do not fit"
        case GST_PAD_LINK_NOFORMAT: "the pads have no common format"
        case GST_PAD_LINK_NOSCHED: "the pads cannot work in the same scheduling mode"
        default: "refused (\(result.rawValue))"
        }
    }

}

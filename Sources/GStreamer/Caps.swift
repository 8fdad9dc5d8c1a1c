import CGStreamer
import CGStreamerShim

/// A `GstCaps` (a mini object) we hold one reference to.
public final class Caps: @unchecked Sendable, CustomStringConvertible {
    /// The wrapped caps; valid while this wrapper lives.
    public let capsPointer: UnsafeMutablePointer<GstCaps>

    /// Wraps caps with the given transfer (`.floating` is treated as `.full`: caps never float).
    public init(_ pointer: UnsafeMutablePointer<GstCaps>, transfer: Transfer) {
        capsPointer = pointer
        if transfer == .none { gst_mini_object_ref(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstMiniObject.self)) }
    }

    /// Parses caps text such as "video/x-raw,format=I420,width=640,height=480".
    public convenience init(_ text: String) throws(GStreamerError) {
        try Runtime.initialize()
        guard let pointer = gst_caps_from_string(text) else { throw .invalidCaps(text) }
        self.init(pointer, transfer: .full)
    }

    deinit {
        gst_mini_object_unref(UnsafeMutableRawPointer(capsPointer).assumingMemoryBound(to: GstMiniObject.self))
    }

    /// The reference count (for ownership tests).
    public var referenceCount: Int { Int(camrec_miniobject_refcount(capsPointer)) }

    /// The caps in GStreamer's text form.
    public var description: String {
        guard let text = gst_caps_to_string(capsPointer) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// The media type of the first structure, e.g. "video/x-raw".
    public var mediaType: String? {
        guard gst_caps_get_size(capsPointer) > 0, let structure = gst_caps_get_structure(capsPointer, 0),
              let name = gst_structure_get_name(structure)
        else { return nil }
        return String(cString: name)
    }

    /// An integer field of the first structure (e.g. "width").
    public func int(_ field: String) -> Int? {
        guard gst_caps_get_size(capsPointer) > 0, let structure = gst_caps_get_structure(capsPointer, 0) else { return nil }
        var value: gint = 0
        return gst_structure_get_int(structure, field, &value) != 0 ? Int(value) : nil
    }

    /// A string field of the first structure (e.g. "format").
    public func string(_ field: String) -> String? {
        guard gst_caps_get_size(capsPointer) > 0, let structure = gst_caps_get_structure(capsPointer, 0),
              let text = gst_structure_get_string(structure, field)
        else { return nil }
        return String(cString: text)
    }

    /// A fraction field of the first structure (e.g. "framerate") as numerator and denominator.
    public func fraction(_ field: String) -> (numerator: Int, denominator: Int)? {
        guard gst_caps_get_size(capsPointer) > 0, let structure = gst_caps_get_structure(capsPointer, 0) else { return nil }
        var numerator: gint = 0
        var denominator: gint = 0
        guard gst_structure_get_fraction(structure, field, &numerator, &denominator) != 0 else { return nil }
        return (Int(numerator), Int(denominator))
    }
}

import CGStreamer

/// A `GstStructure` we own: a name and typed fields, as in "properties,fragment-duration=1000"
/// (the value of properties such as splitmuxsink's `muxer-properties`). Freed in `deinit`;
/// setting it as a property copies it.
public final class Structure: @unchecked Sendable, CustomStringConvertible {
    /// The wrapped structure; valid while this wrapper lives. Never changed after creation,
    /// which is why the wrapper may cross threads.
    public let structurePointer: UnsafeMutablePointer<GstStructure>

    /// Parses structure text such as "properties,fragment-duration=1000".
    public init(_ text: String) throws(GStreamerError) {
        try Runtime.initialize()
        guard let pointer = gst_structure_from_string(text, nil) else { throw .invalidStructure(text) }
        structurePointer = pointer
    }

    deinit { gst_structure_free(structurePointer) }

    /// The structure's name, e.g. "properties".
    public var name: String { String(cString: gst_structure_get_name(structurePointer)) }

    /// The structure in GStreamer's text form.
    public var description: String {
        guard let text = gst_structure_to_string(structurePointer) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }
}

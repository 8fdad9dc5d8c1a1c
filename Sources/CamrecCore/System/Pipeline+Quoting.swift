import GStreamer

extension Pipeline {
    /// Escapes `"` and `\` for a double-quoted gst_parse_launch value.
    package static func escapeForParser(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
    }
}

import GStreamer

/// The GStreamer library camrec runs with, for `camrec --version` and `camrec doctor`.
public enum GStreamerVersion {
    /// "1.22.0" (the library's own "GStreamer 1.22.0" without the name), as loaded at run time.
    public static var running: String {
        let text = Runtime.version
        let prefix = "GStreamer "
        return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
    }
}

import CGStreamer

/// GStreamer's process-wide initialisation.
public enum Runtime {
    private static let initialization: Result<Void, GStreamerError> = {
        var error: UnsafeMutablePointer<GError>?
        if gst_init_check(nil, nil, &error) == 0 {
            let text = error.map { String(cString: $0.pointee.message) } ?? "unknown reason"
            if let error { g_error_free(error) }
            return .failure(.initialization(text))
        }
        return .success(())
    }()

    /// Initialises GStreamer once; later calls return the first call's outcome. (An
    /// application's own built-in elements are registered by the application after this.)
    public static func initialize() throws(GStreamerError) {
        try initialization.get()
    }

    /// The GStreamer library version, e.g. "1.22.0".
    public static var version: String {
        guard let text = gst_version_string() else { return "unknown" }
        defer { g_free(text) }
        return String(cString: text)
    }

}

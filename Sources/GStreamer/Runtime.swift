import CGStreamer
import CamrecElements

/// GStreamer's process-wide initialisation.
public enum Runtime {
    private static let initialization: Result<Void, GStreamerError> = {
        var error: UnsafeMutablePointer<GError>?
        if gst_init_check(nil, nil, &error) == 0 {
            let text = error.map { String(cString: $0.pointee.message) } ?? "unknown reason"
            if let error { g_error_free(error) }
            return .failure(.initialization(text))
        }
        // camrec's own elements (camrecflip), built in: available to every pipeline from here on.
        if camrec_elements_register() == 0 {
            return .failure(.initialization("camrec's own elements (camrecflip) could not be registered"))
        }
        return .success(())
    }()

    /// Initialises GStreamer once and registers camrec's own elements (`camrecflip`); later
    /// calls return the first call's outcome.
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

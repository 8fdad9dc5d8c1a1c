import CGStreamer
import CGStreamerShim

/// A top-level `GstPipeline`.
public final class Pipeline: Bin, @unchecked Sendable {
    /// An empty pipeline.
    public init(name: String? = nil) throws(GStreamerError) {
        try Runtime.initialize()
        guard let pointer = gst_pipeline_new(name) else { throw .unavailable("a new pipeline") }
        super.init(pointer, transfer: .floating)
    }

    /// Wraps a pipeline someone else holds a reference to (transfer none).
    private init(adopting pointer: UnsafeMutablePointer<GstElement>) {
        super.init(pointer, transfer: .none)
    }

    /// Builds a pipeline from `gst-launch-1.0` syntax. A missing plugin throws
    /// `.missingElement` naming the element.
    public static func parse(_ description: String) throws(GStreamerError) -> Pipeline {
        try Runtime.initialize()
        let context = gst_parse_context_new()
        defer { gst_parse_context_free(context) }
        var error: UnsafeMutablePointer<GError>?
        let pointer = gst_parse_launch_full(description, context, GST_PARSE_FLAG_FATAL_ERRORS, &error)
        if let missing = gst_parse_context_get_missing_elements(context) {
            defer { g_strfreev(missing) }
            if let first = missing.pointee {
                if let error { g_error_free(error) }
                if let pointer { gst_object_unref(UnsafeMutableRawPointer(pointer)) }
                let factory = String(cString: first)
                throw .missingElement(factory, hint: GStreamerError.lookHint(for: factory))
            }
        }
        if let error {
            let message = String(cString: error.pointee.message)
            g_error_free(error)
            if let pointer { gst_object_unref(UnsafeMutableRawPointer(pointer)) }
            throw .parse(message)
        }
        guard let pointer else { throw .parse("empty pipeline") }
        // A description of one element yields that element, not a pipeline: wrap it in one.
        let element = Element(pointer, transfer: .floating)
        if !element.isInstance(of: gst_pipeline_get_type()) {
            let pipeline = try Pipeline()
            try pipeline.add(element)
            return pipeline
        }
        // `element` has sunk the floating reference: the pipeline wrapper takes its own.
        return Pipeline(adopting: element.elementPointer)
    }
}

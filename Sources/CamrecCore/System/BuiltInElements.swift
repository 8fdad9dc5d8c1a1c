import CamrecElements
import GStreamer

/// camrec's own GStreamer elements (`camrecflip`, Sources/CamrecElements), built into camrec
/// and registered with GStreamer once, right after its initialisation. The bindings know
/// nothing of them: every pipeline camrec builds that may name one is parsed through
/// ``GStreamer/Pipeline/withBuiltIns(_:)``.
enum BuiltInElements {
    private static let registration: Result<Void, GStreamerError> = {
        do throws(GStreamerError) {
            try Runtime.initialize()
        } catch {
            return .failure(error)
        }
        guard camrec_elements_register() != 0 else {
            return .failure(.initialization("camrec's own elements (camrecflip) could not be registered"))
        }
        return .success(())
    }()

    /// Initialises GStreamer and registers camrec's elements, once; later calls return the
    /// first call's outcome.
    static func register() throws(GStreamerError) {
        try registration.get()
    }
}

extension Pipeline {
    /// ``parse(_:)`` with camrec's own elements registered first.
    package static func withBuiltIns(_ description: String) throws(GStreamerError) -> Pipeline {
        try BuiltInElements.register()
        return try parse(description)
    }
}

import CGStreamer
import CGStreamerShim

/// Owner of one reference to a `GstObject`; the reference is dropped when the wrapper goes.
///
/// `GstObject` reference counting is atomic and the GStreamer calls wrapped here are
/// thread-safe, which is why wrappers may cross threads.
public class Object: @unchecked Sendable {
    /// The wrapped object; valid while this wrapper lives.
    public let objectPointer: UnsafeMutablePointer<GstObject>

    /// Wraps `pointer`, taking ownership as `transfer` says.
    public init(_ pointer: UnsafeMutablePointer<GstObject>, transfer: Transfer) {
        objectPointer = pointer
        switch transfer {
        case .floating: gst_object_ref_sink(UnsafeMutableRawPointer(pointer))
        case .full: break
        case .none: gst_object_ref(UnsafeMutableRawPointer(pointer))
        }
    }

    deinit {
        gst_object_unref(UnsafeMutableRawPointer(objectPointer))
    }

    /// The object's name.
    public var name: String {
        guard let text = gst_object_get_name(objectPointer) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// The current reference count (for tests of ownership; racy by nature).
    public var referenceCount: Int { Int(camrec_object_refcount(objectPointer)) }

    /// Whether the reference is still floating (never, for a wrapper built with `.floating`).
    public var isFloating: Bool { camrec_object_is_floating(objectPointer) != 0 }

    /// The GType name, e.g. "GstPipeline".
    public var typeName: String { String(cString: camrec_object_type_name(objectPointer)) }

    /// Whether the object is an instance of `type` or of a type derived from it (GObject's
    /// `G_TYPE_CHECK_INSTANCE_TYPE`), e.g. `isInstance(of: gst_app_sink_get_type())`.
    public func isInstance(of type: GType) -> Bool {
        camrec_instance_is_a(UnsafeMutableRawPointer(objectPointer), type) != 0
    }

    /// Throws `.wrongType` unless the object is an instance of `type` (or derives from it):
    /// the check behind the wrappers of one kind of object (`AppSink(element)`).
    func requireType(_ type: GType) throws(GStreamerError) {
        guard isInstance(of: type) else {
            let expected = g_type_name(type).map { String(cString: $0) } ?? "type \(type)"
            throw .wrongType(object: name, expected: expected, actual: typeName)
        }
    }
}

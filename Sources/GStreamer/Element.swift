import CGStreamer
import CGStreamerShim

/// A `GstElement` we hold one reference to.
public class Element: Object, @unchecked Sendable {
    /// The wrapped element.
    public var elementPointer: UnsafeMutablePointer<GstElement> {
        UnsafeMutableRawPointer(objectPointer).assumingMemoryBound(to: GstElement.self)
    }

    /// Wraps an element pointer with the given transfer.
    public init(_ pointer: UnsafeMutablePointer<GstElement>, transfer: Transfer) {
        super.init(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstObject.self), transfer: transfer)
    }

    /// Creates an element from a factory, e.g. `Element.make("x264enc", name: "encoder")`.
    public static func make(_ factory: String, name: String? = nil) throws(GStreamerError) -> Element {
        try Runtime.initialize()
        guard let pointer = gst_element_factory_make(factory, name) else {
            throw .missingElement(factory, hint: GStreamerError.lookHint(for: factory))
        }
        return Element(pointer, transfer: .floating)
    }

    /// The factory name, e.g. "v4l2src".
    public var factoryName: String {
        guard let factory = gst_element_get_factory(elementPointer),
              let name = gst_object_get_name(UnsafeMutableRawPointer(factory).assumingMemoryBound(to: GstObject.self))
        else { return "" }
        defer { g_free(name) }
        return String(cString: name)
    }

    /// One of the element's always-present pads (transfer full, released by the `Pad`).
    public func staticPad(_ name: String) throws(GStreamerError) -> Pad {
        guard let pad = gst_element_get_static_pad(elementPointer, name) else {
            throw .noSuchPad(element: self.name, pad: name)
        }
        return Pad(pad, transfer: .full)
    }

    /// Changes state. Asynchronous changes return at once. A failure throws `.stateChange`;
    /// the error an element posted about it (which names the element and the cause) stays
    /// on the bus, with every other message, for the bus's reader.
    @discardableResult
    public func setState(_ state: State) throws(GStreamerError) -> StateChange {
        let result = gst_element_set_state(elementPointer, state.gstState)
        switch result {
        case GST_STATE_CHANGE_FAILURE:
            throw .stateChange(element: name, to: state)
        case GST_STATE_CHANGE_ASYNC: return .async
        case GST_STATE_CHANGE_NO_PREROLL: return .noPreroll
        default: return .success
        }
    }

    /// Sends an event to the element (transfer full of the event). Returns whether it was handled.
    @discardableResult
    public func send(_ event: Event) -> Bool {
        guard let pointer = event.take() else { return false }
        return gst_element_send_event(elementPointer, pointer) != 0
    }

    /// Links this element's source to `next`'s sink, letting GStreamer pick pads.
    public func link(_ next: Element) throws(GStreamerError) {
        guard gst_element_link(elementPointer, next.elementPointer) != 0 else {
            throw .link(source: name, sink: next.name, reason: "no pads with compatible caps")
        }
    }

    /// Posts an application message from this element on its bus (thread-safe).
    @discardableResult
    public func postApplicationMessage(_ name: String) -> Bool {
        guard let structure = gst_structure_new_empty(name),
              let message = gst_message_new_application(objectPointer, structure)
        else { return false }
        return gst_element_post_message(elementPointer, message) != 0
    }

    /// The element's bus, when it is in a pipeline (transfer full).
    public var bus: Bus? {
        gst_element_get_bus(elementPointer).map { Bus($0, transfer: .full) }
    }

    /// The current stream time in nanoseconds, when known.
    public func position() -> UInt64? {
        var position: gint64 = 0
        guard gst_element_query_position(elementPointer, GST_FORMAT_TIME, &position) != 0, position >= 0 else {
            return nil
        }
        return UInt64(position)
    }
}

/// How a state change went.
public enum StateChange: Sendable, Equatable {
    /// The element is in the new state.
    case success
    /// The change goes on in the background (e.g. a sink prerolling).
    case async
    /// A live source: it is in the new state but cannot preroll in PAUSED.
    case noPreroll
}

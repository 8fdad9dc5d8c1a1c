import CGStreamer
import CGStreamerShim

/// A bus message, parsed once into Swift values (C strings are copied and freed here; the
/// source object is kept by reference, see `MessageSource`).
public enum Message: Sendable, Equatable {
    /// The whole pipeline reached end of stream.
    case endOfStream
    /// An element failed; the pipeline cannot go on.
    case error(ElementFailure)
    /// An element reports a problem it can live with.
    case warning(ElementFailure)
    /// An element changed state.
    case stateChanged(source: MessageSource, old: State, new: State)
    /// Quality of service: an element dropped or lost buffers (`dropped` counts them when known).
    case qos(source: MessageSource, dropped: UInt64)
    /// A message posted by our own code with `Element.postApplicationMessage`.
    case application(source: MessageSource, name: String)
    /// An element-specific message (e.g. from splitmuxsink), by structure name, with its
    /// simple fields.
    case element(source: MessageSource, name: String, fields: MessageFields)
    /// Any other message, by type name.
    case other(source: MessageSource, type: String)

    /// Parses a message we borrow (the caller keeps and releases it).
    public init(parsing message: UnsafeMutablePointer<GstMessage>) {
        let source = Message.source(message)
        switch camrec_message_type(message) {
        case GST_MESSAGE_EOS:
            self = .endOfStream
        case GST_MESSAGE_ERROR:
            self = .error(Message.failure(message, isError: true, source: source))
        case GST_MESSAGE_WARNING:
            self = .warning(Message.failure(message, isError: false, source: source))
        case GST_MESSAGE_STATE_CHANGED:
            var old = GST_STATE_VOID_PENDING
            var new = GST_STATE_VOID_PENDING
            var pending = GST_STATE_VOID_PENDING
            gst_message_parse_state_changed(message, &old, &new, &pending)
            self = .stateChanged(source: source, old: State(old), new: State(new))
        case GST_MESSAGE_QOS:
            var format = GST_FORMAT_UNDEFINED
            var processed: guint64 = 0
            var dropped: guint64 = 0
            gst_message_parse_qos_stats(message, &format, &processed, &dropped)
            self = .qos(source: source, dropped: format == GST_FORMAT_BUFFERS || format == GST_FORMAT_DEFAULT ? UInt64(dropped) : 0)
        case GST_MESSAGE_APPLICATION:
            self = .application(source: source, name: Message.structureName(message))
        case GST_MESSAGE_ELEMENT:
            self = .element(source: source, name: Message.structureName(message),
                            fields: MessageFields(copying: gst_message_get_structure(message)))
        default:
            let type = camrec_message_type(message)
            let name = gst_message_type_get_name(type).map { String(cString: $0) } ?? "unknown"
            self = .other(source: source, type: name)
        }
    }

    /// The message's source (borrowed from the message): the wrapper takes its own reference.
    private static func source(_ message: UnsafeMutablePointer<GstMessage>) -> MessageSource {
        guard let pointer = camrec_message_source(message) else { return MessageSource(name: "") }
        let object = Object(pointer, transfer: .none)
        return MessageSource(name: object.name, object: object)
    }

    private static func structureName(_ message: UnsafeMutablePointer<GstMessage>) -> String {
        guard let structure = gst_message_get_structure(message), let name = gst_structure_get_name(structure) else {
            return ""
        }
        return String(cString: name)
    }

    private static func failure(_ message: UnsafeMutablePointer<GstMessage>, isError: Bool, source: MessageSource) -> ElementFailure {
        var domain: UnsafePointer<CChar>?
        var code: Int32 = 0
        var text: UnsafeMutablePointer<CChar>?
        var debug: UnsafeMutablePointer<CChar>?
        camrec_message_parse_failure(message, isError ? 1 : 0, &domain, &code, &text, &debug)
        defer {
            g_free(text)
            g_free(debug)
        }
        return ElementFailure(
            source: source,
            domain: domain.map { String(cString: $0) } ?? "",
            code: Int(code),
            message: text.map { String(cString: $0) } ?? "",
            debug: debug.map { String(cString: $0) } ?? ""
        )
    }
}

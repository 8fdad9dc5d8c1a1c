import CGStreamer
import CGStreamerShim

/// A connected signal handler; `disconnect()` (or dropping the last reference) removes it,
/// and GLib then releases the handler (at once, or when an emission in progress returns).
public final class SignalToken: Sendable {
    private let removal: OnceAction

    /// A handler `id` on `object`; `then` runs after the disconnection (undoing what the
    /// connection needed, such as sync-message emission on a bus).
    init(object: Object, id: gulong, then: (@Sendable () -> Void)? = nil) {
        // The closure keeps the object alive until the handler is disconnected.
        removal = OnceAction { [object] in
            if id != 0 { g_signal_handler_disconnect(UnsafeMutableRawPointer(object.objectPointer), id) }
            then?()
        }
    }

    /// Disconnects the handler; safe to call more than once, from any thread.
    public func disconnect() { removal.run() }

    deinit { disconnect() }
}

/// The arguments of one signal emission: a borrowed view of its values, valid only during
/// the handler. Index 0 is the object that emits the signal, the signal's own arguments
/// follow (for "pad-added": 0 the element, 1 the new pad). Accessors return nil for an
/// index out of range or a value of another type; objects and samples read from it hold
/// references of their own.
public struct SignalArguments {
    private let values: UnsafePointer<GValue>?
    /// How many values there are (the emitter included).
    public let count: Int

    init(_ values: UnsafePointer<GValue>?, count: Int) {
        self.values = values
        self.count = values == nil ? 0 : count
    }

    private func value(_ index: Int) -> UnsafePointer<GValue>? {
        guard let values, index >= 0, index < count else { return nil }
        return values + index
    }

    private func kind(_ index: Int) -> CamrecValueKind? {
        value(index).map { camrec_value_kind($0.pointee.g_type) }
    }

    /// A `GstObject` argument (a reference is taken).
    public func object(_ index: Int) -> Object? {
        guard let value = value(index), kind(index) == CAMREC_VALUE_OBJECT,
              let pointer = g_value_get_object(value),
              camrec_instance_is_a(pointer, gst_object_get_type()) != 0
        else { return nil }
        return Object(pointer.assumingMemoryBound(to: GstObject.self), transfer: .none)
    }

    /// An element argument (a reference is taken).
    public func element(_ index: Int) -> Element? {
        guard let object = object(index), object.isInstance(of: gst_element_get_type()) else { return nil }
        return Element(UnsafeMutableRawPointer(object.objectPointer).assumingMemoryBound(to: GstElement.self),
                       transfer: .none)
    }

    /// A pad argument (a reference is taken).
    public func pad(_ index: Int) -> Pad? {
        guard let object = object(index), object.isInstance(of: gst_pad_get_type()) else { return nil }
        return Pad(UnsafeMutableRawPointer(object.objectPointer).assumingMemoryBound(to: GstPad.self),
                   transfer: .none)
    }

    /// A `GstSample` argument (a reference is taken).
    public func sample(_ index: Int) -> Sample? {
        guard let value = value(index), g_type_is_a(value.pointee.g_type, gst_sample_get_type()) != 0,
              let pointer = g_value_get_boxed(value)
        else { return nil }
        return Sample(OpaquePointer(pointer), transfer: .none)
    }

    /// A `GstMessage` argument, parsed.
    public func message(_ index: Int) -> Message? {
        guard let value = value(index), g_type_is_a(value.pointee.g_type, gst_message_get_type()) != 0,
              let pointer = g_value_get_boxed(value)
        else { return nil }
        return Message(parsing: UnsafeMutableRawPointer(mutating: pointer).assumingMemoryBound(to: GstMessage.self))
    }

    /// An unsigned integer argument (`guint`, `gulong`, `guint64`).
    public func uint(_ index: Int) -> UInt64? {
        guard let value = value(index) else { return nil }
        switch kind(index) {
        case CAMREC_VALUE_UINT: return UInt64(g_value_get_uint(value))
        case CAMREC_VALUE_ULONG: return UInt64(g_value_get_ulong(value))
        case CAMREC_VALUE_UINT64: return UInt64(g_value_get_uint64(value))
        default: return nil
        }
    }

    /// A signed integer argument (`gint`, `glong`, `gint64`).
    public func int(_ index: Int) -> Int64? {
        guard let value = value(index) else { return nil }
        switch kind(index) {
        case CAMREC_VALUE_INT: return Int64(g_value_get_int(value))
        case CAMREC_VALUE_LONG: return Int64(g_value_get_long(value))
        case CAMREC_VALUE_INT64: return Int64(g_value_get_int64(value))
        default: return nil
        }
    }

    /// A boolean argument.
    public func bool(_ index: Int) -> Bool? {
        guard let value = value(index), kind(index) == CAMREC_VALUE_BOOLEAN else { return nil }
        return g_value_get_boolean(value) != 0
    }

    /// A string argument (nil also for a NULL string).
    public func string(_ index: Int) -> String? {
        guard let value = value(index), kind(index) == CAMREC_VALUE_STRING,
              let text = g_value_get_string(value)
        else { return nil }
        return String(cString: text)
    }
}

/// What a handler returns to the signal's emitter. A value of a type the signal does not
/// return is ignored (the emitter gets its default).
public enum SignalReturn: Sendable {
    /// Nothing (signals without a return value, or the default).
    case none
    /// A `gboolean`.
    case bool(Bool)
    /// An integer (`gint`, `guint`, … within range).
    case int(Int)
    /// A string, copied (e.g. splitmuxsink's next file name); nil returns NULL.
    case string(String?)
    /// A `GstFlowReturn` (e.g. appsink's new-sample).
    case flow(FlowResult)

    /// Stores the value into the emission's return value, when the types agree.
    fileprivate func store(in value: UnsafeMutablePointer<GValue>) {
        guard value.pointee.g_type != 0 else { return }
        let kind = camrec_value_kind(value.pointee.g_type)
        switch self {
        case .none: break
        case .bool(let flag): if kind == CAMREC_VALUE_BOOLEAN { g_value_set_boolean(value, flag ? 1 : 0) }
        case .int(let number): _ = PropertyConversion.storeInteger(Int64(number), unsigned: nil, kind: kind, in: &value.pointee)
        case .string(let text): if kind == CAMREC_VALUE_STRING { g_value_set_string(value, text) }
        case .flow(let result):
            if g_type_is_a(value.pointee.g_type, gst_flow_return_get_type()) != 0 {
                g_value_set_enum(value, result.gstValue.rawValue)
            }
        }
    }
}

/// Holds a handler for the C side; released exactly once, by the closure's finalize
/// notifier, when the handler is disconnected or its object finalised.
private final class SignalBox {
    let handler: @Sendable (SignalArguments) -> SignalReturn
    init(_ handler: @escaping @Sendable (SignalArguments) -> SignalReturn) { self.handler = handler }
}

extension Object {
    /// Connects `handler` to `signal` (a detailed name such as "pad-added" or
    /// "sync-message::error"); throws `.signal` when the object has no such signal. The
    /// handler runs on the emitting thread (often a streaming thread): keep it short, never
    /// block, and touch shared state only through a `Mutex`.
    ///
    /// ```swift
    /// let token = try demuxer.connect("pad-added") { arguments in
    ///     if let pad = arguments.pad(1) { link(pad) }
    /// }
    /// ```
    public func connect(
        _ signal: String, after: Bool = false, _ handler: @escaping @Sendable (SignalArguments) -> Void
    ) throws(GStreamerError) -> SignalToken {
        try connectReturning(signal, after: after) { arguments in
            handler(arguments)
            return .none
        }
    }

    /// Connects a handler whose result is the signal's return value (e.g. the file name
    /// splitmuxsink's "format-location-full" asks for); see `connect(_:after:_:)`.
    public func connectReturning(
        _ signal: String, after: Bool = false, _ handler: @escaping @Sendable (SignalArguments) -> SignalReturn
    ) throws(GStreamerError) -> SignalToken {
        var id: guint = 0
        var detail: GQuark = 0
        guard g_signal_parse_name(signal, camrec_type_of(UnsafeMutableRawPointer(objectPointer)), &id, &detail, 1) != 0 else {
            throw .signal(object: name, name: signal)
        }
        return connectClosure(signal, after: after, handler)
    }

    /// Connects without checking the name (for signals every object of its type has);
    /// `then` runs after the handler is disconnected.
    func connectClosure(
        _ signal: String, after: Bool = false, then: (@Sendable () -> Void)? = nil,
        _ handler: @escaping @Sendable (SignalArguments) -> SignalReturn
    ) -> SignalToken {
        let box = Unmanaged.passRetained(SignalBox(handler)).toOpaque()
        let closure = camrec_closure_new(
            { closure, returnValue, count, values, _, _ in
                guard let closure, let data = camrec_closure_data(closure) else { return }
                let box = Unmanaged<SignalBox>.fromOpaque(data).takeUnretainedValue()
                let result = box.handler(SignalArguments(values, count: Int(count)))
                if let returnValue { result.store(in: returnValue) }
            },
            box,
            { data, _ in
                guard let data else { return }
                Unmanaged<SignalBox>.fromOpaque(data).release()
            }
        )
        let id = g_signal_connect_closure(UnsafeMutableRawPointer(objectPointer), signal, closure, after ? 1 : 0)
        // Not connected: the closure is still floating; sinking it finalises it (and the box).
        if id == 0 { g_closure_sink(closure) }
        return SignalToken(object: self, id: id, then: then)
    }
}

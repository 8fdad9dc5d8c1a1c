import CGStreamer
import CGStreamerShim

extension Object {
    /// Reads an unsigned integer property (guint, gulong, guint64), e.g. a queue's
    /// "current-level-buffers"; nil when there is no such readable property of such a type.
    /// Cheap enough for a streaming thread: no text is made.
    public func unsignedProperty(_ property: String) -> UInt64? {
        guard let spec = camrec_find_property(UnsafeMutableRawPointer(objectPointer), property),
              spec.pointee.flags.rawValue & G_PARAM_READABLE.rawValue != 0
        else { return nil }
        let kind = camrec_value_kind(spec.pointee.value_type)
        guard kind == CAMREC_VALUE_UINT || kind == CAMREC_VALUE_ULONG || kind == CAMREC_VALUE_UINT64 else { return nil }
        var value = GValue()
        g_value_init(&value, spec.pointee.value_type)
        defer { g_value_unset(&value) }
        g_object_get_property(UnsafeMutableRawPointer(objectPointer).assumingMemoryBound(to: GObject.self),
                              property, &value)
        switch kind {
        case CAMREC_VALUE_UINT: return UInt64(g_value_get_uint(&value))
        case CAMREC_VALUE_ULONG: return UInt64(g_value_get_ulong(&value))
        default: return UInt64(g_value_get_uint64(&value))
        }
    }
}

extension Object {
    /// Reads a string property (e.g. a pulse device's "internal-name"); nil when there is no
    /// such readable string property or its value is NULL. The C string is copied and freed.
    public func stringProperty(_ property: String) -> String? {
        guard let spec = camrec_find_property(UnsafeMutableRawPointer(objectPointer), property),
              spec.pointee.flags.rawValue & G_PARAM_READABLE.rawValue != 0,
              camrec_value_kind(spec.pointee.value_type) == CAMREC_VALUE_STRING
        else { return nil }
        var value = GValue()
        g_value_init(&value, spec.pointee.value_type)
        defer { g_value_unset(&value) }
        g_object_get_property(UnsafeMutableRawPointer(objectPointer).assumingMemoryBound(to: GObject.self),
                              property, &value)
        return g_value_get_string(&value).map { String(cString: $0) }
    }
}

import CGStreamer
import CGStreamerShim

/// A value to set a property to. It is converted to the property's own GLib type, found
/// from its `GParamSpec`; a value of the wrong kind, out of the property's range, or an
/// unknown nick is reported, never silently ignored or clamped.
public enum PropertyValue: Sendable {
    /// Any integer property (`gint`, `guint`, `glong`, `gulong`, `gint64`, `guint64`), and
    /// `gdouble`/`gfloat` ones when the integer is exact there.
    case int(Int)
    /// An integer property, for values beyond `Int.max`.
    case uint64(UInt64)
    /// A `gboolean` property.
    case bool(Bool)
    /// A `gdouble` or `gfloat` property.
    case double(Double)
    /// A string (`gchararray`) property.
    case string(String)
    /// An enum property by the nick of one of its values (e.g. "time"), or a flags
    /// property by nicks joined with "+" (e.g. "zerolatency+fastdecode"), as gst-launch writes them.
    case nick(String)
    /// A `GstCaps` property (the object takes its own reference).
    case caps(Caps)
    /// A `GstStructure` property (the object gets a copy).
    case structure(Structure)
    /// A `GDateTime` property (e.g. matroskamux's `creation-time`): a moment in UTC, as
    /// microseconds since 1970.
    case dateTime(unixMicroseconds: Int64)
}

extension Object {
    /// Sets a property, converted to its declared type. Throws `.property` naming the
    /// object and the property when there is no such property, it cannot be written, or
    /// the value does not fit (wrong kind, out of range, unknown nick).
    public func set(_ property: String, _ value: PropertyValue) throws(GStreamerError) {
        guard let spec = camrec_find_property(UnsafeMutableRawPointer(objectPointer), property) else {
            throw .property(element: name, name: property, reason: "no such property")
        }
        let flags = spec.pointee.flags.rawValue
        guard flags & G_PARAM_WRITABLE.rawValue != 0 else {
            throw .property(element: name, name: property, reason: "read-only")
        }
        guard flags & G_PARAM_CONSTRUCT_ONLY.rawValue == 0 else {
            throw .property(element: name, name: property, reason: "can only be set when the object is made")
        }
        var gvalue = GValue()
        g_value_init(&gvalue, spec.pointee.value_type)
        defer { g_value_unset(&gvalue) }
        if let reason = PropertyConversion.store(value, in: &gvalue, spec: spec) {
            throw .property(element: name, name: property, reason: reason)
        }
        g_object_set_property(UnsafeMutableRawPointer(objectPointer).assumingMemoryBound(to: GObject.self),
                              property, &gvalue)
    }

    /// Sets an integer property (of any integer type, range-checked).
    public func set(_ property: String, _ value: Int) throws(GStreamerError) { try set(property, .int(value)) }
    /// Sets an integer property with a value that may exceed `Int.max` (e.g. a `guint64` size).
    public func set(_ property: String, _ value: UInt64) throws(GStreamerError) { try set(property, .uint64(value)) }
    /// Sets a boolean property.
    public func set(_ property: String, _ value: Bool) throws(GStreamerError) { try set(property, .bool(value)) }
    /// Sets a floating-point property (range-checked).
    public func set(_ property: String, _ value: Double) throws(GStreamerError) { try set(property, .double(value)) }
    /// Sets a string property (only a string property: enums take `set(_:nick:)`).
    public func set(_ property: String, _ value: String) throws(GStreamerError) { try set(property, .string(value)) }
    /// Sets a caps property (e.g. a capsfilter's "caps").
    public func set(_ property: String, _ value: Caps) throws(GStreamerError) { try set(property, .caps(value)) }
    /// Sets a structure property (e.g. splitmuxsink's "muxer-properties").
    public func set(_ property: String, _ value: Structure) throws(GStreamerError) { try set(property, .structure(value)) }
    /// Sets an enum property by the nick of a value (e.g. `set("format", nick: "time")`), or
    /// a flags property by nicks joined with "+".
    public func set(_ property: String, nick: String) throws(GStreamerError) { try set(property, .nick(nick)) }

    /// Reads a property as text (numbers and booleans as gst-launch writes them).
    public func property(_ property: String) throws(GStreamerError) -> String {
        guard let spec = camrec_find_property(UnsafeMutableRawPointer(objectPointer), property) else {
            throw .property(element: name, name: property, reason: "no such property")
        }
        guard spec.pointee.flags.rawValue & G_PARAM_READABLE.rawValue != 0 else {
            throw .property(element: name, name: property, reason: "write-only")
        }
        var value = GValue()
        g_value_init(&value, spec.pointee.value_type)
        defer { g_value_unset(&value) }
        g_object_get_property(UnsafeMutableRawPointer(objectPointer).assumingMemoryBound(to: GObject.self),
                              property, &value)
        guard let text = gst_value_serialize(&value) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }
}

/// Conversion of a `PropertyValue` into a `GValue` of a property's type.
enum PropertyConversion {
    /// Fills `gvalue` (initialised to the spec's type); returns why it cannot, or nil.
    static func store(
        _ value: PropertyValue, in gvalue: inout GValue, spec: UnsafeMutablePointer<GParamSpec>
    ) -> String? {
        let type = spec.pointee.value_type
        let kind = camrec_value_kind(type)
        let typeName = g_type_name(type).map { String(cString: $0) } ?? "unknown"
        let mismatch = "expects a value of type \(typeName), not \(value.kindDescription)"
        switch value {
        case .bool(let flag):
            guard kind == CAMREC_VALUE_BOOLEAN else { return mismatch }
            g_value_set_boolean(&gvalue, flag ? 1 : 0)
        case .int(let number):
            if kind == CAMREC_VALUE_DOUBLE || kind == CAMREC_VALUE_FLOAT {
                guard let exact = Double(exactly: number) else { return "\(number) is not exact as \(typeName)" }
                return store(.double(exact), in: &gvalue, spec: spec)
            }
            guard storeInteger(Int64(number), unsigned: nil, kind: kind, in: &gvalue) else {
                return isInteger(kind) ? outOfRange(number, spec) : mismatch
            }
        case .uint64(let number):
            guard storeInteger(nil, unsigned: number, kind: kind, in: &gvalue) else {
                return isInteger(kind) ? outOfRange(number, spec) : mismatch
            }
        case .double(let number):
            switch kind {
            case CAMREC_VALUE_DOUBLE: g_value_set_double(&gvalue, number)
            case CAMREC_VALUE_FLOAT:
                guard number.isNaN || abs(number) <= Double(Float.greatestFiniteMagnitude) else {
                    return outOfRange(number, spec)
                }
                g_value_set_float(&gvalue, Float(number))
            default: return mismatch
            }
        case .string(let text):
            guard kind == CAMREC_VALUE_STRING else {
                if kind == CAMREC_VALUE_ENUM || kind == CAMREC_VALUE_FLAGS {
                    return mismatch + " (give a nick: \(nicks(of: type)))"
                }
                return mismatch
            }
            g_value_set_string(&gvalue, text)
        case .nick(let text):
            switch kind {
            case CAMREC_VALUE_ENUM:
                guard let number = enumValue(nick: text, type: type) else {
                    return "'\(text)' is not one of \(nicks(of: type))"
                }
                g_value_set_enum(&gvalue, number)
            case CAMREC_VALUE_FLAGS:
                guard let bits = flagsValue(nicks: text, type: type) else {
                    return "'\(text)' is not made of \(nicks(of: type)) joined with +"
                }
                g_value_set_flags(&gvalue, bits)
            default: return mismatch
            }
        case .caps(let caps):
            guard g_type_is_a(type, gst_caps_get_type()) != 0 else { return mismatch }
            g_value_set_boxed(&gvalue, caps.capsPointer)
        case .structure(let structure):
            guard g_type_is_a(type, gst_structure_get_type()) != 0 else { return mismatch }
            g_value_set_boxed(&gvalue, structure.structurePointer)
        case .dateTime(let microseconds):
            guard g_type_is_a(type, g_date_time_get_type()) != 0 else { return mismatch }
            let seconds = microseconds >= 0 ? microseconds / 1_000_000 : (microseconds - 999_999) / 1_000_000
            guard let whole = g_date_time_new_from_unix_utc(gint64(seconds)) else { return outOfRange(value.text, spec) }
            defer { g_date_time_unref(whole) }
            guard let moment = g_date_time_add(whole, GTimeSpan(microseconds - seconds * 1_000_000)) else {
                return outOfRange(value.text, spec)
            }
            g_value_take_boxed(&gvalue, UnsafeRawPointer(moment))
        }
        // The spec knows its range (and an enum its values): a value it had to change did not fit.
        if g_param_value_validate(spec, &gvalue) != 0 {
            return outOfRange(value.text, spec)
        }
        return nil
    }

    private static func isInteger(_ kind: CamrecValueKind) -> Bool {
        [CAMREC_VALUE_INT, CAMREC_VALUE_UINT, CAMREC_VALUE_LONG, CAMREC_VALUE_ULONG,
         CAMREC_VALUE_INT64, CAMREC_VALUE_UINT64].contains(kind)
    }

    /// Stores a signed or an unsigned number into an integer GValue of `kind`; false when
    /// the kind is no integer or the number does not fit its C type.
    static func storeInteger(
        _ signed: Int64?, unsigned: UInt64?, kind: CamrecValueKind, in gvalue: inout GValue
    ) -> Bool {
        func convert<T: FixedWidthInteger>(_: T.Type) -> T? {
            if let signed { return T(exactly: signed) }
            if let unsigned { return T(exactly: unsigned) }
            return nil
        }
        switch kind {
        case CAMREC_VALUE_INT:
            guard let number = convert(Int32.self) else { return false }
            g_value_set_int(&gvalue, number)
        case CAMREC_VALUE_UINT:
            guard let number = convert(UInt32.self) else { return false }
            g_value_set_uint(&gvalue, number)
        case CAMREC_VALUE_LONG:
            guard let number = convert(Int.self) else { return false }
            g_value_set_long(&gvalue, number)
        case CAMREC_VALUE_ULONG:
            guard let number = convert(UInt.self) else { return false }
            g_value_set_ulong(&gvalue, number)
        case CAMREC_VALUE_INT64:
            guard let number = convert(Int64.self) else { return false }
            g_value_set_int64(&gvalue, gint64(number))
        case CAMREC_VALUE_UINT64:
            guard let number = convert(UInt64.self) else { return false }
            g_value_set_uint64(&gvalue, guint64(number))
        default:
            return false
        }
        return true
    }

    private static func outOfRange(_ value: Any, _ spec: UnsafeMutablePointer<GParamSpec>) -> String {
        guard let range = camrec_param_range(spec) else { return "\(value) is not a valid value" }
        defer { g_free(range) }
        return "\(value) is out of range (\(String(cString: range)))"
    }

    /// The value of the enum `type` whose nick is `nick`.
    private static func enumValue(nick: String, type: GType) -> gint? {
        guard let enumClass = g_type_class_ref(type) else { return nil }
        defer { g_type_class_unref(enumClass) }
        let klass = enumClass.assumingMemoryBound(to: GEnumClass.self)
        return g_enum_get_value_by_nick(klass, nick).map { $0.pointee.value }
    }

    /// The bits of the flags `type` named by nicks joined with "+".
    private static func flagsValue(nicks text: String, type: GType) -> guint? {
        guard let flagsClass = g_type_class_ref(type) else { return nil }
        defer { g_type_class_unref(flagsClass) }
        let klass = flagsClass.assumingMemoryBound(to: GFlagsClass.self)
        var bits: guint = 0
        for nick in text.split(separator: "+", omittingEmptySubsequences: false) {
            guard let value = g_flags_get_value_by_nick(klass, String(nick)) else { return nil }
            bits |= value.pointee.value
        }
        return bits
    }

    /// The nicks of an enum or flags type, for messages: "'a', 'b' or 'c'".
    private static func nicks(of type: GType) -> String {
        guard let typeClass = g_type_class_ref(type) else { return "its values" }
        defer { g_type_class_unref(typeClass) }
        var names: [String] = []
        if camrec_value_kind(type) == CAMREC_VALUE_FLAGS {
            let klass = typeClass.assumingMemoryBound(to: GFlagsClass.self)
            for index in 0..<Int(klass.pointee.n_values) {
                if let nick = klass.pointee.values[index].value_nick { names.append("'\(String(cString: nick))'") }
            }
        } else {
            let klass = typeClass.assumingMemoryBound(to: GEnumClass.self)
            for index in 0..<Int(klass.pointee.n_values) {
                if let nick = klass.pointee.values[index].value_nick { names.append("'\(String(cString: nick))'") }
            }
        }
        guard let last = names.popLast() else { return "its values" }
        return names.isEmpty ? last : names.joined(separator: ", ") + " or " + last
    }
}

extension PropertyValue {
    /// The value as text, for messages.
    var text: String {
        switch self {
        case .int(let number): "\(number)"
        case .uint64(let number): "\(number)"
        case .bool(let flag): "\(flag)"
        case .double(let number): "\(number)"
        case .string(let text), .nick(let text): "'\(text)'"
        case .caps(let caps): "'\(caps)'"
        case .structure(let structure): "'\(structure)'"
        case .dateTime(let microseconds): "\(microseconds) µs since 1970"
        }
    }

    /// What kind of value it is, for messages ("an integer", "a string").
    var kindDescription: String {
        switch self {
        case .int(let number): "an integer (\(number))"
        case .uint64(let number): "an integer (\(number))"
        case .bool(let flag): "a boolean (\(flag))"
        case .double(let number): "a number (\(number))"
        case .string(let text): "a string ('\(text)')"
        case .nick(let text): "a nick ('\(text)')"
        case .caps: "caps"
        case .structure: "a structure"
        case .dateTime: "a date and time"
        }
    }
}

extension Object {
    /// Whether the object has a property of this name (readable or not).
    public func hasProperty(_ property: String) -> Bool {
        camrec_find_property(UnsafeMutableRawPointer(objectPointer), property) != nil
    }
}

import CGStreamer
import CGStreamerShim

/// The simple fields of a message's structure (strings, integers, booleans, doubles and
/// arrays of doubles), copied when the message is parsed: splitmuxsink's
/// `splitmuxsink-fragment-closed` carries the fragment's `location` and its end as
/// `running-time`; `level`'s `level` message its `rms` per channel. Other kinds of field
/// are left out.
public struct MessageFields: Sendable, Equatable {
    /// The fields, by name.
    public private(set) var values: [String: Value] = [:]

    /// A field's value.
    public enum Value: Sendable, Equatable {
        case string(String)
        case integer(Int64)
        case unsigned(UInt64)
        case bool(Bool)
        case double(Double)
        /// A GValueArray of doubles (at most 16 are kept).
        case doubles([Double])
    }

    /// Fields given as values (tests).
    public init(_ values: [String: Value] = [:]) { self.values = values }

    /// Copies the simple fields of `structure` (borrowed).
    init(copying structure: UnsafePointer<GstStructure>?) {
        guard let structure else { return }
        for index in 0..<gst_structure_n_fields(structure) {
            guard let rawName = gst_structure_nth_field_name(structure, guint(index)),
                  let value = gst_structure_get_value(structure, rawName) else { continue }
            let name = String(cString: rawName)
            switch camrec_value_kind(value.pointee.g_type) {
            case CAMREC_VALUE_STRING:
                if let text = g_value_get_string(value) { values[name] = .string(String(cString: text)) }
            case CAMREC_VALUE_UINT64: values[name] = .unsigned(UInt64(g_value_get_uint64(value)))
            case CAMREC_VALUE_UINT: values[name] = .unsigned(UInt64(g_value_get_uint(value)))
            case CAMREC_VALUE_INT64: values[name] = .integer(Int64(g_value_get_int64(value)))
            case CAMREC_VALUE_INT: values[name] = .integer(Int64(g_value_get_int(value)))
            case CAMREC_VALUE_BOOLEAN: values[name] = .bool(g_value_get_boolean(value) != 0)
            case CAMREC_VALUE_DOUBLE: values[name] = .double(g_value_get_double(value))
            case CAMREC_VALUE_BOXED:
                var numbers = [Double](repeating: 0, count: 16)
                let count = Int(camrec_value_doubles(value, &numbers, guint(numbers.count)))
                if count > 0 { values[name] = .doubles(Array(numbers.prefix(count))) }
            default: break
            }
        }
    }

    /// A string field.
    public func string(_ name: String) -> String? {
        if case .string(let text) = values[name] { return text }
        return nil
    }

    /// An unsigned integer field (also a non-negative signed one).
    public func unsigned(_ name: String) -> UInt64? {
        switch values[name] {
        case .unsigned(let number): number
        case .integer(let number) where number >= 0: UInt64(number)
        default: nil
        }
    }

    /// An array-of-doubles field (`level`'s `rms`).
    public func doubles(_ name: String) -> [Double]? {
        if case .doubles(let numbers) = values[name] { return numbers }
        return nil
    }
}

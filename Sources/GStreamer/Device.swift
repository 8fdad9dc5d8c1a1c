import CGStreamer

/// A `GstDevice` we own one reference to: one source or sink a provider found.
public final class Device: Object, @unchecked Sendable {
    /// The wrapped device (`GstDevice *`).
    public var devicePointer: UnsafeMutablePointer<GstDevice> {
        UnsafeMutableRawPointer(objectPointer).assumingMemoryBound(to: GstDevice.self)
    }

    /// Wraps a `GstDevice *` with the given transfer (devices from a monitor are full).
    public init(_ pointer: UnsafeMutablePointer<GstDevice>, transfer: Transfer) {
        super.init(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstObject.self), transfer: transfer)
    }

    /// The name for people, e.g. "Monitor of Null Output".
    public var displayName: String {
        guard let text = gst_device_get_display_name(devicePointer) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// The class, e.g. "Audio/Source".
    public var deviceClass: String {
        guard let text = gst_device_get_device_class(devicePointer) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// The caps it can produce or take; nil when the provider gave none (transfer full).
    public var caps: Caps? {
        gst_device_get_caps(devicePointer).map { Caps($0, transfer: .full) }
    }

    /// The provider's properties (a copy, transfer full), each field as text: strings as
    /// they are, other values in GStreamer's serialised form ("true", "48000"). Empty when
    /// the provider gave none.
    public var properties: [String: String] {
        guard let structure = gst_device_get_properties(devicePointer) else { return [:] }
        defer { gst_structure_free(structure) }
        var values: [String: String] = [:]
        let count = gst_structure_n_fields(structure)
        for index in 0..<count {
            guard let name = gst_structure_nth_field_name(structure, guint(index)),
                  let value = gst_structure_get_value(structure, name) else { continue }
            let key = String(cString: name)
            if let text = gst_structure_get_string(structure, name) {
                values[key] = String(cString: text)
            } else if let text = gst_value_serialize(value) {
                values[key] = String(cString: text)
                g_free(text)
            }
        }
        return values
    }
}

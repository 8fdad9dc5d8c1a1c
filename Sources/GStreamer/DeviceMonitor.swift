import CGStreamer
import CGStreamerShim

/// A `GstDeviceMonitor` we own one reference to: finds the devices the installed device
/// providers know of (pulsedeviceprovider, alsadeviceprovider, …) for the classes asked for.
///
/// `devices()` probes without starting the monitor, so no bus or main loop is needed; the
/// monitor is meant for one listing and then dropped.
public final class DeviceMonitor: Object, @unchecked Sendable {
    /// The wrapped monitor (`GstDeviceMonitor *`).
    public var monitorPointer: UnsafeMutablePointer<GstDeviceMonitor> {
        UnsafeMutableRawPointer(objectPointer).assumingMemoryBound(to: GstDeviceMonitor.self)
    }

    /// A new monitor with no filter (`gst_device_monitor_new` sinks the floating reference
    /// itself and returns a full one).
    public init() throws(GStreamerError) {
        try Runtime.initialize()
        guard let pointer = gst_device_monitor_new() else { throw .initialization("no device monitor could be made") }
        super.init(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstObject.self), transfer: .full)
    }

    /// Adds a filter: devices whose class contains every word of `classes` (e.g.
    /// "Audio/Source"), and whose caps intersect `caps` when given. Returns the filter's id.
    @discardableResult
    public func addFilter(classes: String, caps: Caps? = nil) -> UInt32 {
        UInt32(gst_device_monitor_add_filter(monitorPointer, classes, caps?.capsPointer))
    }

    /// Whether providers that others hide (alsadeviceprovider under a running PulseAudio)
    /// are listed too ("show-all", default false).
    public var showsAll: Bool {
        get { gst_device_monitor_get_show_all_devices(monitorPointer) != 0 }
        set { gst_device_monitor_set_show_all_devices(monitorPointer, newValue ? 1 : 0) }
    }

    /// Starts watching: each provider connects (pulsedeviceprovider asks the server which
    /// source is the default) and lists its devices; false when no provider could start.
    /// Messages about devices come and go on the monitor's bus, which nobody need read.
    public func start() -> Bool {
        gst_device_monitor_start(monitorPointer) != 0
    }

    /// Stops watching (a no-op when not started).
    public func stop() {
        gst_device_monitor_stop(monitorPointer)
    }

    /// The devices there are now, probing the providers if the monitor is not started
    /// (`gst_device_monitor_get_devices`: a list of full references, each adopted).
    public func devices() -> [Device] {
        guard let list = gst_device_monitor_get_devices(monitorPointer) else { return [] }
        defer { g_list_free(list) }
        var found: [Device] = []
        var node: UnsafeMutablePointer<GList>? = list
        while let current = node {
            if let data = current.pointee.data {
                found.append(Device(data.assumingMemoryBound(to: GstDevice.self), transfer: .full))
            }
            node = current.pointee.next
        }
        return found
    }
}

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

/// A `GstDeviceProvider` we own one reference to, made from its factory by name (e.g.
/// "pulsedeviceprovider"): one provider on its own, so that it can be configured (the
/// pulse provider's "server") before it lists anything.
public final class DeviceProvider: Object, @unchecked Sendable {
    /// The wrapped provider (`GstDeviceProvider *`).
    public var providerPointer: UnsafeMutablePointer<GstDeviceProvider> {
        UnsafeMutableRawPointer(objectPointer).assumingMemoryBound(to: GstDeviceProvider.self)
    }

    /// The provider of that factory name; nil when no installed plugin provides it
    /// (`gst_device_provider_factory_get_by_name`, transfer full; a reference still
    /// floating is sunk, so the wrapper owns exactly one either way).
    public static func make(_ factoryName: String) throws(GStreamerError) -> DeviceProvider? {
        try Runtime.initialize()
        guard let pointer = gst_device_provider_factory_get_by_name(factoryName) else { return nil }
        let object = UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstObject.self)
        return DeviceProvider(object, transfer: camrec_object_is_floating(object) != 0 ? .floating : .full)
    }

    private override init(_ pointer: UnsafeMutablePointer<GstObject>, transfer: Transfer) {
        super.init(pointer, transfer: transfer)
    }

    /// Starts it (a provider that only probes starts trivially); false when it cannot (the
    /// pulse provider: no server answers).
    public func start() -> Bool {
        gst_device_provider_start(providerPointer) != 0
    }

    /// Stops it (only after a successful `start`).
    public func stop() {
        gst_device_provider_stop(providerPointer)
    }

    /// Its devices now (`gst_device_provider_get_devices`: full references, each adopted).
    public func devices() -> [Device] {
        guard let list = gst_device_provider_get_devices(providerPointer) else { return [] }
        defer { g_list_free(list) }
        var found: [Device] = []
        var node: UnsafeMutablePointer<GList>? = list
        while let current = node {
            if let data = current.pointee.data {
                found.append(Device(data.assumingMemoryBound(to: GstDevice.self), transfer: .full))
            }
            node = current.pointee.next
        }
        return found
    }
}

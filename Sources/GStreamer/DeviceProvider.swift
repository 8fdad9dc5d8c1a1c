import CGStreamer
import CGStreamerShim

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

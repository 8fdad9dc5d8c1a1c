import CGStreamer

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

import V4L2

/// The cameras there are, as `camrec devices` shows them: what the command prints and
/// the error and warnings it gives, so that the command-line front end needs nothing below
/// CamrecKit.
public struct CameraCatalog: Sendable {
    private let scan: DeviceScan

    /// Probes `/dev/video0` … `/dev/video63` and the paths in `$CAMREC_DEVICE_PATHS`.
    public static func scan() -> CameraCatalog {
        CameraCatalog(scan: DeviceDiscovery.scan())
    }

    /// Whether a camera that can capture exists.
    public var hasCamera: Bool { !scan.devices.isEmpty }

    /// The listing as JSON (one document), with `sound`'s sources when given.
    public func jsonText(sound: SoundCatalog? = nil) -> String {
        DeviceListing.jsonText(scan.devices, failures: scan.failures, sound: sound)
    }

    /// The listing for people; `showControls` adds each camera's controls; `sound` adds a
    /// "Sound sources" part after the cameras.
    public func humanText(showControls: Bool, sound: SoundCatalog? = nil) -> String {
        let cameras = DeviceListing.humanText(scan.devices, showControls: showControls)
        guard let sound else { return cameras }
        return cameras + (cameras.isEmpty ? "" : "\n") + SoundListing.humanText(sound)
    }

    /// The cameras as microphone matching needs them: their bus info, and their USB device
    /// in `sysfs` when they have an entry there.
    public func microphoneCameras(sysfs: SysfsTree = .system) -> [CameraMicrophone.Camera] {
        scan.devices.map { device in
            let node = SoundFiles.realPath(device.path).map { String($0.split(separator: "/").last ?? "") } ?? ""
            return CameraMicrophone.Camera(path: device.path, usbDevice: node.hasPrefix("video") ? sysfs.usbDevice(ofVideoNode: node) : nil,
                                           busInfo: device.bus)
        }
    }

    /// Why no camera can be used (exit 66, 75 or 77), nil when one can.
    public var error: CamrecError? {
        hasCamera ? nil : CameraResolver.noUsableCamera(failures: scan.failures)
    }

    /// Devices that exist but could not be probed, as warnings: all of them when a camera
    /// can be used, else all but the one the error names.
    public var warnings: [String] {
        let named = hasCamera ? nil : DeviceError.mostTelling(scan.failures)
        return scan.failures.filter { $0 != named }.map(\.message)
    }
}

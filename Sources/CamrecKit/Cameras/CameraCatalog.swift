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

    /// The listing as JSON (one document).
    public var jsonText: String { DeviceListing.jsonText(scan.devices, failures: scan.failures) }

    /// The listing for people; `showControls` adds each camera's controls.
    public func humanText(showControls: Bool) -> String {
        DeviceListing.humanText(scan.devices, showControls: showControls)
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

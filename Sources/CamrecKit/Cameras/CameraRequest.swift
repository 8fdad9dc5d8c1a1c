/// The camera a command asks for (`--device`, `--size`, `--fps`): which device(s), at what
/// size and rate. ``resolve(prefer:)`` finds it and chooses its format.
public struct CameraRequest: Sendable, Equatable {
    /// The camera of a one-camera command: the last `--device` given (nil: the first camera).
    public var device: String?
    /// Every `--device` given, in order (several: one movie per camera, or a canvas).
    public var devices: [String]
    /// `--size`; nil: the default for the camera.
    public var size: FrameSize?
    /// `--fps`; nil: the default for the camera.
    public var rate: FrameRateValue?

    /// A request for `devices` (the last is ``device``) at `size` and `rate`.
    public init(devices: [String], size: FrameSize? = nil, rate: FrameRateValue? = nil) {
        device = devices.last
        self.devices = devices
        self.size = size
        self.rate = rate
    }

    /// `--device` (every one given), `--size` and `--fps` as given (nil: not given).
    /// Every refusal is a usage error.
    public static func parse(devices: [String], size: String?, fps: String?) throws(CamrecError) -> CameraRequest {
        CameraRequest(devices: devices, size: try OptionValue.parse("--size", size, FrameSize.parse),
                      rate: try OptionValue.parse("--fps", fps, FrameRateValue.parse))
    }

    /// Finds the camera (``device``) and chooses its format, preferring `prefer`'s families.
    /// `movies`: a movie may stand in for the camera (`--device file:PATH`, recordings only).
    public func resolve(prefer: [CameraFormatFamily] = [], movies: Bool = false) throws(CamrecError) -> CameraResolver.Resolution {
        if !movies, let device, device.hasPrefix(MovieSource.prefix) {
            throw CamrecError(.usage, "--device \(device): a movie plays only into a recording (camrec record --device \(device) OUTPUT); this command needs a camera, or --device test")
        }
        return try CameraResolver.resolve(device: device, size: size, rate: rate, prefer: prefer)
    }

    /// The same request for one of several cameras: `device` alone.
    func one(_ device: String) -> CameraRequest {
        var request = self
        request.device = device
        return request
    }
}

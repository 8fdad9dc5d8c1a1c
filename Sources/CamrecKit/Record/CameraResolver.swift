import V4L2

/// Finds the camera a user asked for and chooses its format, turning every failure into a
/// `CamrecError` with the exit status scripts rely on (no camera, busy, permission).
public enum CameraResolver {
    /// What was resolved: the source, and the size and rate the movie will have.
    public struct Resolution: Sendable {
        /// Where frames come from.
        public var source: VideoSource
        /// The frame size the camera will deliver.
        public var size: FrameSize
        /// The frame rate of the movie: the camera's, or a slower one asked for, which
        /// the pipeline makes by dropping frames evenly.
        public var rate: FrameRateValue
        /// What a person should know about the choice, one line each, e.g. "skipped
        /// /dev/video0: camera is busy (used by another program)" when the first camera
        /// could not be opened and another was taken. Show them as warnings.
        public var warnings: [String] = []
        /// The camera's name as `camrec devices` shows it (its card name), for the stills'
        /// EXIF Model; "test pattern" for `--device test`.
        public var name = "test pattern"
        /// Its USB manufacturer, when sysfs names one (the stills' EXIF Make).
        public var maker: String?

        /// What stills from this camera say about it, and `location`.
        public func stillTags(location: GeoLocation? = nil) -> StillTags {
            StillTags(camera: name, maker: maker, location: location)
        }
    }

    /// Resolves `device` ("test", a path, an index or a card name; nil for the first
    /// camera; "file:PATH" for a movie played as a camera) for an optional requested size
    /// and rate.
    /// `prefer` names camera format families to take where they reach the rate at the
    /// chosen size (`FormatChooser`), e.g. H.264 when it can be stored as it comes.
    public static func resolve(device: String?, size: FrameSize?, rate: FrameRateValue?,
                               prefer: [FormatFamily] = []) throws(CamrecError) -> Resolution {
        if let device, let path = try MovieSource.path(inDevice: device) {
            return try MovieProbe.resolve(path: path, size: size, rate: rate)
        }
        if device == "test" {
            var resolution = Resolution(source: .testPattern, size: size ?? RecordConfig.defaultTestSize,
                                        rate: rate ?? RecordConfig.defaultTestRate)
            resolution.maker = "camrec"
            return resolution
        }
        let selection = try select(device)
        let camera = selection.device
        let choice: FormatChoice
        do {
            choice = try FormatChooser.choose(from: camera.formats, size: size, rate: rate, prefer: prefer)
        } catch {
            throw CamrecError(.usage, "\(camera.path): \(error.message)")
        }
        let decoding: CameraFormat.Decoding = switch choice.family {
        case .mjpeg: .jpeg
        case .h264: .h264
        default: .none
        }
        let chosenSize = choice.size
        let chosenRate = choice.rate
        // A camera that offers only faster rates (30 fps for --fps 15) gives the rate asked
        // for by dropping frames evenly, never silently the faster one.
        var movieRate = chosenRate
        var reason = choice.reason
        if let rate, rate.framesPerSecond < chosenRate.framesPerSecond * 0.99 {
            movieRate = rate
            reason += "; \(rate) fps by keeping frames evenly from the camera's \(chosenRate) fps (it offers no slower rate at \(chosenSize))"
        }
        let format = CameraFormat(fourcc: choice.fourcc, caps: choice.caps, size: chosenSize, rate: chosenRate,
                                  decoding: decoding, reason: reason)
        var resolution = Resolution(source: .camera(path: camera.path, format: format), size: chosenSize, rate: movieRate,
                                    warnings: selection.skipped.map(skippedWarning))
        resolution.name = camera.card.isEmpty ? camera.path : camera.card
        let node = SoundFiles.realPath(camera.path).map { String($0.split(separator: "/").last ?? "") } ?? ""
        resolution.maker = node.hasPrefix("video") ? SysfsTree.system.usbManufacturer(ofVideoNode: node) : nil
        return resolution
    }

    /// The camera for `device`, probed.
    public static func find(_ device: String?) throws(CamrecError) -> CaptureDevice {
        try select(device).device
    }

    /// The camera for `device`, probed, and the cameras passed over on the way.
    static func select(_ device: String?) throws(CamrecError) -> Selection {
        guard let selector = DeviceSelector(device ?? "0") else {
            throw CamrecError(.usage, "invalid --device '\(device ?? "")': give a path (/dev/video0), an index (0) or part of a camera's name")
        }
        do {
            return try DeviceDiscovery.select(selector)
        } catch {
            throw camrecError(for: error, selector: selector)
        }
    }

    /// "skipped /dev/video0: camera is busy (used by another program)".
    static func skippedWarning(_ failure: DeviceError) -> String {
        "skipped \(failure.path): \(failure.shortReason)"
    }

    /// Why no camera can be used, given the failures of a scan that found none: a camera
    /// that exists but cannot be opened keeps its own exit status (busy 75, not permitted
    /// 77), else no camera (66). `camrec devices` and recording say it in the same words.
    public static func noUsableCamera(failures: [DeviceError]) -> CamrecError {
        let message = SelectionError.noCameras(failures: failures).message
        return switch DeviceError.mostTelling(failures) {
        case .busy?: CamrecError(.cameraBusy, message)
        case .permissionDenied?: CamrecError(.permissionDenied, message)
        default: CamrecError(.noCamera, message)
        }
    }

    static func camrecError(for error: SelectionError, selector: DeviceSelector) -> CamrecError {
        switch error {
        case .noCameras(let failures):
            let error = noUsableCamera(failures: failures)
            guard error.status == .noCamera else { return error }
            return CamrecError(.noCamera, error.message + "; try --device test for a test pattern")
        case .noMatch, .ambiguous:
            return CamrecError(.noCamera, error.message)
        case .device(let deviceError):
            switch deviceError {
            case .busy:
                return CamrecError(.cameraBusy, deviceError.message)
            case .permissionDenied:
                return CamrecError(.permissionDenied, deviceError.message)
            case .notFound(let path):
                let cameras = DeviceDiscovery.discover().map { "\($0.path) (\($0.card))" }
                let known = cameras.isEmpty ? "no camera found" : "cameras: " + cameras.joined(separator: ", ")
                return CamrecError(.noCamera, "no camera at \(path); \(known)")
            default:
                return CamrecError(.noCamera, deviceError.message)
            }
        }
    }
}

import ArgumentParsing
import CamrecKit

/// The options every camera-using subcommand shares, declared once.
enum CameraOptions {
    static let specs = [
        OptionSpec(["--device", "-d"], value: "DEV", help: "camera: a path (/dev/video0), an index (0), part of its name, or 'test' for a built-in test pattern (default: the first camera); record: give it again for each further camera, each into its own movie (NAME-1.EXT, NAME-2.EXT, …) or, with --layout, all onto one canvas in one movie", summary: "a path, index, name or test; repeat for more"),
        OptionSpec(["--size", "-s"], value: "WxH", help: "frame size, e.g. 1280x720 or 720p (default: 1280x720 when the camera can)", summary: "frame size, e.g. 1280x720 or 720p"),
        OptionSpec(["--fps", "-r"], value: "N", help: "frame rate, e.g. 30 or 29.97 (default: 30 when the camera can)", summary: "frame rate, e.g. 30 or 29.97"),
    ]
}

/// The camera asked for on the command line (`--device`, `--size`, `--fps`), typed once for
/// every camera-using subcommand.
struct CameraChoice {
    var device: String?
    /// Every `--device` given, in order (several: one movie per camera).
    var devices: [String]
    var size: FrameSize?
    var rate: FrameRateValue?

    init(_ parsed: ParsedArguments) throws(UsageError) {
        device = parsed.value("--device")
        devices = parsed.values("--device")
        size = try parsed.value("--size", FrameSize.parse)
        rate = try parsed.value("--fps", FrameRateValue.parse)
    }

    /// Finds the camera and chooses its format.
    func resolve(prefer: [CameraFormatFamily] = []) throws(CamrecError) -> CameraResolver.Resolution {
        try CameraResolver.resolve(device: device, size: size, rate: rate, prefer: prefer)
    }
}

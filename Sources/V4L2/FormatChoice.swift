/// What `FormatChooser` picked, and why.
public struct FormatChoice: Sendable, Codable, Hashable {
    /// The camera pixel format, e.g. "YUYV".
    public let fourcc: String
    /// Width in pixels.
    public let width: UInt32
    /// Height in pixels.
    public let height: UInt32
    /// The frame rate, exactly as the camera offers it.
    public let rate: FrameRate
    /// Raw, MJPEG or H.264: tells the pipeline whether to decode or parse.
    public let family: FormatFamily
    /// One line for a person: "MJPG 1920x1080 at 30 fps: 1920x1080 as requested; YUYV reaches only 5 fps at 1920x1080".
    public let reason: String

    /// A choice with the given values (FormatChooser makes these; tests and overrides may too).
    public init(fourcc: String, width: UInt32, height: UInt32, rate: FrameRate, family: FormatFamily, reason: String) {
        self.fourcc = fourcc
        self.width = width
        self.height = height
        self.rate = rate
        self.family = family
        self.reason = reason
    }

    /// The size as a value.
    public var size: VideoSize { VideoSize(width: width, height: height) }
}

extension FormatChoice {
    /// The caps to put after v4l2src so it negotiates exactly this mode, e.g.
    /// "video/x-raw,format=YUY2,width=1280,height=720,framerate=30/1" or
    /// "image/jpeg,width=1920,height=1080,framerate=30/1".
    public var caps: String {
        let common = "width=\(width),height=\(height),framerate=\(rate.fraction)"
        switch family {
        case .mjpeg:
            return "image/jpeg,\(common)"
        case .h264:
            return "video/x-h264,stream-format=byte-stream,alignment=au,\(common)"
        case .raw, .unsupported:
            let format = FormatFamily.gstreamerRawFormat(fourcc: fourcc) ?? fourcc
            return "video/x-raw,format=\(format),\(common)"
        }
    }
}

extension FormatFamily {
    /// The GStreamer video format name of a raw V4L2 fourcc (as v4l2src maps it), or nil.
    public static func gstreamerRawFormat(fourcc: String) -> String? {
        gstreamerRawFormats[fourcc]
    }

    private static let gstreamerRawFormats: [String: String] = [
        "NV12": "NV12", "YU12": "I420", "YV12": "YV12", "NV21": "NV21", "YUYV": "YUY2", "UYVY": "UYVY",
        "YVYU": "YVYU", "VYUY": "VYUY", "NV16": "NV16", "NV61": "NV61", "422P": "Y42B", "RGB3": "RGB",
        "BGR3": "BGR", "XR24": "BGRx", "AR24": "BGRA", "XB24": "RGBx", "AB24": "RGBA", "RGBP": "RGB16",
        "GREY": "GRAY8", "Y16 ": "GRAY16_LE",
    ]
}

import V4L2

/// How GStreamer names what a V4L2 camera delivers: the caps after `v4l2src` for a chosen
/// mode, and the GStreamer format of each raw fourcc (as v4l2src maps it). GStreamer
/// knowledge, so it lives here and not in the V4L2 module, which knows only the kernel's API.
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

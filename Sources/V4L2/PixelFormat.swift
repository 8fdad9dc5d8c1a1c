import MediaValues

/// One pixel format a camera offers (from VIDIOC_ENUM_FMT), with its sizes and rates.
public struct PixelFormat: Sendable, Codable, Hashable {
    /// The four-character code, e.g. "YUYV", "MJPG", "H264" (V4L2 pads short codes with spaces: "Y16 ").
    public let fourcc: String
    /// The fourcc as people read it: without the padding spaces of short codes ("Y16 " → "Y16").
    public var displayFourcc: String { fourcc.trimmingSpaces }
    /// The driver's description, e.g. "YUYV 4:2:2".
    public let description: String
    /// Whether the driver flags the format as compressed (V4L2_FMT_FLAG_COMPRESSED).
    public let compressed: Bool
    /// The sizes offered, in the driver's order, each with its frame rates.
    public let sizes: [FrameSizeOption]
    /// For drivers that report a stepwise or continuous size range instead of a list:
    /// the range. `sizes` then holds common sizes inside it, probed for their rates.
    public let sizeRange: FrameSizeRange?

    /// A format with the given properties.
    public init(fourcc: String, description: String, compressed: Bool, sizes: [FrameSizeOption],
                sizeRange: FrameSizeRange? = nil) {
        self.fourcc = fourcc
        self.description = description
        self.compressed = compressed
        self.sizes = sizes
        self.sizeRange = sizeRange
    }

    /// How camrec treats this format (raw, MJPEG, H.264, or something it cannot record).
    public var family: FormatFamily { FormatFamily(fourcc: fourcc, compressed: compressed) }

    /// The fastest rate offered at `size`, or nil when the format does not offer it.
    public func fastestRate(at size: FrameSize) -> FrameRateValue? {
        sizes.first(where: { $0.size == size })?.rates.max()
    }
}

/// One frame size of a pixel format and the frame rates offered at it.
public struct FrameSizeOption: Sendable, Codable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Frame rates, fastest first. Discrete rates are exact; for a stepwise or continuous
    /// interval range this holds the fastest rate, common rates inside the range, and the slowest.
    /// Empty when the driver does not enumerate intervals.
    public let rates: [FrameRateValue]

    /// An option of `width` x `height` at `rates` (sorted fastest first, duplicates removed).
    public init(width: Int, height: Int, rates: [FrameRateValue]) {
        self.width = width
        self.height = height
        var unique: [FrameRateValue] = []
        for rate in rates.sorted(by: >) where !unique.contains(rate) { unique.append(rate) }
        self.rates = unique
    }

    /// The size as a value.
    public var size: FrameSize { FrameSize(width: width, height: height) }
}

/// A size range reported with V4L2_FRMSIZE_TYPE_STEPWISE or _CONTINUOUS.
public struct FrameSizeRange: Sendable, Codable, Hashable {
    /// The smallest size.
    public let minimum: FrameSize
    /// The largest size.
    public let maximum: FrameSize
    /// Width and height steps (1x1 for a continuous range).
    public let step: FrameSize

    /// A range from `minimum` to `maximum` in steps of `step`.
    public init(minimum: FrameSize, maximum: FrameSize, step: FrameSize) {
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
    }

    /// Whether `size` lies in the range and on its steps.
    public func contains(_ size: FrameSize) -> Bool {
        guard size.width >= minimum.width, size.width <= maximum.width,
              size.height >= minimum.height, size.height <= maximum.height else { return false }
        let stepW = max(step.width, 1), stepH = max(step.height, 1)
        return (size.width - minimum.width) % stepW == 0 && (size.height - minimum.height) % stepH == 0
    }

    /// Common sizes inside the range (plus its ends), which discovery probes for rates.
    public var commonSizes: [FrameSize] {
        let common: [FrameSize] = [
            .init(width: 160, height: 120), .init(width: 320, height: 240), .init(width: 640, height: 360),
            .init(width: 640, height: 480), .init(width: 800, height: 600), .init(width: 1024, height: 768),
            .init(width: 1280, height: 720), .init(width: 1280, height: 960), .init(width: 1920, height: 1080),
            .init(width: 2560, height: 1440), .init(width: 3840, height: 2160),
        ]
        var result: [FrameSize] = []
        for size in [minimum] + common + [maximum] where contains(size) && !result.contains(size) {
            result.append(size)
        }
        return result
    }
}

/// How camrec can use a pixel format, in order of preference when several meet a request.
///
/// Raw comes first because it costs no decoding before the encoder; MJPEG next (a JPEG
/// decode per frame, but most webcams offer large sizes at full rate only as MJPEG);
/// H.264 last among the usable ones (it must be decoded for stills and re-encoding, though a
/// later passthrough mode may prefer it). `unsupported` covers depth maps, Bayer and codecs the
/// pipeline templates do not handle: they are listed but never chosen.
public enum FormatFamily: String, Sendable, Codable, Hashable, Comparable {
    /// Uncompressed YUV, RGB or grey that `videoconvert` accepts.
    case raw
    /// Motion JPEG (MJPG or JPEG).
    case mjpeg
    /// An H.264 elementary stream.
    case h264
    /// Anything else: listed, never chosen.
    case unsupported

    /// Raw formats GStreamer's v4l2src maps to video/x-raw, best first. 4:2:0 comes first
    /// because the encoder wants I420/NV12 (no chroma conversion), then packed 4:2:2 (what
    /// webcams usually send), then RGB, then grey.
    public static let rawPreference: [String] = [
        "NV12", "YU12", "YV12", "NV21", "YUYV", "UYVY", "YVYU", "VYUY", "NV16", "NV61", "422P",
        "RGB3", "BGR3", "XR24", "AR24", "XB24", "AB24", "RGBP", "GREY", "Y16 ",
    ]

    /// The family of a fourcc (compressed flag as the driver reports it).
    public init(fourcc: String, compressed: Bool) {
        switch fourcc {
        case "MJPG", "JPEG": self = .mjpeg
        case "H264": self = .h264
        default:
            self = (!compressed && FormatFamily.rawPreference.contains(fourcc)) ? .raw : .unsupported
        }
    }

    /// Lower is preferred.
    public var rank: Int {
        switch self {
        case .raw: 0
        case .mjpeg: 1
        case .h264: 2
        case .unsupported: 3
        }
    }

    /// Compares by preference (`rank`).
    public static func < (lhs: FormatFamily, rhs: FormatFamily) -> Bool { lhs.rank < rhs.rank }
}

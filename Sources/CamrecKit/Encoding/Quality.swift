/// `--quality`: how many bytes a second of video may take, and how hard the encoder works
/// for each of them. Every encoder maps it to its own settings (`EncoderProfile`).
public enum Quality: String, Sendable, CaseIterable, Codable {
    case low, medium, high, max

    /// H.264's bits per pixel per frame: 0.07 (medium, camrec's default since its first
    /// version) gives ~1.9 Mbit/s for 720p30 and ~4.4 Mbit/s for 1080p30; each step doubles
    /// the bytes. H.265 needs about 60 % of H.264's bits for the same picture
    /// (`VideoCodec.bitsFactor`).
    public var bitsPerPixel: Double {
        switch self {
        case .low: 0.035
        case .medium: 0.07
        case .high: 0.14
        case .max: 0.28
        }
    }

    /// x264's `speed-preset`: veryfast up to high (the cost camrec has always had, safe for
    /// 1080p30 on two cores), faster for max (about 1.5× the CPU for a better picture per bit).
    public var x264Preset: String {
        self == .max ? "faster" : "veryfast"
    }

    /// x265's `speed-preset`: ultrafast at every quality. x265 costs several times x264's
    /// CPU (about a core for 720p30 at ultrafast on the benchmark machine, 1.6–1.75 at
    /// superfast, which then could not keep up with the camera): the presets differ in bits.
    public var x265Preset: String { "ultrafast" }

    /// jpegenc's `quality` (0–100): Motion JPEG has no rate control, so the preset is a
    /// picture quality and the bytes follow the picture.
    public var jpegQuality: Int {
        switch self {
        case .low: 50
        case .medium: 75
        case .high: 85
        case .max: 95
        }
    }
}

extension VideoCodec {
    /// The share of H.264's bits this codec needs for the same picture (`--quality`).
    var bitsFactor: Double {
        switch self {
        case .h264: 1
        case .h265: 0.6
        case .mjpeg: 6
        }
    }

    /// Whether its encoders have a bitrate to aim at (`--bitrate`).
    public var hasRateControl: Bool { self != .mjpeg }
}

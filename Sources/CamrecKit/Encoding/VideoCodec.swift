/// A compressed video format a movie can hold.
public enum VideoCodec: String, Sendable, CaseIterable, Codable {
    case h264, h265, mjpeg

    /// The media type of the encoded stream in GStreamer caps, e.g. "video/x-h264".
    public var capsName: String {
        switch self {
        case .h264: "video/x-h264"
        case .h265: "video/x-h265"
        case .mjpeg: "image/jpeg"
        }
    }

    /// The name people know it by: "H.264", "H.265", "Motion JPEG".
    public var displayName: String {
        switch self {
        case .h264: "H.264"
        case .h265: "H.265"
        case .mjpeg: "Motion JPEG"
        }
    }
}

/// What `--codec` asks for: a codec to encode, the camera's own stream stored as it is
/// (`copy`), or camrec's choice (`auto`).
public enum CodecRequest: Sendable, Equatable {
    /// Passthrough when the camera delivers H.264 at the asked size and rate, else H.264
    /// from the best working encoder.
    case auto
    /// Encode to this codec.
    case encode(VideoCodec)
    /// Store the camera's compressed frames without decoding them.
    case copy

    /// Parses `auto`, `h264`, `h265`, `mjpeg` or `copy`; nil for anything else.
    public init?(_ text: String) {
        switch text.lowercased() {
        case "auto": self = .auto
        case "copy": self = .copy
        default:
            guard let codec = VideoCodec(rawValue: text.lowercased()) else { return nil }
            self = .encode(codec)
        }
    }
}

/// What `--encoder` asks for.
public enum EncoderRequest: Sendable, Equatable {
    /// The first working hardware encoder for the codec, else software.
    case auto
    /// Only software encoders (x264enc, x265enc, jpegenc).
    case software
    /// This GStreamer element factory, e.g. "vah264enc".
    case named(String)

    /// Parses `auto`, `software` or an element name.
    public init(_ text: String) {
        switch text.lowercased() {
        case "auto": self = .auto
        case "software": self = .software
        default: self = .named(text)
        }
    }
}

/// Where frames come from.
public enum VideoSource: Sendable, Equatable {
    /// GStreamer's `videotestsrc`, live, for trying camrec without a camera.
    case testPattern
    /// A V4L2 capture device, with the camera format camrec chose for it.
    case camera(path: String, format: CameraFormat)
    /// A movie played as a camera (`--device file:PATH`).
    case movie(MovieSource)

    /// The camera as `{device}` shows it in `--overlay` text: its path, "file:" and the
    /// movie's path, or "test".
    public var deviceName: String {
        switch self {
        case .testPattern: "test"
        case .camera(let path, _): path
        case .movie(let movie): movie.deviceName
        }
    }

    /// The format frames arrive in (a camera's, or a movie's decoded frames); nil for the
    /// test pattern.
    public var format: CameraFormat? {
        switch self {
        case .testPattern: nil
        case .camera(_, let format): format
        case .movie(let movie): movie.format
        }
    }

    /// The movie, when the source is one.
    public var movie: MovieSource? {
        if case .movie(let movie) = self { movie } else { nil }
    }
}

/// A camera format: what v4l2src must deliver, as chosen from the device's capabilities.
public struct CameraFormat: Sendable, Equatable, Codable {
    /// The V4L2 four-character code, e.g. "YUYV", "MJPG", "H264".
    public var fourcc: String
    /// GStreamer caps for it, e.g. "image/jpeg,width=1920,height=1080,framerate=30/1".
    public var caps: String
    /// Frame size.
    public var size: FrameSize
    /// Frame rate.
    public var rate: FrameRateValue
    /// How camrec decodes it before encoding.
    public var decoding: Decoding
    /// Why this format was chosen, for people.
    public var reason: String

    /// The decode step a camera format needs before the encoder.
    public enum Decoding: String, Sendable, Codable {
        case none, jpeg, h264
    }

    public init(fourcc: String, caps: String, size: FrameSize, rate: FrameRateValue, decoding: Decoding, reason: String) {
        self.fourcc = fourcc
        self.caps = caps
        self.size = size
        self.rate = rate
        self.decoding = decoding
        self.reason = reason
    }
}

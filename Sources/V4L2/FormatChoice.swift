import MediaValues

/// What `FormatChooser` picked, and why.
public struct FormatChoice: Sendable, Codable, Hashable {
    /// The camera pixel format, e.g. "YUYV".
    public let fourcc: String
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The frame rate, exactly as the camera offers it.
    public let rate: FrameRateValue
    /// Raw, MJPEG or H.264: tells the pipeline whether to decode or parse.
    public let family: FormatFamily
    /// One line for a person: "MJPG 1920x1080 at 30 fps: 1920x1080 as requested; YUYV reaches only 5 fps at 1920x1080".
    public let reason: String

    /// A choice with the given values (FormatChooser makes these; tests and overrides may too).
    public init(fourcc: String, width: Int, height: Int, rate: FrameRateValue, family: FormatFamily, reason: String) {
        self.fourcc = fourcc
        self.width = width
        self.height = height
        self.rate = rate
        self.family = family
        self.reason = reason
    }

    /// The size as a value.
    public var size: FrameSize { FrameSize(width: width, height: height) }
}

/// How the movie's video is made: encoded by one encoder element with camrec's settings,
/// or the camera's own compressed frames stored as they come (`--codec copy`).
public struct EncoderSettings: Sendable, Equatable {
    /// Seconds between keyframes: a short fixed GOP keeps seeking and trimming cheap, and
    /// bounds what a crash loses (hybrid MP4 fragments can only start at a keyframe).
    public var keyframeInterval: Double = 1
    /// Target bitrate in kbit/s (`--bitrate`); nil takes it from `quality`.
    public var bitrate: Int?
    /// `--quality`.
    public var quality: Quality = .medium
    /// The codec of the movie.
    public var codec: VideoCodec = .h264
    /// The encoder element; nil stores the camera's stream without encoding (passthrough).
    public var factory: String? = "x264enc"
    /// Whether `factory` is a hardware encoder (for people: the `started` line says so).
    public var hardware = false
    /// Why this codec and encoder, for people (the `started` line's `encoding_reason`).
    public var reason = "H.264 from x264enc (software), the default"
    /// Passthrough: the keyframe period set through the camera's own control (frames), or
    /// nil when the camera has none (its own interval is measured and reported instead).
    public var cameraKeyframePeriod: Int?
    /// The encoder's effort `--quality auto` chose by timing it here; nil: the quality's own
    /// preset (`EncoderProfile`).
    public var effort: EncoderEffort?
    /// Answers for encoders `EncoderProfile` does not know by name: whether the element
    /// has a property. Nil: assume it has none.
    public var hasProperty: (@Sendable (String) -> Bool)?

    /// The keyframe interval when none is asked for: 1 s for one movie; 0.5 s with segments,
    /// where `splitmuxsink` holds back a whole GOP until the next keyframe shows where it ends,
    /// so a power cut loses up to a GOP more than with one movie (1 s would make that more
    /// than 2 s: one GOP, a half-second fragment and a quarter second not yet flushed).
    public static func defaultKeyframeInterval(segmented: Bool) -> Double {
        segmented ? 0.5 : 1
    }

    public init(keyframeInterval: Double = 1, bitrate: Int? = nil, quality: Quality = .medium,
                codec: VideoCodec = .h264, factory: String? = "x264enc") {
        self.keyframeInterval = keyframeInterval
        self.bitrate = bitrate
        self.quality = quality
        self.codec = codec
        self.factory = factory
    }

    public static func == (lhs: EncoderSettings, rhs: EncoderSettings) -> Bool {
        lhs.keyframeInterval == rhs.keyframeInterval && lhs.bitrate == rhs.bitrate && lhs.quality == rhs.quality
            && lhs.codec == rhs.codec && lhs.factory == rhs.factory && lhs.hardware == rhs.hardware
            && lhs.reason == rhs.reason && lhs.cameraKeyframePeriod == rhs.cameraKeyframePeriod && lhs.effort == rhs.effort
    }

    /// Whether the camera's frames are stored without encoding.
    public var isPassthrough: Bool { factory == nil }

    /// The target bitrate in kbit/s: `--bitrate`, else the quality's bits per pixel for
    /// this codec (medium H.264: ~1.9 Mbit/s for 720p30, ~4.4 Mbit/s for 1080p30). Nil for
    /// Motion JPEG and passthrough, whose bytes follow the picture.
    public func targetBitrate(size: FrameSize, rate: FrameRateValue) -> Int? {
        guard !isPassthrough, codec.hasRateControl else { return nil }
        if let bitrate { return bitrate }
        return Self.bitrate(codec: codec, quality: quality, size: size, rate: rate)
    }

    /// kbit/s for a codec at a quality, size and rate (at least 200).
    public static func bitrate(codec: VideoCodec, quality: Quality, size: FrameSize, rate: FrameRateValue) -> Int {
        let bits = Double(size.width * size.height) * rate.framesPerSecond * quality.bitsPerPixel * codec.bitsFactor
        return max(200, Int(bits / 1000))
    }

    /// About how many kbit/s the movie takes, for estimates of disk space: the target
    /// bitrate, or for Motion JPEG and passthrough a typical figure for the quality.
    public func estimatedBitrate(size: FrameSize, rate: FrameRateValue) -> Int {
        targetBitrate(size: size, rate: rate)
            ?? Self.bitrate(codec: isPassthrough ? .h264 : codec, quality: isPassthrough ? .high : quality,
                            size: size, rate: rate)
    }

    /// Frames from one keyframe to the next.
    public func gop(rate: FrameRateValue) -> Int {
        max(1, Int((keyframeInterval * rate.framesPerSecond).rounded()))
    }

    /// The encoder's profile: the element with its properties (nil for passthrough).
    public func profile(size: FrameSize, rate: FrameRateValue) -> EncoderProfile? {
        guard let factory else { return nil }
        let settings = EncoderProfile.Settings(codec: codec, quality: quality,
                                               bitrate: targetBitrate(size: size, rate: rate), gop: gop(rate: rate),
                                               bitrateAsked: bitrate != nil, effort: effort)
        return EncoderProfile.make(factory: factory, settings: settings) { hasProperty?($0) ?? false }
    }

    /// The parser after the encoder, in pipeline syntax with its leading "! " (empty for
    /// Motion JPEG): H.264 as camrec has always stored it; H.265 as `hvc1` (parameter sets
    /// in the sample description), the tag Apple's players require in MP4.
    public var parser: String {
        switch codec {
        case .h264: "! h264parse"
        case .h265: "! h265parse ! video/x-h265,stream-format=hvc1,alignment=au"
        case .mjpeg: ""
        }
    }

    /// `parser` where the encoder's output went through a tee first (event clips): a tee's
    /// caps are anything, so Motion JPEG gets a caps filter to link to the muxer.
    public var clipParser: String {
        codec == .mjpeg ? "! image/jpeg" : parser
    }
}

import V4L2

/// What the command line asks of the movie's video (`--codec`, `--encoder`, `--quality`,
/// `--bitrate`, `--keyframe-interval`).
public struct EncodingRequest: Sendable, Equatable {
    public var codec: CodecRequest
    public var encoder: EncoderRequest
    public var quality: Quality
    /// `--bitrate` in kbit/s.
    public var bitrate: Int?
    /// `--keyframe-interval` in seconds.
    public var keyframeInterval: Double
    /// Whether `--quality` was given (for the warning that passthrough does not use it).
    public var qualityGiven: Bool
    /// `--quality auto`: the encoder's effort is chosen by timing it here (`EffortChoice`),
    /// with `quality`'s bits (medium).
    public var autoQuality: Bool = false

    /// Whether the effort of `codec`'s encoder is chosen by timing it: `--quality auto`, and
    /// by default for H.265, whose encoder (x265) costs about a core for 720p30 and lost
    /// frames on a shared 2-core machine at a fixed effort. Not by default for H.264
    /// (x264 at veryfast costs under half a core at 720p30 and kept up at a load of 10) nor
    /// Motion JPEG: their recordings start without the trial's second.
    public func timesEffort(for codec: VideoCodec) -> Bool {
        autoQuality || (!qualityGiven && codec == .h265)
    }

    /// The options that ask for encoding, one phrase each: with `--codec auto` they rule
    /// out storing the camera's stream as it comes.
    public var asksForEncoding: [String] {
        var asked: [String] = []
        if qualityGiven { asked.append("--quality") }
        if bitrate != nil { asked.append("--bitrate") }
        if encoder != .auto { asked.append("--encoder") }
        return asked
    }

    public init(codec: CodecRequest = .auto, encoder: EncoderRequest = .auto, quality: Quality = .medium,
                bitrate: Int? = nil, keyframeInterval: Double = 1, qualityGiven: Bool = false) {
        self.codec = codec
        self.encoder = encoder
        self.quality = quality
        self.bitrate = bitrate
        self.keyframeInterval = keyframeInterval
        self.qualityGiven = qualityGiven
    }
}

/// The encoder picked for a codec, and why.
public struct EncoderPick: Sendable, Equatable {
    /// The element factory.
    public var factory: String
    /// Whether it is a hardware encoder.
    public var hardware: Bool
    /// Why it was picked, for people: "x264enc (software): no hardware H.264 encoder here".
    public var reason: String
    /// Encoders passed over, one line each (shown as warnings).
    public var warnings: [String]
    /// Answers property questions for encoders `EncoderProfile` does not know by name.
    public var hasProperty: (@Sendable (String) -> Bool)?
    /// The effort `--quality auto` chose by timing the encoder; nil: the quality's own.
    public var effort: EncoderEffort?

    public init(factory: String, hardware: Bool, reason: String, warnings: [String] = [],
                hasProperty: (@Sendable (String) -> Bool)? = nil) {
        self.factory = factory
        self.hardware = hardware
        self.reason = reason
        self.warnings = warnings
        self.hasProperty = hasProperty
    }

    public static func == (lhs: EncoderPick, rhs: EncoderPick) -> Bool {
        lhs.factory == rhs.factory && lhs.hardware == rhs.hardware && lhs.reason == rhs.reason
            && lhs.warnings == rhs.warnings
    }
}

/// Decides how the movie's video is made: the camera's stream stored as it comes
/// (passthrough), or encoded to a codec by an encoder, and says why. Pure: the camera is
/// already resolved, and the encoder is picked by the `pickEncoder` it is given.
public enum EncodingPlanner {
    /// What the decision depends on besides the request.
    public struct Context: Sendable {
        /// The resolved source (with the camera format chosen).
        public var source: VideoSource
        /// The movie's frame rate (below the camera's when frames are dropped evenly).
        public var rate: FrameRateValue
        /// The container.
        public var container: MediaContainer
        /// What needs decoded frames, one phrase each, e.g. "--rotate changes the picture":
        /// passthrough is impossible with any of them.
        public var needsDecoding: [String]

        public init(source: VideoSource, rate: FrameRateValue, container: MediaContainer, needsDecoding: [String]) {
            self.source = source
            self.rate = rate
            self.container = container
            self.needsDecoding = needsDecoding
        }
    }

    /// The camera formats to prefer when choosing one, for `FormatChooser` (`prefer`):
    /// H.264 for `--codec auto` (stored as it comes), H.264 then MJPEG for `--codec copy`;
    /// nothing when something needs decoded frames anyway.
    public static func preferredFamilies(_ request: EncodingRequest, needsDecoding: [String]) -> [FormatFamily] {
        guard needsDecoding.isEmpty else { return [] }
        switch request.codec {
        case .auto: return request.asksForEncoding.isEmpty ? [.h264] : []
        case .copy: return [.h264, .mjpeg]
        case .encode: return []
        }
    }

    /// The encoder settings for `request`, and warnings for people.
    public static func plan(
        _ request: EncodingRequest, context: Context,
        pickEncoder: (VideoCodec) throws(CamrecError) -> EncoderPick
    ) throws(CamrecError) -> (settings: EncoderSettings, warnings: [String]) {
        var settings = EncoderSettings(keyframeInterval: request.keyframeInterval, bitrate: request.bitrate,
                                       quality: request.quality)
        var cameraFormat: CameraFormat?
        if case .camera(_, let format) = context.source { cameraFormat = format }
        let decimates = cameraFormat.map { $0.rate != context.rate } ?? false
        let stored: VideoCodec? = switch cameraFormat?.decoding {
        case .h264?: .h264
        case .jpeg?: .mjpeg
        default: nil
        }
        let blockers = context.needsDecoding + (decimates ? ["--fps \(context.rate) keeps only some of the camera's frames"] : [])
        let asked = request.asksForEncoding

        switch request.codec {
        case .copy:
            guard let stored, let format = cameraFormat else {
                let what = cameraFormat.map { "delivers \($0.fourcc) (uncompressed)" } ?? "is the test pattern (uncompressed)"
                throw CamrecError(.usage, "--codec copy stores the camera's compressed stream, but the source \(what): use --codec h264, or a camera format that is H.264 or MJPEG")
            }
            if let blocker = blockers.first {
                throw CamrecError(.usage, "--codec copy stores the camera's frames as they come, but \(blocker), which needs decoding: use --codec auto or h264")
            }
            try check(stored, in: context.container, copied: true)
            settings.codec = stored
            settings.factory = nil
            settings.reason = "the camera's own \(stored.displayName) (\(format.fourcc)), stored as it comes, without decoding or encoding (--codec copy)"
            return (settings, passthroughWarnings(request))
        case .auto:
            if stored == .h264, blockers.isEmpty, asked.isEmpty, let format = cameraFormat {
                settings.codec = .h264
                settings.factory = nil
                settings.reason = "the camera delivers H.264 at \(format.size) \(format.rate) fps: stored as it comes, without decoding or encoding (--codec auto)"
                return (settings, passthroughWarnings(request))
            }
            var pick = try pickEncoder(.h264)
            if stored == .h264, let blocker = blockers.first {
                pick.reason += "; the camera's H.264 is decoded and encoded again because \(blocker)"
            } else if stored == .h264, !asked.isEmpty {
                pick.reason += "; the camera's H.264 is decoded and encoded again because " + asked.joined(separator: " and ") + " asks for encoding"
            }
            return try encode(.h264, pick: pick, settings: settings, request: request, context: context)
        case .encode(let codec):
            try check(codec, in: context.container, copied: false)
            return try encode(codec, pick: try pickEncoder(codec), settings: settings, request: request, context: context)
        }
    }

    private static func encode(_ codec: VideoCodec, pick: EncoderPick, settings: EncoderSettings,
                               request: EncodingRequest, context: Context) throws(CamrecError) -> (settings: EncoderSettings, warnings: [String]) {
        if request.bitrate != nil, !codec.hasRateControl {
            throw CamrecError(.usage, "--bitrate: \(codec.displayName) has no bitrate to aim at (each frame is a JPEG): use --quality low|medium|high|max")
        }
        var settings = settings
        settings.codec = codec
        settings.factory = pick.factory
        settings.hardware = pick.hardware
        settings.hasProperty = pick.hasProperty
        settings.effort = pick.effort
        settings.reason = "\(codec.displayName) from \(pick.reason)"
        return (settings, pick.warnings)
    }

    private static func passthroughWarnings(_ request: EncodingRequest) -> [String] {
        let unused = request.asksForEncoding
        guard !unused.isEmpty else { return [] }
        return [unused.joined(separator: " and ") + " not used: the camera's stream is stored as it comes (use --codec h264 to encode it)"]
    }

    /// Refuses a codec the container cannot hold: Motion JPEG only in MKV and MOV.
    static func check(_ codec: VideoCodec, in container: MediaContainer, copied: Bool) throws(CamrecError) {
        guard codec == .mjpeg, container == .mp4 else { return }
        let what = copied ? "the camera's Motion JPEG" : "Motion JPEG"
        throw CamrecError(.usage, "an MP4 cannot hold \(what): name the output .mkv or .mov, or use --codec h264")
    }
}

/// A family of camera formats (raw, MJPEG, H.264), for callers that do not import V4L2.
public typealias CameraFormatFamily = FormatFamily

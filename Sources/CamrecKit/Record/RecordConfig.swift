/// Everything a recording needs, already validated: the CLI builds it, `Recorder` runs it.
public struct RecordConfig: Sendable {
    /// The default frame size for the test pattern.
    public static let defaultTestSize = FrameSize(width: 1280, height: 720)
    /// The default frame rate for the test pattern.
    public static let defaultTestRate = FrameRateValue(numerator: 30, denominator: 1)

    /// Where frames come from.
    public var source: VideoSource
    /// Frame size the movie is recorded at.
    public var size: FrameSize
    /// Frame rate the movie is recorded at.
    public var rate: FrameRateValue
    /// Stop by itself after this much video; nil records until stopped.
    public var maxDuration: TimeSpec?
    /// The final output path.
    public var outputPath: String
    /// The container, from the output's extension.
    public var container: Container
    /// Replace an existing output.
    public var overwrite: Bool
    /// Encoder settings.
    public var encoder: EncoderSettings
    /// Stills taken while recording.
    public var stills: StillSettings
    /// Several movies instead of one (`--segment`); nil for one movie at `outputPath`.
    public var segments: SegmentSettings?
    /// Wait for a lost camera to come back (`--reconnect`); nil ends the run.
    public var reconnect: ReconnectSettings?
    /// `--settle`: the longest wait for a stable picture before the first recorded frame.
    public var settle: TimeSpec = .zero
    /// The camera controls set for the run (`--set`, `--flash`), for the `started` line.
    public var controls: [AppliedControl] = []
    /// Called with the camera's path when it is back after `--reconnect` (sets the
    /// controls again); returns warnings.
    public var cameraBack: (@Sendable (String) -> [String])?
    /// Rotation, mirroring and overlays, for the movie and its stills.
    public var picture: PictureSettings = .unchanged

    public init(
        source: VideoSource, size: FrameSize, rate: FrameRateValue, maxDuration: TimeSpec?,
        outputPath: String, container: Container, overwrite: Bool, encoder: EncoderSettings,
        stills: StillSettings? = nil
    ) {
        self.source = source
        self.size = size
        self.rate = rate
        self.maxDuration = maxDuration
        self.outputPath = outputPath
        self.container = container
        self.overwrite = overwrite
        self.encoder = encoder
        let format = StillFormat.jpeg(quality: StillFormat.defaultQuality)
        self.stills = stills ?? StillSettings(
            format: format, naming: .beside(moviePath: outputPath, format: format), every: nil)
    }
}

/// H.264 encoding settings.
public struct EncoderSettings: Sendable, Equatable {
    /// Seconds between keyframes: a short fixed GOP keeps seeking and trimming cheap, and
    /// bounds what a crash loses (hybrid MP4 fragments can only start at a keyframe).
    public var keyframeInterval: Double = 1
    /// Target bitrate in kbit/s; nil picks one from size and rate.
    public var bitrate: Int?
    /// x264 speed preset.
    public var speedPreset: String = "veryfast"

    /// The keyframe interval when none is asked for: 1 s for one movie; 0.5 s with segments,
    /// where `splitmuxsink` holds back a whole GOP until the next keyframe shows where it ends,
    /// so a power cut loses up to a GOP more than with one movie (1 s would make that more
    /// than 2 s: one GOP, a half-second fragment and a quarter second not yet flushed).
    public static func defaultKeyframeInterval(segmented: Bool) -> Double {
        segmented ? 0.5 : 1
    }

    public init(keyframeInterval: Double = 1, bitrate: Int? = nil, speedPreset: String = "veryfast") {
        self.keyframeInterval = keyframeInterval
        self.bitrate = bitrate
        self.speedPreset = speedPreset
    }

    /// About 0.07 bits per pixel per frame: ~1.9 Mbit/s for 720p30, ~4.4 Mbit/s for 1080p30.
    public func effectiveBitrate(size: FrameSize, rate: FrameRateValue) -> Int {
        if let bitrate { return bitrate }
        let bits = Double(size.width * size.height) * rate.framesPerSecond * 0.07
        return max(200, Int(bits / 1000))
    }

    /// The x264enc element with its properties.
    public func element(size: FrameSize, rate: FrameRateValue) -> String {
        let gop = max(1, Int((keyframeInterval * rate.framesPerSecond).rounded()))
        return "x264enc speed-preset=\(speedPreset) tune=zerolatency key-int-max=\(gop) "
            + "bitrate=\(effectiveBitrate(size: size, rate: rate))"
    }
}

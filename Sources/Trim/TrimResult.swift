/// What a trim made, for the JSON result line and the human summary.
public struct TrimResult: Sendable, Codable, Equatable {
    /// The mode actually used (a fallback differs from the one asked for).
    public var mode: TrimMode
    /// The mode asked for.
    public var requestedMode: TrimMode
    /// Why the mode used differs from the one asked for, if it does.
    public var fallbackReason: String?
    /// The output file.
    public var output: String
    /// The output's size in bytes.
    public var bytes: Int64
    /// Time of the output's first frame on the input's timeline, in seconds.
    public var firstFrameTime: Double
    /// Time of the output's last frame on the input's timeline, in seconds.
    public var lastFrameTime: Double
    /// The output's video duration (last frame's end minus first frame's start), in seconds.
    public var duration: Double
    /// Video frames in the output.
    public var frames: Int
    /// Video frames copied bit-exact from the input.
    public var framesCopied: Int
    /// Video frames re-encoded.
    public var framesReencoded: Int
    /// Audio packets copied, over all sound tracks (0 when the input has no audio).
    public var audioPackets: Int
    /// The output's tracks, in order.
    public var tracks: [TrimTrack]
    /// What could not be kept, one sentence each (a track of the input that is not in the
    /// output, and why); empty when everything was kept.
    public var warnings: [String]

    /// Creates a result.
    public init(
        mode: TrimMode, requestedMode: TrimMode, fallbackReason: String?, output: String, bytes: Int64,
        firstFrameTime: Double, lastFrameTime: Double, duration: Double, frames: Int, framesCopied: Int,
        framesReencoded: Int, audioPackets: Int, tracks: [TrimTrack] = [], warnings: [String] = []
    ) {
        self.mode = mode
        self.requestedMode = requestedMode
        self.fallbackReason = fallbackReason
        self.output = output
        self.bytes = bytes
        self.firstFrameTime = firstFrameTime
        self.lastFrameTime = lastFrameTime
        self.duration = duration
        self.frames = frames
        self.framesCopied = framesCopied
        self.framesReencoded = framesReencoded
        self.audioPackets = audioPackets
        self.tracks = tracks
        self.warnings = warnings
    }
}

/// One track of a trimmed movie.
public struct TrimTrack: Sendable, Codable, Equatable {
    /// What a track holds.
    public enum Kind: String, Sendable, Codable {
        case video, audio, subtitle, timecode, data
    }

    /// What it holds.
    public var kind: Kind
    /// Its codec: the sample description's type in MP4/MOV ("avc1", "mp4a", "tx3g", "tmcd"),
    /// the media type otherwise ("audio/x-opus").
    public var codec: String
    /// The samples written (frames, packets, cues).
    public var samples: Int

    /// Creates a track description.
    public init(kind: Kind, codec: String, samples: Int) {
        self.kind = kind
        self.codec = codec
        self.samples = samples
    }
}

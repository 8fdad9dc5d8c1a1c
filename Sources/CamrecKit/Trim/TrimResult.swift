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
    /// Audio packets copied (0 when the input has no audio).
    public var audioPackets: Int

    /// Creates a result.
    public init(
        mode: TrimMode, requestedMode: TrimMode, fallbackReason: String?, output: String, bytes: Int64,
        firstFrameTime: Double, lastFrameTime: Double, duration: Double, frames: Int, framesCopied: Int,
        framesReencoded: Int, audioPackets: Int
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
    }
}

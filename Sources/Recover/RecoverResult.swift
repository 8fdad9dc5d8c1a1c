import CamrecCore
import MediaValues

/// What `camrec recover` did with one file: the JSON `result` line, and the human line.
public struct RecoverResult: Sendable, Encodable, Equatable {
    /// What became of the file.
    public enum Status: String, Sendable, Encodable {
        /// A finished movie was written (to `output`).
        case recovered
        /// The file already is a finished movie: left alone.
        case complete
        /// Nothing was written (see `message` and `exit_code`).
        case refused
        /// camrec's partial file held no frame: it was removed (see `message`).
        case removed
    }

    /// The input, as typed.
    public var input: String
    /// The finished movie (recovered only), as typed or derived from the input's spelling.
    public var output: String?
    /// What became of it.
    public var status: Status
    /// The input's container, as read from its bytes.
    public var container: MediaContainer?
    /// Video frames in the finished movie (or the complete file).
    public var frames: Int?
    /// Their duration in seconds (the longest track's when there is no video).
    public var duration: Double?
    /// The size of the finished movie (of the input when complete).
    public var bytes: Int64?
    /// Bytes at the end of the input that were left out: a torn fragment or block, or data
    /// whose index was never written.
    public var lostTailBytes: Int64?
    /// Each track of the finished movie.
    public var tracks: [RecoveredTrack]?
    /// Why it was refused, or a note.
    public var message: String?
    /// The exit status this file alone would give (refused only).
    public var exitCode: Int32?

    /// A refusal of `input` for `error`.
    public static func refused(_ input: String, _ error: CamrecError) -> RecoverResult {
        RecoverResult(input: input, status: .refused, message: error.message, exitCode: error.status.rawValue)
    }
}

/// One track of a recovered movie.
public struct RecoveredTrack: Sendable, Encodable, Equatable {
    /// "video", "audio" or "other".
    public var kind: String
    /// The codec as the container names it: "avc1", "mp4a", "V_MPEG4/ISO/AVC", "A_AAC"…
    public var codec: String
    /// Samples (frames, audio packets or blocks).
    public var samples: Int
    /// Seconds from its first sample to the end of its last (nil when unknown).
    public var duration: Double?
}

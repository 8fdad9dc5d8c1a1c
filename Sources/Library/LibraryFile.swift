/// One file of a recordings folder as `camrec ls` reports it: what it is (a movie, a clip,
/// a still, or a foreign file), when it was captured, what it holds, and whether it is
/// whole. Read from the file's headers only (``LibraryFileReader``).
public struct LibraryFile: Sendable, Equatable {
    /// What a file is.
    public enum Kind: String, Sendable, Equatable, Codable {
        /// A movie or a segment of a series.
        case movie
        /// An event clip (`NAME-clip-0001.EXT`).
        case clip
        /// A still (`NAME-still-0001.jpg`).
        case still
        /// Not a movie or still camrec reads (listed, never an error).
        case foreign
    }

    /// Whether a movie is whole.
    public enum Health: Sendable, Equatable {
        /// Finalised: plays and seeks everywhere.
        case complete
        /// Not finalised (a `.partial` file, or a fragmented movie): `camrec recover` finishes it.
        case unfinished
        /// Cannot be read; why.
        case unreadable(String)

        /// `complete`, `unfinished` or `unreadable`.
        public var name: String {
            switch self {
            case .complete: "complete"
            case .unfinished: "unfinished"
            case .unreadable: "unreadable"
            }
        }
    }

    /// Where a start time comes from.
    public enum TimeSource: String, Sendable, Equatable, Codable {
        /// The capture time of the first frame, to the millisecond, as camrec writes it
        /// (MP4/MOV: `com.apple.quicktime.creationdate`; Matroska: `DateUTC`; stills: EXIF).
        case captureTime = "capture-time"
        /// The movie header's creation time: whole seconds (a movie camrec did not stamp).
        case movieHeader = "movie-header"
        /// The file's modification time (a still without EXIF).
        case fileTime = "file-time"
    }

    /// The path, as given or found (folder + name).
    public var path: String
    /// The file's name: what the series are told from.
    public var name: RecordingName
    /// What it is.
    public var kind: Kind
    /// `mp4`, `mov`, `mkv`, `webm`, `jpeg` or `png`; nil for a foreign file.
    public var format: String?
    /// The first frame's wall-clock time in milliseconds since 1970 UTC; nil when unknown.
    public var startMilliseconds: Int64?
    /// Where `startMilliseconds` comes from.
    public var timeSource: TimeSource?
    /// The video's duration in seconds (movies).
    public var duration: Double?
    /// Video frames (movies); see `framesEstimated`.
    public var frames: Int?
    /// Whether `frames` is derived from the duration and the frame rate (Matroska stores no count).
    public var framesEstimated = false
    /// The file's size in bytes.
    public var bytes: Int64
    /// The video codec (`h264`, `hevc`, `mjpeg`, …, or the container's own code) and the picture size.
    public var videoCodec: String?
    public var width: Int?
    /// The picture's height (with `width`).
    public var height: Int?
    /// The sound codec (`aac`, `opus`, …); nil: no sound.
    public var soundCodec: String?
    /// Whether a movie is whole (stills: complete).
    public var health: Health
    /// Why a file is foreign; for a movie being written, which process writes it.
    public var note: String?
    /// An unfinished partial file that `camrec recover` has made a movie of already: that
    /// movie's path (the partial file is kept until removed, or recovered `--in-place`).
    public var recoveredAs: String?
    /// The process that has an unfinished movie open for writing (a recording in progress:
    /// not to be recovered); nil when none.
    public var writer: Int32?

    /// The wall-clock time just after the last frame (start + duration), in milliseconds.
    public var endMilliseconds: Int64? {
        guard let start = startMilliseconds, let duration else { return nil }
        return start + Int64((duration * 1000).rounded())
    }

    /// The duration of one frame in seconds, from the duration and the frame count.
    public var frameDuration: Double? {
        guard let duration, let frames, frames > 0, duration > 0 else { return nil }
        return duration / Double(frames)
    }

    /// The command that finishes an unfinished movie: `camrec recover 'PATH'`.
    public var recoverCommand: String? {
        guard case .unfinished = health, writer == nil, recoveredAs == nil else { return nil }
        return "camrec recover " + ShellWord.quoted(path)
    }
}

/// A word quoted for a POSIX shell, only when it needs it.
enum ShellWord {
    static func quoted(_ word: String) -> String {
        let safe = word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./+,:=@%".contains($0)) }
        if safe && !word.isEmpty { return word }
        return "'" + word.replacing("'", with: "'\\''") + "'"
    }
}

import CamrecCore
import Matroska
import MP4
#if canImport(Glibc)
import Glibc
#endif

/// Reads one file of a recordings folder into a ``LibraryFile``, from its headers only:
/// an MP4/MOV's box headers and small header boxes (``MovieSummary``), a Matroska file's
/// first elements (``MatroskaHead``), a still's first bytes. Only an unfinished movie is
/// walked further (its fragments or blocks: ``UnfinalisedMovie``), since its headers do
/// not say what it holds.
public enum LibraryFileReader {
    /// Reads the file at `path` (a regular file of `bytes` bytes, modified at `modified`,
    /// milliseconds since 1970), named as `name` says.
    public static func read(path: String, name: RecordingName, bytes: Int64, modified: Int64) -> LibraryFile {
        var file = LibraryFile(path: path, name: name, kind: .foreign, format: nil, bytes: bytes, health: .complete)
        guard let head = FileHead.read(path, count: 16) else {
            file.health = .unreadable("cannot be opened: \(systemMessage(errno))")
            file.kind = name.isMovieName ? kind(name) : .foreign
            return file
        }
        if head.count >= 8, Array(head[4..<8]) == Array("ftyp".utf8) || ["moov", "mdat", "free", "wide"].contains(String(decoding: head[4..<8], as: UTF8.self)) {
            readMP4(&file)
        } else if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) {
            readMatroska(&file)
        } else if head.starts(with: [0xFF, 0xD8, 0xFF]) || head.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            readStill(&file, png: head.first == 0x89, modified: modified)
        } else if name.isMovieName {
            file.kind = kind(name)
            file.health = .unreadable(bytes == 0 ? "empty (0 bytes)" : "not a movie: its first bytes are not MP4, QuickTime or Matroska")
        } else {
            file.note = "not a movie or still"
        }
        return file
    }

    /// A movie's kind from its name: a clip or a movie.
    private static func kind(_ name: RecordingName) -> LibraryFile.Kind { name.marker == .clip ? .clip : .movie }

    private static func readMP4(_ file: inout LibraryFile) {
        file.kind = kind(file.name)
        file.format = file.name.fileExtension == "mov" || file.name.fileExtension == "qt" ? "mov" : "mp4"
        let summary: MovieSummary
        do {
            summary = try MovieSummary.read(path: file.path)
        } catch {
            // camrec's partial file killed before its muxer wrote a movie box: its frames
            // are in the data, where `camrec recover` finds them.
            if file.name.partial, file.bytes > 0 {
                file.health = .unfinished
                file.note = error.reason
            } else {
                file.health = .unreadable(error.reason)
            }
            return
        }
        if summary.majorBrand == "qt  " { file.format = "mov" }
        if let video = summary.video {
            file.videoCodec = codecName(video.codec)
            file.width = video.width
            file.height = video.height
            file.frames = video.sampleCount
            file.duration = rounded(video.seconds)
        }
        file.soundCodec = summary.sound.map { codecName($0.codec) }
        if let stamp = summary.captureTime, let milliseconds = CaptureTimeStamp(iso8601: stamp)?.unixMilliseconds {
            file.startMilliseconds = milliseconds
            file.timeSource = .captureTime
        } else if summary.creationTime > 0 {
            file.startMilliseconds = (Int64(clamping: summary.creationTime) - 2_082_844_800) * 1000
            file.timeSource = .movieHeader
        }
        guard summary.fragmented || file.name.partial else { return }
        file.health = .unfinished
        if summary.fragmented, let movie = try? FragmentedMovie.scan(path: file.path) {
            file.frames = movie.frames
            file.duration = rounded(movie.seconds)
        }
    }

    private static func readMatroska(_ file: inout LibraryFile) {
        file.kind = kind(file.name)
        file.format = "mkv"
        let head: MatroskaHead
        do {
            head = try MatroskaHead.read(path: file.path)
        } catch {
            file.health = .unreadable(error.reason)
            return
        }
        if head.docType == "webm" { file.format = "webm" }
        if let video = head.video {
            file.videoCodec = codecName(video.codecID)
            file.width = video.width
            file.height = video.height
        }
        file.soundCodec = head.audio.map { codecName($0.codecID) }
        if let unix = head.unixTime {
            file.startMilliseconds = Int64((unix * 1000).rounded())
            file.timeSource = .captureTime
        }
        if head.finalised, !file.name.partial, let seconds = head.seconds, seconds > 0 {
            file.duration = rounded(seconds)
            file.frames = head.estimatedFrames
            file.framesEstimated = head.estimatedFrames != nil
            return
        }
        file.health = .unfinished
        let frameSeconds = head.video?.defaultDuration.map { Double($0) / 1e9 } ?? 0
        if let movie = UnfinalisedMovie.measure(path: file.path, container: .matroska, frameDuration: frameSeconds) {
            file.frames = movie.frames
            file.duration = movie.seconds
        }
    }

    private static func readStill(_ file: inout LibraryFile, png: Bool, modified: Int64) {
        file.kind = .still
        file.format = png ? "png" : "jpeg"
        guard let head = FileHead.read(file.path, count: 16 << 10) else { return }
        let still = StillHead(head, png: png)
        file.width = still.width
        file.height = still.height
        if let time = still.captureMilliseconds {
            file.startMilliseconds = time
            file.timeSource = .captureTime
        } else {
            file.startMilliseconds = modified
            file.timeSource = .fileTime
        }
    }

    /// A codec's usual short name for a sample entry code or Matroska codec ID.
    static func codecName(_ code: String) -> String {
        switch code {
        case "avc1", "avc3", "V_MPEG4/ISO/AVC": "h264"
        case "hvc1", "hev1", "V_MPEGH/ISO/HEVC": "hevc"
        case "mp4v", "V_MPEG4/ISO/ASP": "mpeg4"
        case "jpeg", "mjpa", "mjpb", "V_MJPEG": "mjpeg"
        case "vp08", "V_VP8": "vp8"
        case "vp09", "V_VP9": "vp9"
        case "av01", "V_AV1": "av1"
        case "mp4a", "A_AAC", "A_AAC/MPEG4/LC", "A_AAC/MPEG2/LC": "aac"
        case "Opus", "A_OPUS": "opus"
        case "A_VORBIS": "vorbis"
        case "sowt", "twos", "lpcm", "A_PCM/INT/LIT", "A_PCM/INT/BIG": "pcm"
        case "A_FLAC", "fLaC": "flac"
        case "A_MPEG/L3", ".mp3": "mp3"
        default: String(code.filter { $0 != " " })
        }
    }

    private static func rounded(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }
}

import CamrecCore
#if canImport(Glibc)
import Glibc
#endif
import Matroska

/// WebM output (`-o clip.webm`, or the default name of a `.webm` input): Matroska as
/// matroskamux writes it, whose EBML header then names the `webm` doctype instead of
/// `matroska`, for the streams WebM allows (VP8, VP9 or AV1 video; Opus or Vorbis sound;
/// WebVTT subtitles).
enum WebMDocType {
    /// The video and sound a WebM file may hold.
    static let videoTypes = ["video/x-vp8", "video/x-vp9", "video/x-av1"]
    static let soundTypes = ["audio/x-opus", "audio/x-vorbis"]

    /// Refuses (invalid input, 65) a cut whose video (written as `codec`) or other
    /// streams WebM cannot hold, naming the way out.
    static func checkHoldable(_ index: FrameIndex, codec: TrimCodec, name: String) throws(CamrecError) {
        guard videoTypes.contains(codec.mediaType) else {
            throw .invalidInput(
                "cannot trim \(name) to .webm: WebM holds VP8, VP9 or AV1 video, not \(codec.displayName); write .mkv"
            )
        }
        for stream in index.streams {
            let holdable = switch stream.kind {
            case .audio: soundTypes.contains(stream.mediaType)
            case .subtitle: stream.mediaType == "application/x-subtitle-vtt"
            default: true   // video beyond the first, timecode, data: not written (a warning says so)
            }
            guard holdable else {
                throw .invalidInput(
                    "cannot trim \(name) to .webm: WebM cannot hold its \(stream.kind.rawValue) stream"
                        + " (\(stream.mediaType)); write .mkv"
                )
            }
        }
    }

    /// Rewrites the doctype of the Matroska file at `path` to `webm`, in place: the
    /// "matroska" string (matroskamux writes it with a trailing NUL) becomes "webm" and an
    /// EBML Void element fills the bytes left, so no size changes.
    static func mark(_ path: String) throws(CamrecError) {
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw .failed("cannot reopen \(path) to mark it WebM") }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 64)
        let got = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 64, 0) }
        // DocType element: ID 0x4282, a one-byte size (8 or 9), "matroska" (and a NUL).
        let bytes = Array(header.prefix(max(0, got)))
        guard let at = firstIndex(of: EBML.idBytes(EBML.ID.docType), in: bytes), at + 3 <= bytes.count,
              case let size = Int(bytes[at + 2]) - 0x80, size >= 8, size <= 10, at + 3 + size <= bytes.count,
              Array(bytes[(at + 3)..<(at + 11)]) == Array("matroska".utf8)
        else {
            throw .failed("the Matroska header of \(path) has no doctype to mark as WebM")
        }
        let replacement = EBML.element(EBML.ID.docType, Array("webm".utf8)) + (EBML.void(total: 3 + size - 7) ?? [])
        let written = replacement.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(at)) }
        guard written == replacement.count else { throw .failed("cannot mark \(path) as WebM") }
    }

    private static func firstIndex(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        return (0...(bytes.count - pattern.count)).first { Array(bytes[$0..<$0 + pattern.count]) == pattern }
    }
}

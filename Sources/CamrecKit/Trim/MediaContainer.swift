import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The container formats trim reads and writes.
public enum MediaContainer: String, Sendable, Codable {
    /// ISO base media (MP4, M4V).
    case mp4
    /// QuickTime.
    case mov
    /// Matroska (MKV).
    case matroska
    /// AVI (RIFF), as older cameras and dashcams write it: read only, its trims are written
    /// as Matroska (``written``).
    case avi

    /// The GStreamer demuxer for this container.
    var demuxer: String {
        switch self {
        case .matroska: "matroskademux"
        case .avi: "avidemux"
        case .mp4, .mov: "qtdemux"
        }
    }

    /// The container a trim of an input in this one writes unless told otherwise: its own,
    /// but Matroska for AVI (camrec writes no AVI; Matroska holds every stream an AVI can).
    var written: MediaContainer { self == .avi ? .matroska : self }

    /// The GStreamer muxer that writes this container.
    var muxer: String {
        switch self {
        case .mp4: "mp4mux"
        case .mov: "qtmux"
        case .matroska: "matroskamux"
        case .avi: "avimux"
        }
    }

    /// The usual file name extension, without the dot.
    var fileExtension: String {
        switch self {
        case .mp4: "mp4"
        case .mov: "mov"
        case .matroska: "mkv"
        case .avi: "avi"
        }
    }

    /// The container an output file name asks for, if its extension names one.
    static func forExtension(_ pathExtension: String) -> MediaContainer? {
        switch pathExtension.lowercased() {
        case "mp4", "m4v": .mp4
        case "mov", "qt": .mov
        case "mkv", "webm": .matroska
        default: nil
        }
    }

    /// Recognises the container from the first bytes of a file; nil when it is none of ours.
    static func sniff(_ header: [UInt8]) -> MediaContainer? {
        if header.count >= 4, header[0] == 0x1A, header[1] == 0x45, header[2] == 0xDF, header[3] == 0xA3 {
            return .matroska
        }
        guard header.count >= 8 else { return nil }
        if header.count >= 12, header[0..<4].elementsEqual("RIFF".utf8), header[8..<12].elementsEqual("AVI ".utf8) {
            return .avi
        }
        let box = String(decoding: header[4..<8], as: UTF8.self)
        switch box {
        case "ftyp":
            let brand = header.count >= 12 ? String(decoding: header[8..<12], as: UTF8.self) : ""
            return brand == "qt  " ? .mov : .mp4
        case "moov", "mdat", "wide", "free", "skip", "pnot":
            return .mov
        default:
            return nil
        }
    }

    /// Opens `path`, checks it is a readable, non-empty movie file of a known container.
    static func identify(path: String) throws(CamrecError) -> MediaContainer {
        let name = PathName.last(path)
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { throw .invalidInput("cannot read \(path): no such file") }
            throw .invalidInput("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .invalidInput("cannot trim \(path): it is a folder, not a movie")
        default:
            // A device, pipe or socket: reading it would hang or give endless bytes.
            throw .invalidInput("cannot trim \(path): it is not a movie file (it is \(fileKind(info.st_mode)))")
        }
        guard let header = FileHead.read(path, count: 64) else {
            throw .invalidInput("cannot read \(path): permission denied or unreadable")
        }
        guard !header.isEmpty else { throw .invalidInput("cannot trim \(name): the file is empty") }
        guard let container = sniff(header) else {
            throw .invalidInput("cannot trim \(name): not an MP4, MOV, MKV or AVI movie")
        }
        return container
    }

    /// "a character device", "a pipe", … for a file that is not a regular file.
    private static func fileKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a pipe"
        case S_IFSOCK: "a socket"
        default: "something other than a regular file"
        }
    }
}

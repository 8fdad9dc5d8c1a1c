import CamrecCore
import FoundationEssentials
import MediaValues
#if canImport(Glibc)
import Glibc
#endif
import Matroska

/// What trim needs of a container (``MediaContainer``): its GStreamer demuxer and muxer,
/// what a trim of it writes, and how an input is recognised from its first bytes. Trim
/// reads MP4, MOV, Matroska and AVI, and writes all but AVI; WebM is Matroska to it (an
/// input is sniffed as Matroska, a `.webm` output is written as Matroska and marked after).
extension MediaContainer {
    /// The GStreamer demuxer for this container.
    var demuxer: String {
        switch self {
        case .matroska, .webm: "matroskademux"
        case .avi: "avidemux"
        case .mp4, .mov: "qtdemux"
        }
    }

    /// The container a trim of an input in this one writes unless told otherwise: its own,
    /// but Matroska for AVI (camrec writes no AVI; Matroska holds every stream an AVI can).
    var written: MediaContainer { self == .avi ? .matroska : self }

    /// Recognises the container from the first bytes of a file; nil when it is none of ours.
    static func sniff(_ header: [UInt8]) -> MediaContainer? {
        if header.starts(with: EBML.idBytes(EBML.ID.header)) { return .matroska }
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

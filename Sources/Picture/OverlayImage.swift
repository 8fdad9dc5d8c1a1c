import CamrecCore
import FoundationEssentials
import MediaValues
#if canImport(Glibc)
import Glibc
#endif

/// A PNG placed over the picture (`--overlay-image FILE.png`): a logo or a mask; its
/// alpha channel is respected. Checked when camrec starts, before anything is recorded.
public struct OverlayImage: Sendable, Equatable {
    /// The file, as an absolute path (the pipeline may be printed and run elsewhere).
    public let path: String
    /// Its size in pixels, from its header.
    public let size: FrameSize
    /// Where it goes.
    public var position: OverlayPosition

    /// Reads and checks the PNG at `path`: it must exist, be readable and be a PNG whose
    /// header gives a size. Errors are `invalidInput` (exit 65), as for trim's input.
    /// `option` names the option in messages (`--motion-mask` and `--mask-image` read their
    /// PNG the same way); `missing` is the kind of error for a file that is not there
    /// (`--mask-image`: `noCamera`, exit 66, as for a missing input).
    public static func load(_ path: String, position: OverlayPosition, option: String = "--overlay-image",
                            missing: CamrecError.Kind = .invalidInput) throws(CamrecError) -> OverlayImage {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var info = stat()
        guard stat(absolute, &info) == 0 else {
            throw CamrecError(missing, "\(option) \(path): no such file: give a PNG image" + (option == "--overlay-image" ? " (e.g. a logo with transparency)" : ""))
        }
        guard info.st_mode & S_IFMT != S_IFDIR else {
            throw CamrecError(.invalidInput, "\(option) \(path) is a folder: give a PNG image file")
        }
        guard let header = FileHead.read(absolute, count: 33) else {
            throw CamrecError(.invalidInput, "\(option) \(path): cannot read it (check its permissions)")
        }
        guard let size = pngSize(Array(header)) else {
            throw CamrecError(.invalidInput, "\(option) \(path) is not a PNG image: give a .png file (convert others with e.g. ffmpeg -i logo.jpg logo.png)")
        }
        return OverlayImage(path: absolute, size: size, position: position)
    }

    /// The width and height of a PNG from its first 33 bytes (signature and IHDR chunk);
    /// nil when they are not a PNG's.
    static func pngSize(_ bytes: [UInt8]) -> FrameSize? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let (width, height) = (word(16), word(20))
        guard width > 0, height > 0, width <= 1 << 16, height <= 1 << 16 else { return nil }
        return FrameSize(width: width, height: height)
    }
}

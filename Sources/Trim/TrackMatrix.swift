import MP4
#if canImport(Glibc)
import Glibc
#endif

/// The display matrix of an MP4/MOV video track (`tkhd`), which carries rotation.
///
/// GStreamer 1.22's `mp4mux`/`qtmux` do not write a matrix from the `image-orientation`
/// tag that `qtdemux` reports, so trim copies the input's matrix into the output's video
/// `tkhd` itself, in place, before the output is renamed into place.
enum TrackMatrix {
    static let identity: [UInt8] = [
        0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0,
    ]

    /// The first video track's matrix (36 bytes), when the file is ISO BMFF and has one.
    static func videoMatrix(in path: String) -> [UInt8]? {
        guard let file = try? SampleFile(path: path), let location = videoMatrixLocation(in: file) else { return nil }
        return try? file.read(offset: location, count: 36)
    }

    /// Writes `matrix` into the first video track's `tkhd` of `path`; false when there is
    /// none or the write fails.
    @discardableResult
    static func setVideoMatrix(_ matrix: [UInt8], in path: String) -> Bool {
        guard matrix.count == 36, let file = try? SampleFile(path: path),
              let location = videoMatrixLocation(in: file) else { return false }
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return matrix.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, 36, off_t(location)) } == 36
    }

    /// The file offset of the first video track's `tkhd` matrix, found with the MP4
    /// module's box reader (plain and fragmented files alike).
    private static func videoMatrixLocation(in file: SampleFile) -> UInt64? {
        guard let moov = (try? Box.topLevel(in: file))?.first("moov"), moov.end - moov.start < 64 << 20,
              let bytes = try? file.read(offset: UInt64(moov.start), count: moov.end - moov.start)
        else { return nil }
        return matrixOffset(inMoov: bytes).map { UInt64(moov.start + $0) }
    }

    /// Offset, within a whole `moov` box, of the matrix of the first track whose handler
    /// is `vide`.
    static func matrixOffset(inMoov moov: [UInt8]) -> Int? {
        guard let top = Box.children(of: moov, in: 0..<moov.count)?.first("moov"),
              let tracks = Box.children(of: moov, in: top.payload) else { return nil }
        for trak in tracks where trak.type == "trak" {
            guard let parts = Box.children(of: moov, in: trak.payload),
                  let tkhd = parts.first("tkhd"), let mdia = parts.first("mdia"),
                  let hdlr = Box.children(of: moov, in: mdia.payload)?.first("hdlr"),
                  hdlr.payloadStart + 12 <= hdlr.end, tkhd.payloadStart < tkhd.end,
                  String(decoding: moov[(hdlr.payloadStart + 8)..<(hdlr.payloadStart + 12)], as: UTF8.self) == "vide"
            else { continue }
            let offset = tkhd.payloadStart + (moov[tkhd.payloadStart] == 1 ? 52 : 40)
            return offset + 36 <= tkhd.end ? offset : nil
        }
        return nil
    }
}

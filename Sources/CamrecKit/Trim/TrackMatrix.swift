import Foundation

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
        guard let location = videoMatrixLocation(in: path),
              let handle = FileHandle(forReadingAtPath: path)
        else { return nil }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: location)) != nil else { return nil }
        let bytes = [UInt8](handle.readData(ofLength: 36))
        return bytes.count == 36 ? bytes : nil
    }

    /// Writes `matrix` into the first video track's `tkhd` of `path`; false when there is none.
    @discardableResult
    static func setVideoMatrix(_ matrix: [UInt8], in path: String) -> Bool {
        guard matrix.count == 36, let location = videoMatrixLocation(in: path),
              let handle = FileHandle(forUpdatingAtPath: path)
        else { return false }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: location)) != nil else { return false }
        handle.write(Data(matrix))
        return true
    }

    /// The file offset of the first video track's `tkhd` matrix.
    private static func videoMatrixLocation(in path: String) -> UInt64? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        // Find `moov` among the top-level boxes, skipping the (large) others.
        var offset: UInt64 = 0
        while true {
            guard (try? handle.seek(toOffset: offset)) != nil else { return nil }
            let header = [UInt8](handle.readData(ofLength: 16))
            guard header.count >= 8 else { return nil }
            var size = UInt64(bigEndian32(header, 0))
            var headerSize: UInt64 = 8
            if size == 1, header.count == 16 {
                size = UInt64(bigEndian32(header, 8)) << 32 | UInt64(bigEndian32(header, 12))
                headerSize = 16
            }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if type == "moov" {
                let length = size == 0 ? 64 << 20 : min(size - headerSize, 64 << 20)
                guard (try? handle.seek(toOffset: offset + headerSize)) != nil else { return nil }
                let moov = [UInt8](handle.readData(ofLength: Int(length)))
                return matrixOffset(inMoov: moov).map { offset + headerSize + UInt64($0) }
            }
            guard size >= headerSize else { return nil }
            offset += size
        }
    }

    /// Offset, within the `moov` payload, of the matrix of the first track whose handler is `vide`.
    static func matrixOffset(inMoov moov: [UInt8]) -> Int? {
        for trak in boxes(in: moov, from: 0, to: moov.count) where trak.type == "trak" {
            var matrix: Int?
            var isVideo = false
            for child in boxes(in: moov, from: trak.payload, to: trak.end) {
                if child.type == "tkhd", child.payload < moov.count {
                    let version = moov[child.payload]
                    let offset = child.payload + (version == 1 ? 52 : 40)
                    if offset + 36 <= child.end { matrix = offset }
                }
                if child.type == "mdia" {
                    for box in boxes(in: moov, from: child.payload, to: child.end) where box.type == "hdlr" {
                        let handler = box.payload + 8
                        if handler + 4 <= box.end { isVideo = String(decoding: moov[handler..<handler + 4], as: UTF8.self) == "vide" }
                    }
                }
            }
            if isVideo, let matrix { return matrix }
        }
        return nil
    }

    private struct Box {
        var type: String
        var payload: Int
        var end: Int
    }

    private static func boxes(in bytes: [UInt8], from start: Int, to end: Int) -> [Box] {
        var result: [Box] = []
        var offset = start
        while offset + 8 <= end {
            let size = Int(bigEndian32(bytes, offset))
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let boxEnd = size == 0 ? end : offset + size
            guard size == 0 || size >= 8, boxEnd <= end else { break }
            result.append(Box(type: type, payload: offset + 8, end: boxEnd))
            offset = boxEnd
        }
        return result
    }

    private static func bigEndian32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }
}

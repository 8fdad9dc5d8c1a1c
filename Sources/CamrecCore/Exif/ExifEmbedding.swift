/// Puts an EXIF block (a TIFF structure, `StillExif.tiff()`) into an encoded still,
/// without touching its picture data: a JPEG gets an APP1 `Exif\0\0` segment after SOI
/// (after a JFIF/AVI1 APP0, which must stay first), a PNG an `eXIf` chunk after IHDR.
/// An EXIF block the image already had is replaced, never doubled.
public enum ExifEmbedding {
    /// Why a still could not take EXIF: its bytes are not the JPEG or PNG they should be.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let message: String
        init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    /// The largest TIFF block an APP1 segment holds (its length field counts itself and
    /// `Exif\0\0`).
    public static let jpegLimit = 0xFFFF - 2 - 6

    /// `jpeg` with `tiff` as its APP1 EXIF segment.
    public static func jpeg(_ jpeg: [UInt8], tiff: [UInt8]) throws(Failure) -> [UInt8] {
        guard tiff.count <= jpegLimit else { throw Failure("the EXIF block (\(tiff.count) bytes) is larger than a JPEG segment holds") }
        let segments = try JPEGSegments(jpeg)
        var output: [UInt8] = [0xFF, 0xD8]
        output.reserveCapacity(jpeg.count + tiff.count + 10)
        // APP0 (JFIF, JFXX, AVI1) stays right after SOI, where readers look for it.
        let leadingAPP0 = segments.headers.prefix { $0.marker == 0xE0 }
        for segment in leadingAPP0 { output += jpeg[segment.range] }
        let payload = exifHeader + tiff
        output += [0xFF, 0xE1] + BigEndian.bytes(UInt16(payload.count + 2)) + payload
        for segment in segments.headers.dropFirst(leadingAPP0.count) where !segment.isExif(in: jpeg) {
            output += jpeg[segment.range]
        }
        output += jpeg[segments.scanStart...]
        return output
    }

    /// `png` with `tiff` as its `eXIf` chunk, right after IHDR (before any IDAT).
    public static func png(_ png: [UInt8], tiff: [UInt8]) throws(Failure) -> [UInt8] {
        let chunks = try PNGChunks(png)
        guard let header = chunks.list.first, header.type == "IHDR" else { throw Failure("the PNG does not start with IHDR") }
        var output = Array(png[0..<8])
        output.reserveCapacity(png.count + tiff.count + 12)
        output += png[header.range]
        output += PNGChunks.chunk(type: "eXIf", data: tiff)
        for chunk in chunks.list.dropFirst() where chunk.type != "eXIf" { output += png[chunk.range] }
        return output
    }

    /// The width and height a JPEG's frame header (SOF) states.
    public static func jpegSize(_ jpeg: [UInt8]) throws(Failure) -> (width: Int, height: Int) {
        let segments = try JPEGSegments(jpeg)
        // SOF0…SOF15, except DHT (C4), JPG (C8) and DAC (CC).
        guard let frame = segments.headers.first(where: { (0xC0...0xCF).contains($0.marker) && ![0xC4, 0xC8, 0xCC].contains($0.marker) }),
              frame.range.count >= 9 else {
            throw Failure("the JPEG has no frame header (SOF)")
        }
        let start = frame.range.lowerBound
        return (Int(BigEndian.uint16(jpeg, at: start + 7)), Int(BigEndian.uint16(jpeg, at: start + 5)))
    }

    /// The width and height a PNG's IHDR states.
    public static func pngSize(_ png: [UInt8]) throws(Failure) -> (width: Int, height: Int) {
        let chunks = try PNGChunks(png)
        guard let header = chunks.list.first, header.type == "IHDR", header.range.count >= 8 + 8 + 4 else {
            throw Failure("the PNG does not start with IHDR")
        }
        let data = header.range.lowerBound + 8
        return (Int(BigEndian.uint32(png, at: data)), Int(BigEndian.uint32(png, at: data + 4)))
    }

    static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]

    /// A JPEG's marker segments before its first scan (SOS), each with its marker and
    /// length bytes; and where the scan starts.
    struct JPEGSegments {
        struct Segment {
            var marker: UInt8
            /// From the 0xFF of its marker to its last byte.
            var range: Range<Int>

            func isExif(in jpeg: [UInt8]) -> Bool {
                marker == 0xE1 && range.count >= 4 + 6 && Array(jpeg[(range.lowerBound + 4)..<(range.lowerBound + 10)]) == ExifEmbedding.exifHeader
            }
        }

        var headers: [Segment] = []
        /// The first byte of the SOS marker.
        var scanStart: Int

        init(_ jpeg: [UInt8]) throws(Failure) {
            guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { throw Failure("not a JPEG (no SOI marker)") }
            var index = 2
            while true {
                guard index + 1 < jpeg.count, jpeg[index] == 0xFF else {
                    throw Failure("the JPEG's header is cut short or damaged at byte \(index)")
                }
                let marker = jpeg[index + 1]
                // Fill bytes: 0xFF repeated before a marker.
                if marker == 0xFF { index += 1; continue }
                if marker == 0xDA { scanStart = index; return }
                // Markers without a length: TEM, RST0-7 (not expected before a scan, but harmless).
                if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                    headers.append(Segment(marker: marker, range: index..<(index + 2)))
                    index += 2
                    continue
                }
                guard marker != 0xD9, marker != 0xD8, index + 3 < jpeg.count else {
                    throw Failure("the JPEG has no image data (no SOS marker)")
                }
                let length = Int(BigEndian.uint16(jpeg, at: index + 2))
                guard length >= 2, index + 2 + length <= jpeg.count else {
                    throw Failure("the JPEG's segment at byte \(index) runs past its end")
                }
                headers.append(Segment(marker: marker, range: index..<(index + 2 + length)))
                index += 2 + length
            }
        }
    }

    /// A PNG's chunks, checked to lie within the file (their CRCs are not checked: the
    /// encoder made them).
    struct PNGChunks {
        struct Chunk {
            var type: String
            /// From its length field to the end of its CRC.
            var range: Range<Int>
        }

        static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var list: [Chunk] = []

        init(_ png: [UInt8]) throws(Failure) {
            guard png.count >= 8, Array(png[0..<8]) == Self.signature else { throw Failure("not a PNG (no PNG signature)") }
            var index = 8
            while index < png.count {
                guard index + 12 <= png.count else { throw Failure("the PNG is cut short at byte \(index)") }
                let length = Int(BigEndian.uint32(png, at: index))
                guard length <= png.count - index - 12 else { throw Failure("the PNG's chunk at byte \(index) runs past its end") }
                let type = String(decoding: png[(index + 4)..<(index + 8)], as: UTF8.self)
                list.append(Chunk(type: type, range: index..<(index + 12 + length)))
                index += 12 + length
                if type == "IEND" { break }
            }
            guard list.last?.type == "IEND" else { throw Failure("the PNG has no IEND chunk") }
        }

        /// A chunk's bytes: length, type, data, CRC-32 of type and data.
        static func chunk(type: String, data: [UInt8]) -> [UInt8] {
            let typeAndData = Array(type.utf8) + data
            return BigEndian.bytes(UInt32(data.count)) + typeAndData + BigEndian.bytes(CRC32.checksum(typeAndData))
        }
    }
}

/// The CRC-32 of PNG chunks (and zlib, gzip): polynomial 0xEDB88320, reflected.
public enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The checksum of `bytes`.
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}

import MP4
import MediaValues

/// What a still says about itself in EXIF: when its frame was captured (to the
/// millisecond, with the zone), by which camera, with what program, its size and, when
/// known, where. ``tiff()`` lays it out as the big-endian TIFF structure that a JPEG's APP1
/// segment and a PNG's `eXIf` chunk both hold (`ExifEmbedding`).
public struct StillExif: Sendable, Equatable {
    /// The file the block goes into: a JPEG's YCbCr tags are left out of a PNG's.
    public enum ImageKind: Sendable, Equatable {
        case jpeg, png
    }

    /// Make (IFD0 0x010F); nil leaves it out.
    public var make: String?
    /// Model (IFD0 0x0110); nil leaves it out.
    public var model: String?
    /// Software (IFD0 0x0131), e.g. "camrec 0.1.0".
    public var software: String
    /// When the frame was captured, and the zone its local time is written in.
    public var captured: CaptureTimeStamp
    /// The image's width and height in pixels.
    public var width: Int
    public var height: Int
    /// Where; nil writes no GPS directory.
    public var location: GeoLocation?
    /// JPEG or PNG.
    public var kind: ImageKind

    public init(make: String?, model: String?, software: String, captured: CaptureTimeStamp, width: Int, height: Int,
                location: GeoLocation?, kind: ImageKind) {
        self.make = make
        self.model = model
        self.software = software
        self.captured = captured
        self.width = width
        self.height = height
        self.location = location
        self.kind = kind
    }

    /// The TIFF structure: header, IFD0, the Exif IFD, and the GPS IFD when located.
    public func tiff() -> [UInt8] {
        let exif = exifEntries()
        let gps = location.map { gpsEntries($0) }
        // Pointer values do not change a directory's size: lay out with zeros, then place.
        let ifd0Size = TIFFWriter.size(of: ifd0Entries(exifAt: 0, gpsAt: gps == nil ? nil : 0))
        let exifAt = TIFFWriter.header.count + ifd0Size
        let gpsAt = exifAt + TIFFWriter.size(of: exif)
        var bytes = TIFFWriter.header
        bytes += TIFFWriter.directory(ifd0Entries(exifAt: exifAt, gpsAt: gps == nil ? nil : gpsAt), at: TIFFWriter.header.count)
        bytes += TIFFWriter.directory(exif, at: exifAt)
        if let gps { bytes += TIFFWriter.directory(gps, at: gpsAt) }
        return bytes
    }

    private func ifd0Entries(exifAt: Int, gpsAt: Int?) -> [TIFFEntry] {
        var entries = [
            TIFFEntry(0x011A, .rationals([.init(72, 1)])),  // XResolution
            TIFFEntry(0x011B, .rationals([.init(72, 1)])),  // YResolution
            TIFFEntry(0x0128, .shorts([2])),  // ResolutionUnit: inches
            TIFFEntry(0x0131, .ascii(software)),
            TIFFEntry(0x0132, .ascii(captured.exifDateTime)),  // DateTime
            TIFFEntry(0x8769, .longs([UInt32(exifAt)])),  // ExifIFD
        ]
        if let make { entries.append(TIFFEntry(0x010F, .ascii(make))) }
        if let model { entries.append(TIFFEntry(0x0110, .ascii(model))) }
        if kind == .jpeg { entries.append(TIFFEntry(0x0213, .shorts([1]))) }  // YCbCrPositioning: centred
        if let gpsAt { entries.append(TIFFEntry(0x8825, .longs([UInt32(gpsAt)]))) }  // GPSInfo
        return entries
    }

    private func exifEntries() -> [TIFFEntry] {
        let time = captured.exifDateTime, offset = captured.exifOffset, subSeconds = captured.exifSubSeconds
        var entries = [
            TIFFEntry(0x9000, .undefined(Array("0232".utf8))),  // ExifVersion (2.32: OffsetTime*)
            TIFFEntry(0x9003, .ascii(time)),  // DateTimeOriginal
            TIFFEntry(0x9004, .ascii(time)),  // DateTimeDigitized
            TIFFEntry(0x9010, .ascii(offset)),  // OffsetTime
            TIFFEntry(0x9011, .ascii(offset)),  // OffsetTimeOriginal
            TIFFEntry(0x9012, .ascii(offset)),  // OffsetTimeDigitized
            TIFFEntry(0x9290, .ascii(subSeconds)),  // SubSecTime
            TIFFEntry(0x9291, .ascii(subSeconds)),  // SubSecTimeOriginal
            TIFFEntry(0x9292, .ascii(subSeconds)),  // SubSecTimeDigitized
            TIFFEntry(0xA000, .undefined(Array("0100".utf8))),  // FlashpixVersion
            TIFFEntry(0xA001, .shorts([1])),  // ColorSpace: sRGB
            TIFFEntry(0xA002, Self.dimension(width)),  // PixelXDimension
            TIFFEntry(0xA003, Self.dimension(height)),  // PixelYDimension
        ]
        if kind == .jpeg { entries.append(TIFFEntry(0x9101, .undefined([1, 2, 3, 0]))) }  // ComponentsConfiguration: YCbCr
        return entries
    }

    private func gpsEntries(_ location: GeoLocation) -> [TIFFEntry] {
        let utc = captured.exifUTCTime
        var entries = [
            TIFFEntry(0x0000, .bytes([2, 3, 0, 0])),  // GPSVersionID 2.3.0.0
            TIFFEntry(0x0001, .ascii(location.latitude < 0 ? "S" : "N")),
            TIFFEntry(0x0002, .rationals(Self.degreesMinutesSeconds(location.latitude))),
            TIFFEntry(0x0003, .ascii(location.longitude < 0 ? "W" : "E")),
            TIFFEntry(0x0004, .rationals(Self.degreesMinutesSeconds(location.longitude))),
            TIFFEntry(0x0007, .rationals([.init(UInt32(utc.hours), 1), .init(UInt32(utc.minutes), 1),
                                          .init(UInt32(utc.milliseconds), 1000)])),  // GPSTimeStamp (UTC)
            TIFFEntry(0x0012, .ascii("WGS-84")),  // GPSMapDatum
            TIFFEntry(0x001D, .ascii(captured.exifUTCDate)),  // GPSDateStamp (UTC)
        ]
        if let altitude = location.altitude {
            entries.append(TIFFEntry(0x0005, .bytes([altitude < 0 ? 1 : 0])))  // GPSAltitudeRef: below sea level
            entries.append(TIFFEntry(0x0006, .rationals([.init(UInt32((abs(altitude) * 100).rounded()), 100)])))
        }
        return entries
    }

    /// A pixel count as SHORT when it fits, else LONG (both are allowed).
    private static func dimension(_ value: Int) -> TIFFEntry.Value {
        value <= Int(UInt16.max) ? .shorts([UInt16(max(value, 0))]) : .longs([UInt32(clamping: value)])
    }

    /// |degrees| as degrees/1, minutes/1, seconds/10000: rounded once, to 1/10000 of an
    /// arc second (3 mm), so that 59.99999 seconds carries into the next minute.
    static func degreesMinutesSeconds(_ degrees: Double) -> [TIFFEntry.Rational] {
        let units = Int64((abs(degrees) * 3600 * 10_000).rounded())
        let perDegree: Int64 = 3600 * 10_000, perMinute: Int64 = 60 * 10_000
        return [.init(UInt32(units / perDegree), 1), .init(UInt32(units % perDegree / perMinute), 1),
                .init(UInt32(units % perMinute), 10_000)]
    }
}

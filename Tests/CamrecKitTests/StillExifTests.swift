@testable import CamrecCore
@testable import CamrecKit
import Foundation
import MP4
import Testing

/// The EXIF block stills carry, read back byte by byte: the TIFF directories, the capture
/// time in its local zone with the milliseconds, the GPS directory, and the block's place
/// in a JPEG (APP1) and a PNG (`eXIf`, with its CRC).
@Suite struct StillExifTests {
    /// 2026-12-01 10:04:30 UTC.
    static let moment: Int64 = 1_796_119_470

    static func exif(location: GeoLocation? = nil, kind: StillExif.ImageKind = .jpeg, offset: Int = 3600) -> StillExif {
        StillExif(make: "Logitech", model: "HD Pro Webcam C920", software: "camrec 0.1.0",
                  captured: CaptureTimeStamp(unixMilliseconds: moment * 1000 + 250, utcOffsetSeconds: offset), width: 640, height: 480,
                  location: location, kind: kind)
    }

    // MARK: time

    @Test func timeInTheLocalZoneWithMillisecondsAndOffset() {
        let time = CaptureTimeStamp(unixMilliseconds: Self.moment * 1000 + 250, utcOffsetSeconds: 3600)
        #expect(time.exifDateTime == "2026:12:01 11:04:30")
        #expect(time.exifSubSeconds == "250")
        #expect(time.exifOffset == "+01:00")
        #expect(time.exifUTCDate == "2026:12:01")
        #expect(time.exifUTCTime == (10, 4, 30_250))
        #expect(CaptureTimeStamp(unixMilliseconds: Self.moment * 1000 + 5, utcOffsetSeconds: 0).exifSubSeconds == "005")
    }

    @Test func offsetsWestAndInMinutes() {
        let west = CaptureTimeStamp(unixMilliseconds: Self.moment * 1000, utcOffsetSeconds: -(5 * 3600 + 30 * 60))
        #expect(west.exifOffset == "-05:30" && west.exifDateTime == "2026:12:01 04:34:30")
        let nepal = CaptureTimeStamp(unixMilliseconds: Self.moment * 1000, utcOffsetSeconds: 5 * 3600 + 45 * 60)
        #expect(nepal.exifOffset == "+05:45" && nepal.exifDateTime == "2026:12:01 15:49:30")
    }

    /// The local date is the zone's, the GPS date UTC's, across midnight and a leap day.
    @Test func datesAcrossMidnightAndLeapDays() {
        let late = CaptureTimeStamp(unixMilliseconds: 1_835_479_800_999, utcOffsetSeconds: 3600)  // 2028-02-29 23:30 UTC
        #expect(late.exifDateTime == "2028:03:01 00:30:00" && late.exifSubSeconds == "999")
        #expect(late.exifUTCDate == "2028:02:29" && late.exifUTCTime == (23, 30, 999))
        let before = CaptureTimeStamp(unixMilliseconds: -1000, utcOffsetSeconds: 0)
        #expect(before.exifDateTime == "1969:12:31 23:59:59")
    }

    /// The JSON line's capture_time and the EXIF block say the same moment: the wall
    /// clock's nanoseconds cut, not rounded, to the millisecond (the second stays the frame's).
    @Test func theLineAndTheBlockAgreeToTheMillisecond() throws {
        let wall = WallTime(seconds: Self.moment, nanoseconds: 999_999_999)
        let stamp = MovieCapture.stamp(of: wall)
        #expect(stamp.exifSubSeconds == "999")
        let line = try #require(CaptureTimeStamp(iso8601: wall.iso8601(utc: false)))
        #expect(line.unixMilliseconds == stamp.unixMilliseconds && line.utcOffsetSeconds == stamp.utcOffsetSeconds)
    }

    // MARK: location

    @Test func locationsParse() throws {
        #expect(try GeoLocation.parse("48.8584,2.2945,35") == GeoLocation(latitude: 48.8584, longitude: 2.2945, altitude: 35))
        #expect(try GeoLocation.parse(" -33.8568 , 151.2153 ") == GeoLocation(latitude: -33.8568, longitude: 151.2153))
        #expect(try GeoLocation.parse("90,-180,-10.5") == GeoLocation(latitude: 90, longitude: -180, altitude: -10.5))
        #expect(try GeoLocation.parse("+1,2") == GeoLocation(latitude: 1, longitude: 2))
    }

    @Test(arguments: [
        ("91,0", "latitude 91 is out of range: use -90 to 90"),
        ("0,180.5", "longitude 180.5 is out of range: use -180 to 180"),
        ("0,0,200000", "altitude 200000 m is out of range"),
        ("48.8", "give LAT,LON[,ALT]"),
        ("1,2,3,4", "give LAT,LON[,ALT]"),
        ("1,,2", "'' is not a decimal number"),
        ("nan,0", "'nan' is not a decimal number"),
        ("1e1,0", "'1e1' is not a decimal number"),
        ("48°51',2", "is not a decimal number"),
    ])
    func badLocationsSayWhy(_ text: String, _ says: String) {
        #expect { try GeoLocation.parse(text) } throws: { error in
            let message = (error as? ValueError)?.message ?? ""
            return message.contains(says) && message.contains("'\(text)'") && !message.contains("\n")
        }
    }

    @Test func degreesMinutesSecondsCarry() {
        let paris = StillExif.degreesMinutesSeconds(48.8584)
        #expect(paris == [.init(48, 1), .init(51, 1), .init(302_400, 10_000)])
        // 59.999999… seconds round up into the next degree, never to 60 seconds.
        #expect(StillExif.degreesMinutesSeconds(-2.999_999_999_9) == [.init(3, 1), .init(0, 1), .init(0, 10_000)])
    }

    // MARK: TIFF

    @Test func tiffHoldsEveryTagInItsDirectory() throws {
        let tiff = try TIFFReader(Self.exif(location: GeoLocation(latitude: 48.8584, longitude: -2.2945, altitude: 35)).tiff())
        #expect(tiff.ifd0.map(\.tag) == tiff.ifd0.map(\.tag).sorted(), "entries sorted by tag")
        #expect(tiff.ascii(tiff.ifd0, 0x010F) == "Logitech")
        #expect(tiff.ascii(tiff.ifd0, 0x0110) == "HD Pro Webcam C920")
        #expect(tiff.ascii(tiff.ifd0, 0x0131) == "camrec 0.1.0")
        #expect(tiff.ascii(tiff.ifd0, 0x0132) == "2026:12:01 11:04:30")
        #expect(tiff.rationals(tiff.ifd0, 0x011A) == [72.0] && tiff.shorts(tiff.ifd0, 0x0128) == [2])
        #expect(tiff.shorts(tiff.ifd0, 0x0213) == [1])

        let exif = try tiff.directory(at: Int(try #require(tiff.longs(tiff.ifd0, 0x8769).first)))
        #expect(tiff.raw(exif, 0x9000) == Array("0232".utf8))
        for tag: UInt16 in [0x9003, 0x9004] { #expect(tiff.ascii(exif, tag) == "2026:12:01 11:04:30") }
        for tag: UInt16 in [0x9010, 0x9011, 0x9012] { #expect(tiff.ascii(exif, tag) == "+01:00") }
        for tag: UInt16 in [0x9290, 0x9291, 0x9292] { #expect(tiff.ascii(exif, tag) == "250") }
        #expect(tiff.raw(exif, 0x9101) == [1, 2, 3, 0])
        #expect(tiff.raw(exif, 0xA000) == Array("0100".utf8))
        #expect(tiff.shorts(exif, 0xA001) == [1])
        #expect(tiff.shorts(exif, 0xA002) == [640] && tiff.shorts(exif, 0xA003) == [480])

        let gps = try tiff.directory(at: Int(try #require(tiff.longs(tiff.ifd0, 0x8825).first)))
        #expect(tiff.raw(gps, 0x0000) == [2, 3, 0, 0])
        #expect(tiff.ascii(gps, 0x0001) == "N" && tiff.ascii(gps, 0x0003) == "W")
        #expect(tiff.rationals(gps, 0x0002) == [48, 51, 30.24])
        #expect(tiff.rationals(gps, 0x0004) == [2, 17, 40.2])
        #expect(tiff.raw(gps, 0x0005) == [0] && tiff.rationals(gps, 0x0006) == [35])
        #expect(tiff.rationals(gps, 0x0007) == [10, 4, 30.25])
        #expect(tiff.ascii(gps, 0x0012) == "WGS-84")
        #expect(tiff.ascii(gps, 0x001D) == "2026:12:01")
        // Every out-of-line value starts at an even offset, inside the block.
        for entry in tiff.ifd0 + exif + gps where entry.size > 4 {
            #expect(entry.offset % 2 == 0 && entry.offset + entry.size <= tiff.bytes.count, "tag \(entry.tag)")
        }
    }

    @Test func noLocationNoGPSAndPNGHasNoYCbCrTags() throws {
        let tiff = try TIFFReader(Self.exif(kind: .png).tiff())
        #expect(tiff.entry(tiff.ifd0, 0x8825) == nil)
        #expect(tiff.entry(tiff.ifd0, 0x0213) == nil)
        let exif = try tiff.directory(at: Int(try #require(tiff.longs(tiff.ifd0, 0x8769).first)))
        #expect(tiff.entry(exif, 0x9101) == nil)
        #expect(tiff.ascii(exif, 0x9291) == "250")
    }

    @Test func belowSeaLevelAndSouthEast() throws {
        let tiff = try TIFFReader(Self.exif(location: GeoLocation(latitude: -33.5, longitude: 151.25, altitude: -12.345)).tiff())
        let gps = try tiff.directory(at: Int(try #require(tiff.longs(tiff.ifd0, 0x8825).first)))
        #expect(tiff.ascii(gps, 0x0001) == "S" && tiff.ascii(gps, 0x0003) == "E")
        #expect(tiff.rationals(gps, 0x0002) == [33, 30, 0])
        #expect(tiff.raw(gps, 0x0005) == [1])
        let altitude = try #require(tiff.rationals(gps, 0x0006).first)
        #expect(abs(altitude - 12.35) < 0.0001 || abs(altitude - 12.34) < 0.0001)
    }

    @Test func textIsSevenBitASCII() {
        #expect(TIFFEntry.asciiBytes("Caméra\u{1}") == Array("Cam?ra?".utf8))
    }

    /// Large frames state their size as LONG.
    @Test func largeDimensionsAreLongs() throws {
        var exif = Self.exif()
        exif.width = 70_000
        let tiff = try TIFFReader(exif.tiff())
        let directory = try tiff.directory(at: Int(try #require(tiff.longs(tiff.ifd0, 0x8769).first)))
        #expect(tiff.longs(directory, 0xA002) == [70_000])
    }

    // MARK: JPEG

    static let jfif: [UInt8] = [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
    static let dqt: [UInt8] = [0xFF, 0xDB, 0x00, 0x04, 0x00, 0x07]
    static let sof: [UInt8] = [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x01, 0xE0, 0x02, 0x80, 0x01, 0x01, 0x11, 0x00]
    static let scan: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x12, 0x34, 0xFF, 0x00, 0xFF, 0xD9]

    static func app1(_ payload: [UInt8]) -> [UInt8] {
        [0xFF, 0xE1] + BigEndian.bytes(UInt16(payload.count + 2)) + payload
    }

    @Test func jpegGetsAPP1AfterItsAPP0AndKeepsTheRest() throws {
        let jpeg = [0xFF, 0xD8] + Self.jfif + Self.dqt + Self.sof + Self.scan
        let tiff = Self.exif().tiff()
        let stamped = try ExifEmbedding.jpeg(jpeg, tiff: tiff)
        let expected = [0xFF, 0xD8] + Self.jfif + Self.app1(Array("Exif".utf8) + [0, 0] + tiff) + Self.dqt + Self.sof + Self.scan
        #expect(stamped == expected)
        let size = try ExifEmbedding.jpegSize(stamped)
        #expect(size.width == 640 && size.height == 480)
    }

    /// A camera's JPEG without APP0 (MJPEG frames often have none): right after SOI. An
    /// EXIF block it had is replaced; another APP1 (XMP) is kept.
    @Test func cameraJPEGWithoutAPP0AndWithOldExif() throws {
        let old = Self.app1(Array("Exif".utf8) + [0, 0, 1, 2, 3])
        let xmp = Self.app1(Array("http://ns.adobe.com/xap/1.0/\0<x/>".utf8))
        let jpeg = [0xFF, 0xD8] + old + xmp + Self.sof + Self.scan
        let tiff = Self.exif().tiff()
        let stamped = try ExifEmbedding.jpeg(jpeg, tiff: tiff)
        #expect(stamped == [0xFF, 0xD8] + Self.app1(Array("Exif".utf8) + [0, 0] + tiff) + xmp + Self.sof + Self.scan)
    }

    @Test(arguments: [
        [UInt8]([0x89, 0x50]),
        [0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x40, 0x00],  // a segment past the end
        [0xFF, 0xD8, 0xFF, 0xD9],  // no scan
        [0xFF, 0xD8, 0x12, 0x34, 0xFF, 0xDA],  // not a marker
    ])
    func brokenJPEGsAreRefused(_ bytes: [UInt8]) {
        #expect(throws: ExifEmbedding.Failure.self) { try ExifEmbedding.jpeg(bytes, tiff: Self.exif().tiff()) }
    }

    @Test func oversizedBlockIsRefused() {
        let jpeg = [0xFF, 0xD8] + Self.sof + Self.scan
        #expect(throws: ExifEmbedding.Failure.self) {
            try ExifEmbedding.jpeg(jpeg, tiff: [UInt8](repeating: 0, count: ExifEmbedding.jpegLimit + 1))
        }
    }

    // MARK: PNG

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        BigEndian.bytes(UInt32(data.count)) + Array(type.utf8) + data + BigEndian.bytes(CRC32.checksum(Array(type.utf8) + data))
    }

    static let png: [UInt8] = ExifEmbedding.PNGChunks.signature
        + chunk("IHDR", BigEndian.bytes(UInt32(320)) + BigEndian.bytes(UInt32(240)) + [8, 2, 0, 0, 0])
        + chunk("IDAT", [1, 2, 3]) + chunk("IEND", [])

    @Test func crc32IsPNGs() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum(Array("IEND".utf8)) == 0xAE42_6082)
    }

    @Test func pngGetsEXIfAfterIHDRWithItsCRC() throws {
        let tiff = Self.exif(kind: .png).tiff()
        let stamped = try ExifEmbedding.png(Self.png, tiff: tiff)
        let ihdrEnd = 8 + 12 + 13
        #expect(Array(stamped[..<ihdrEnd]) == Array(Self.png[..<ihdrEnd]))
        #expect(Array(stamped[ihdrEnd..<(ihdrEnd + 12 + tiff.count)]) == Self.chunk("eXIf", tiff))
        #expect(Array(stamped[(ihdrEnd + 12 + tiff.count)...]) == Array(Self.png[ihdrEnd...]))
        let size = try ExifEmbedding.pngSize(stamped)
        #expect(size.width == 320 && size.height == 240)
        // Stamped again: one eXIf chunk, the new one.
        let again = try ExifEmbedding.png(stamped, tiff: [0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0])
        #expect(again.count == Self.png.count + 12 + 14)
    }

    @Test(arguments: [[UInt8](Array("GIF89a".utf8)), Array(StillExifTests.png.dropLast(3)), Array(StillExifTests.png[..<20])])
    func brokenPNGsAreRefused(_ bytes: [UInt8]) {
        #expect(throws: ExifEmbedding.Failure.self) { try ExifEmbedding.png(bytes, tiff: Self.exif().tiff()) }
    }

    // MARK: stamping

    /// A still that cannot take EXIF is written as it was, with a warning: never lost.
    @Test func aStillThatCannotTakeExifIsKeptAsItWas() {
        let bytes: [UInt8] = [1, 2, 3]
        let stamped = StillStamp.apply(bytes, format: .png, captured: WallTime(seconds: Self.moment, nanoseconds: 0), tags: StillTags())
        #expect(stamped.bytes == bytes)
        #expect(stamped.warning?.contains("no EXIF") == true)
    }

    @Test func stampNamesTheCameraAndItsMaker() throws {
        let jpeg = [0xFF, 0xD8] + Self.sof + Self.scan
        let captured = WallTime(seconds: Self.moment, nanoseconds: 250_000_000)
        let named = StillStamp.apply(jpeg, format: .jpeg(quality: 90), captured: captured,
                                     tags: StillTags(camera: "HD Pro Webcam C920"))
        #expect(named.warning == nil)
        let tiff = try TIFFReader(Array(named.bytes[(2 + 4 + 6)...]))
        #expect(tiff.ascii(tiff.ifd0, 0x010F) == "HD Pro Webcam C920" && tiff.ascii(tiff.ifd0, 0x0110) == "HD Pro Webcam C920")
        #expect(tiff.ascii(tiff.ifd0, 0x0131) == "camrec \(CamrecVersion.number)")
        let exif = try tiff.directory(at: Int(try #require(tiff.longs(tiff.ifd0, 0x8769).first)))
        #expect(tiff.ascii(exif, 0x9291) == "250")
        #expect(tiff.shorts(exif, 0xA002) == [640] && tiff.shorts(exif, 0xA003) == [480])
        let made = StillStamp.apply(jpeg, format: .jpeg(quality: 90), captured: captured,
                                    tags: StillTags(camera: "C920", maker: "Logitech"))
        let madeTIFF = try TIFFReader(Array(made.bytes[(2 + 4 + 6)...]))
        #expect(madeTIFF.ascii(madeTIFF.ifd0, 0x010F) == "Logitech" && madeTIFF.ascii(madeTIFF.ifd0, 0x0110) == "C920")
    }

    @Test func usbManufacturerFromSysfs() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-sysfs-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let device = root + "/devices/pci0000:00/0000:00:14.0/usb1/1-1"
        try FileManager.default.createDirectory(atPath: device + "/1-1:1.0/video4linux/video0", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/class/video4linux", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/class/video4linux/video0",
                                                   withDestinationPath: device + "/1-1:1.0/video4linux/video0")
        try FileManager.default.createSymbolicLink(atPath: device + "/1-1:1.0/video4linux/video0/device",
                                                   withDestinationPath: device + "/1-1:1.0")
        let tree = SysfsTree(root: root)
        #expect(tree.usbManufacturer(ofVideoNode: "video0") == nil)
        try Data("Logitech\n".utf8).write(to: URL(fileURLWithPath: device + "/manufacturer"))
        #expect(tree.usbManufacturer(ofVideoNode: "video0") == "Logitech")
        #expect(tree.usbManufacturer(ofVideoNode: "video9") == nil)
    }
}

/// Reads a big-endian TIFF structure back, independently of the writer.
struct TIFFReader {
    struct Entry: Equatable {
        var tag: UInt16, type: UInt16, count: Int, offset: Int, size: Int
    }

    struct Malformed: Error {}

    let bytes: [UInt8]
    private(set) var ifd0: [Entry] = []

    init(_ bytes: [UInt8]) throws {
        self.bytes = bytes
        guard bytes.count >= 8, Array(bytes[0..<4]) == [0x4D, 0x4D, 0x00, 0x2A] else { throw Malformed() }
        ifd0 = try directory(at: Int(u32(4)))
    }

    func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]) }
    func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) << 16 | UInt32(u16(at + 2)) }

    func directory(at offset: Int) throws -> [Entry] {
        guard offset + 2 <= bytes.count else { throw Malformed() }
        let count = Int(u16(offset))
        guard offset + 2 + 12 * count + 4 <= bytes.count, u32(offset + 2 + 12 * count) == 0 else { throw Malformed() }
        return try (0..<count).map { index in
            let at = offset + 2 + 12 * index
            let type = u16(at + 2), count = Int(u32(at + 4))
            let unit = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1][Int(type)] ?? 0
            let size = unit * count
            let valueAt = size <= 4 ? at + 8 : Int(u32(at + 8))
            guard unit > 0, valueAt + size <= bytes.count else { throw Malformed() }
            return Entry(tag: u16(at), type: type, count: count, offset: valueAt, size: size)
        }
    }

    func entry(_ directory: [Entry], _ tag: UInt16) -> Entry? { directory.first { $0.tag == tag } }
    func raw(_ directory: [Entry], _ tag: UInt16) -> [UInt8]? {
        entry(directory, tag).map { Array(bytes[$0.offset..<($0.offset + $0.size)]) }
    }
    func ascii(_ directory: [Entry], _ tag: UInt16) -> String? {
        guard let found = entry(directory, tag), found.type == 2, let raw = raw(directory, tag), raw.last == 0 else { return nil }
        return String(decoding: raw.dropLast(), as: UTF8.self)
    }
    func shorts(_ directory: [Entry], _ tag: UInt16) -> [UInt16] {
        guard let found = entry(directory, tag), found.type == 3 else { return [] }
        return (0..<found.count).map { u16(found.offset + 2 * $0) }
    }
    func longs(_ directory: [Entry], _ tag: UInt16) -> [UInt32] {
        guard let found = entry(directory, tag), found.type == 4 else { return [] }
        return (0..<found.count).map { u32(found.offset + 4 * $0) }
    }
    func rationals(_ directory: [Entry], _ tag: UInt16) -> [Double] {
        guard let found = entry(directory, tag), found.type == 5 else { return [] }
        return (0..<found.count).map { Double(u32(found.offset + 8 * $0)) / Double(u32(found.offset + 8 * $0 + 4)) }
    }
}

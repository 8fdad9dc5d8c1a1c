import Foundation
import MediaValues
import Testing

private let sizeForms = "use WIDTHxHEIGHT (1280x720) or 480p, 720p, 1080p, 4k"
private let rateForms = "use frames per second (30, 29.97, 7.5) or a fraction (30000/1001)"

@Suite("FrameSize.parse")
struct FrameSizeValuesTests {
    static let valid: [(text: String, width: Int, height: Int)] = [
        ("1280x720", 1280, 720),
        ("1280X720", 1280, 720),
        ("640x480", 640, 480),
        ("2x2", 2, 2),
        ("16384x16384", 16384, 16384),
        ("0640x0480", 640, 480),
        (" 1920x1080 ", 1920, 1080),
        ("360p", 640, 360),
        ("480p", 640, 480),
        ("720p", 1280, 720),
        ("720P", 1280, 720),
        ("1080p", 1920, 1080),
        ("1440p", 2560, 1440),
        ("2160p", 3840, 2160),
        ("4k", 3840, 2160),
        ("4K", 3840, 2160),
    ]

    @Test(arguments: valid)
    func parsesValid(_ text: String, width: Int, height: Int) throws {
        let size = try FrameSize.parse(text)
        #expect(size == FrameSize(width: width, height: height))
        #expect(try FrameSize.parse(size.description) == size)
    }

    static let invalid: [(text: String, reason: String?)] = [
        ("", nil), ("1280", nil), ("1280x", nil), ("x720", nil), ("1280x720x3", nil),
        ("1280*720", nil), ("1280 x 720", nil), ("1280×720", nil), ("-1280x720", nil),
        ("1280x-720", nil), ("1280.0x720", nil), ("720i", nil), ("8k", nil), ("hd", nil),
        ("0x720", "width and height must be positive"),
        ("1280x0", "width and height must be positive"),
        ("1281x720", "width and height must be even"),
        ("1280x721", "width and height must be even"),
        ("16386x720", "width and height must be at most 16384"),
        ("99999999999999999999x2", "width and height must be at most 16384"),
    ]

    @Test(arguments: invalid)
    func rejectsInvalid(_ text: String, reason: String?) {
        let reason = reason.map { "\($0); " } ?? ""
        #expect(throws: ValueError("invalid frame size '\(text)': \(reason)\(sizeForms)")) {
            try FrameSize.parse(text)
        }
    }

    @Test func descriptionAndCodable() throws {
        let size = FrameSize(width: 1280, height: 720)
        #expect(size.description == "1280x720")
        let json = try JSONEncoder().encode(size)
        #expect(try JSONDecoder().decode(FrameSize.self, from: json) == size)
        let object = try JSONSerialization.jsonObject(with: json) as? [String: Int]
        #expect(object == ["width": 1280, "height": 720])
    }

    @Test func areaAndFit() {
        let hd = FrameSize(width: 1280, height: 720)
        #expect(hd.area == 921_600)
        #expect(hd.fits(in: FrameSize(width: 1920, height: 1080)))
        #expect(hd.fits(in: hd))
        #expect(!hd.fits(in: FrameSize(width: 1920, height: 640)))
        #expect(!FrameSize(width: 2560, height: 720).fits(in: FrameSize(width: 1920, height: 1080)))
        // A driver's nonsense size (the kernel's UInt32 maximum) does not trap.
        let huge = FrameSize(width: Int(UInt32.max), height: Int(UInt32.max))
        #expect(huge.area == Int.max)
    }
}

@Suite("FrameRateValue.parse")
struct FrameRateValuesTests {
    static let valid: [(text: String, numerator: Int, denominator: Int, description: String)] = [
        ("30", 30, 1, "30"),
        ("1", 1, 1, "1"),
        ("1000", 1000, 1, "1000"),
        ("7.5", 15, 2, "7.5"),
        ("12.5", 25, 2, "12.5"),
        ("0.5", 1, 2, "0.5"),
        ("30.0", 30, 1, "30"),
        ("30.00", 30, 1, "30"),
        ("59.9", 599, 10, "59.9"),
        ("29.97", 30000, 1001, "30000/1001"),
        ("29.970", 30000, 1001, "30000/1001"),
        ("29.97003", 30000, 1001, "30000/1001"),
        ("23.976", 24000, 1001, "24000/1001"),
        ("59.94", 60000, 1001, "60000/1001"),
        ("119.88", 120000, 1001, "120000/1001"),
        ("14.985", 15000, 1001, "15000/1001"),
        ("29.98", 1499, 50, "29.98"),
        ("29.975", 1199, 40, "29.975"),
        ("30000/1001", 30000, 1001, "30000/1001"),
        ("60/2", 30, 1, "30"),
        ("15/2", 15, 2, "7.5"),
        ("2997/100", 2997, 100, "2997/100"),
        ("1/3", 1, 3, "1/3"),
        ("1000000/1000", 1000, 1, "1000"),
        ("30fps", 30, 1, "30"),
        ("29.97 fps", 30000, 1001, "30000/1001"),
        (" 25 ", 25, 1, "25"),
        ("0.000001", 1, 1_000_000, "0.000001"),
    ]

    @Test(arguments: valid)
    func parsesValid(_ text: String, numerator: Int, denominator: Int, description: String) throws {
        let rate = try FrameRateValue.parse(text)
        #expect(rate.numerator == numerator)
        #expect(rate.denominator == denominator)
        #expect(rate.description == description)
        #expect(try FrameRateValue.parse(rate.description) == rate)
    }

    static let invalid: [(text: String, reason: String?)] = [
        ("", nil), ("abc", nil), ("-30", nil), ("+30", nil), ("30.", nil), (".5", nil),
        ("1e3", nil), ("nan", nil), ("inf", nil), ("30/", nil), ("/2", nil), ("1/2/3", nil),
        ("30/0", nil), ("30/-1", nil), ("1.5/2", nil), ("fps", nil), ("30 000", nil), ("0x1e", nil),
        ("0", "it must be above 0"),
        ("0.0", "it must be above 0"),
        ("0/1", "it must be above 0"),
        ("1001", "it must be at most 1000"),
        ("1000.5", "it must be at most 1000"),
        ("2001/2", "it must be at most 1000"),
        ("99999999999999999999", "it must be at most 1000"),
        ("3000000000/1", "it must be at most 1000"),
        ("30/3000000000", "it must be at most 1000"),
        ("29.9700300", nil),
    ]

    @Test(arguments: invalid)
    func rejectsInvalid(_ text: String, reason: String?) {
        let reason = reason.map { "\($0); " } ?? ""
        #expect(throws: ValueError("invalid frame rate '\(text)': \(reason)\(rateForms)")) {
            try FrameRateValue.parse(text)
        }
    }

    @Test func valueAndOrder() throws {
        let ntsc = try FrameRateValue.parse("29.97")
        #expect(abs(ntsc.framesPerSecond - 29.97002997) < 1e-8)
        #expect(try FrameRateValue.parse("30") > ntsc)
        #expect(try FrameRateValue.parse("2997/100") < ntsc)
        #expect(FrameRateValue(numerator: 60, denominator: 2) == FrameRateValue(numerator: 30, denominator: 1))
        let json = try JSONEncoder().encode(ntsc)
        #expect(try JSONDecoder().decode(FrameRateValue.self, from: json) == ntsc)
    }
}

@Suite struct ByteCountTests {
    @Test(arguments: [
        ("4096", Int64(4096)), ("500M", Int64(500 << 20)), ("20G", Int64(20) << 30), ("20GiB", Int64(20) << 30),
        ("20gb", Int64(20) << 30), ("1.5K", Int64(1536)), ("2T", Int64(2) << 40), ("10k", Int64(10_240)), (" 7B ", Int64(7)),
    ])
    func sizesPeopleWrite(_ text: String, _ bytes: Int64) throws {
        #expect(try ByteCount.parse(text) == bytes)
    }

    @Test(arguments: ["", "G", "-5M", "5X", "1e3", "5 M M", "nan", "99999999999T"])
    func nonsenseIsRefusedWithAnExample(_ text: String) {
        #expect(throws: ValueError.self) { try ByteCount.parse(text) }
    }
}

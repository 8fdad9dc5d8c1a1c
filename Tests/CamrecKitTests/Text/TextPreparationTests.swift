@testable import CamrecKit
@testable import Text
import CamrecCore
import Testing

/// Text recognition's plain parts: the grey picture's preparation, the request's checks,
/// the result's lines and boxes, and where models are looked for. No libtesseract needed.
@Suite("Text recognition, plain parts")
struct TextPreparationTests {
    @Test func rgbBecomesGreyByLuma() throws {
        let picture = try #require(GreyImage(rgb: [255, 255, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255], width: 2, height: 2))
        #expect(picture.pixels == [255, 0, 77, 29])
        #expect(GreyImage(rgb: [1, 2, 3], width: 2, height: 1) == nil)
    }

    @Test func croppingKeepsTheRegionClippedToThePicture() throws {
        let picture = GreyImage(width: 4, height: 3, pixels: Array(0..<12))
        let part = try #require(picture.cropped(to: TextRegion(x: 1, y: 1, width: 2, height: 5)))
        #expect(part.width == 2 && part.height == 2 && part.pixels == [5, 6, 9, 10])
        #expect(picture.cropped(to: TextRegion(x: 4, y: 0, width: 2, height: 2)) == nil)
    }

    @Test func scalingUpKeepsFlatAreasAndInterpolatesEdges() {
        let flat = GreyImage(width: 3, height: 2, pixels: [90, 90, 90, 90, 90, 90]).scaled(by: 3)
        #expect(flat.width == 9 && flat.height == 6 && flat.pixels.allSatisfy { $0 == 90 })
        let edge = GreyImage(width: 2, height: 1, pixels: [0, 200]).scaled(by: 2)
        #expect(edge.width == 4 && edge.height == 2)
        // The outer pixels keep the ends; the inner two lie between, rising left to right.
        #expect(edge.pixels[0] == 0 && edge.pixels[3] == 200)
        #expect(edge.pixels[1] > 0 && edge.pixels[1] < edge.pixels[2] && edge.pixels[2] < 200)
        #expect(GreyImage(width: 1, height: 1, pixels: [7]).scaled(by: 1).pixels == [7])
    }

    @Test func scalingByTablesSamplesWhereTheFormulaSays() {
        // Each output pixel against the sampling formula computed for it alone (sample
        // centres (i + 0.5) / factor - 0.5 in 1/256ths, clamped), on a pseudo-random picture.
        var seed: UInt32 = 12345
        let pixels = (0..<(7 * 5)).map { _ -> UInt8 in
            seed = seed &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: seed >> 16)
        }
        let picture = GreyImage(width: 7, height: 5, pixels: pixels)
        for factor in [2, 3] {
            let scaled = picture.scaled(by: factor)
            #expect(scaled.width == 7 * factor && scaled.height == 5 * factor)
            for y in 0..<scaled.height {
                for x in 0..<scaled.width {
                    let sy = max(0, ((2 * y + 1) * 128) / factor - 128), sx = max(0, ((2 * x + 1) * 128) / factor - 128)
                    let y0 = min(4, sy >> 8), y1 = min(4, y0 + 1), x0 = min(6, sx >> 8), x1 = min(6, x0 + 1)
                    let fy = sy & 255, fx = sx & 255
                    let top = Int(pixels[y0 * 7 + x0]) * (256 - fx) + Int(pixels[y0 * 7 + x1]) * fx
                    let bottom = Int(pixels[y1 * 7 + x0]) * (256 - fx) + Int(pixels[y1 * 7 + x1]) * fx
                    #expect(scaled.pixels[y * scaled.width + x] == UInt8((top * (256 - fy) + bottom * fy + 32768) >> 16),
                            "factor \(factor) at \(x),\(y)")
                }
            }
        }
        #expect(GreyImage.samples(count: 4, factor: 2, limit: 2).map { [$0.0, $0.1, $0.2] } == [[0, 1, 0], [0, 1, 64], [0, 1, 192], [1, 1, 64]])
    }

    @Test(arguments: [
        // name, the picture's rows as (value, count) runs, busy
        ("plain", [(200, 100)], false),
        ("plain with a dark line of text, 4 %", [(200, 96), (20, 4)], false),
        ("plain with noise of ±20", [(190, 50), (210, 50)], false),
        ("5 % far from the ground: not more than 1/20", [(200, 95), (100, 5)], false),
        ("6 % far from the ground", [(200, 94), (100, 6)], true),
        ("33 levels off is far", [(200, 90), (167, 10)], true),
        ("32 levels off is near", [(200, 90), (168, 10)], false),
        ("bars of colour", [(30, 25), (90, 25), (150, 25), (230, 25)], true),
    ])
    func aBusyGroundIsToldFromAPlainOne(name: String, runs: [(Int, Int)], busy: Bool) {
        let pixels = runs.flatMap { [UInt8](repeating: UInt8($0.0), count: $0.1) }
        #expect(GreyImage(width: pixels.count, height: 1, pixels: pixels).looksBusy == busy, "\(name)")
    }

    @Test func theMedianIsTheLowerMiddle() {
        #expect(GreyImage(width: 4, height: 1, pixels: [9, 1, 200, 5]).median == 5)
        #expect(GreyImage(width: 3, height: 1, pixels: [9, 1, 200]).median == 9)
    }

    @Test func theGroundDecidesThePolarity() {
        var dark = [UInt8](repeating: 20, count: 100)
        for index in 0..<30 { dark[index] = 240 }
        #expect(GreyImage(width: 10, height: 10, pixels: dark).looksLightOnDark)
        let light = GreyImage(width: 10, height: 10, pixels: dark.map { 255 - $0 })
        #expect(!light.looksLightOnDark)
        #expect(light.inverted().pixels == dark)
    }

    @Test func closingFillsThinDarkLinesAndKeepsWideDarkAreas() {
        // A light picture, 12 wide: a dark line 2 px wide (an outline) at x 2-3, a dark
        // area 5 px wide (a letter's body, or a dark ground) at x 6-10.
        var pixels = [UInt8](repeating: 200, count: 12 * 7)
        for y in 0..<7 {
            for x in [2, 3] { pixels[y * 12 + x] = 10 }
            for x in 6...10 { pixels[y * 12 + x] = 30 }
        }
        let closed = GreyImage(width: 12, height: 7, pixels: pixels).closed(radius: 1)
        for y in 0..<7 {
            let row = Array(closed.pixels[(y * 12)..<(y * 12 + 12)])
            #expect(row[0...5].allSatisfy { $0 == 200 } && row[11] == 200, "row \(y): \(row)")
            #expect(row[6...10].allSatisfy { $0 == 30 }, "row \(y): \(row)")
        }
        // A dark dot inside a light letter's stroke goes too; nothing is made darker.
        var dot = [UInt8](repeating: 250, count: 25)
        dot[12] = 0
        #expect(GreyImage(width: 5, height: 5, pixels: dot).closed(radius: 1).pixels.allSatisfy { $0 == 250 })
        #expect(GreyImage(width: 3, height: 1, pixels: [1, 2, 3]).closed(radius: 0).pixels == [1, 2, 3])
    }

    @Test func twoReadingsMergeWordByWordKeepingTheBetterWhereTheyOverlap() {
        typealias Raw = TextResult.RawWord
        // The first reading: a light clock read as hollow shapes (low confidence) at the top,
        // and a dark label read well below it.
        let first = [
            Raw(text: "MEMERV4", confidence: 0.4, left: 100, top: 100, right: 260, bottom: 124, block: 0, line: 0),
            Raw(text: "Dock", confidence: 0.95, left: 100, top: 300, right: 160, bottom: 324, block: 1, line: 1),
            Raw(text: "14", confidence: 0.95, left: 170, top: 300, right: 200, bottom: 324, block: 1, line: 1),
        ]
        // The second: the label as noise, the clock read well, a word far beside the clock,
        // and the end of the label's line that the first did not read.
        let second = [
            Raw(text: "noise", confidence: 0.3, left: 110, top: 302, right: 190, bottom: 320, block: 0, line: 0),
            Raw(text: "12:04", confidence: 0.9, left: 100, top: 101, right: 170, bottom: 124, block: 1, line: 1),
            Raw(text: "05", confidence: 0.9, left: 180, top: 101, right: 210, bottom: 124, block: 1, line: 1),
            Raw(text: "CAM", confidence: 0.9, left: 400, top: 98, right: 460, bottom: 122, block: 2, line: 2),
            Raw(text: "kWh", confidence: 0.9, left: 210, top: 301, right: 250, bottom: 324, block: 3, line: 3),
        ]
        let merged = TextRecognizer.merge(first, second)
        #expect(merged.map(\.text) == ["12:04", "05", "CAM", "Dock", "14", "kWh"])
        // The clock's words take the line they replaced; "kWh" joins the line beside it; the
        // second's other lines and blocks are numbered after the first's.
        #expect(merged.map(\.line) == [0, 0, 4, 1, 1, 1] && merged.map(\.block) == [0, 0, 4, 1, 1, 1])
        let result = TextResult(input: "a.png", time: nil, captured: nil, width: 640, height: 480, region: nil, languages: "eng", words: merged)
        #expect(result.text == "12:04 05\nCAM\nDock 14 kWh")
        // A reading with nothing overlapping the other's is added whole; an empty one changes nothing.
        #expect(TextRecognizer.merge(first, []) == first)
        #expect(TextRecognizer.merge([], Array(second[1...2])).map(\.text) == ["12:04", "05"])
        // A word read better in the first stays (the second's "06:66" is worse than "00:00").
        let digits = [Raw(text: "00:00", confidence: 0.85, left: 10, top: 10, right: 60, bottom: 30, block: 0, line: 0)]
        let worse = [Raw(text: "06:66", confidence: 0.6, left: 11, top: 10, right: 60, bottom: 30, block: 0, line: 0)]
        #expect(TextRecognizer.merge(digits, worse) == digits)
        // Junk (many characters of low confidence) does not outweigh a well-read word over it.
        let junk = [Raw(text: "Yn", confidence: 0.73, left: 413, top: 483, right: 459, bottom: 498, block: 0, line: 0),
                    Raw(text: "wing", confidence: 0.44, left: 412, top: 506, right: 449, bottom: 519, block: 1, line: 1),
                    Raw(text: "aeeaaeeaae", confidence: 0.2, left: 380, top: 470, right: 480, bottom: 530, block: 2, line: 2)]
        // The second's own words do not compete ("tine" and "3" overlap: both stay).
        let read = [Raw(text: "EXIT", confidence: 0.91, left: 384, top: 478, right: 478, bottom: 510, block: 0, line: 0),
                    Raw(text: "tine", confidence: 0.66, left: 242, top: 300, right: 330, bottom: 325, block: 1, line: 1),
                    Raw(text: "3", confidence: 0.73, left: 317, top: 296, right: 333, bottom: 334, block: 1, line: 1)]
        #expect(TextRecognizer.merge(junk, read).map(\.text) == ["tine", "3", "EXIT"])
    }

    @Test func smallPicturesAreScaledUpMore() {
        #expect(TextRecognizer.scale(width: 640, height: 360) == 3)
        #expect(TextRecognizer.scale(width: 1280, height: 720) == 2)
        #expect(TextRecognizer.scale(width: 1920, height: 1080) == 1)
    }

    @Test func theRequestIsCheckedBeforeAnythingIsRead() throws {
        let request = try TextRequest(inputs: ["a.JPG", "b.mp4"], languages: "eng+deu", region: "10,20,300,40", every: "5s")
        #expect(request.languages == ["eng", "deu"])
        #expect(request.region == TextRegion(x: 10, y: 20, width: 300, height: 40))
        #expect(request.every == TimeSpec(nanoseconds: 5_000_000_000))
        #expect(TextRequest.isStill("a.JPG") && TextRequest.isStill("x.png") && !TextRequest.isStill("b.mp4"))
        let plain = try TextRequest(inputs: ["a.mkv"], languages: nil, region: nil, every: nil)
        #expect(plain.languages == ["eng"] && plain.region == nil && plain.every == TextRequest.defaultEvery)
        #expect(plain.minimumConfidence == 0.7)
        #expect(try TextRequest(inputs: ["a.png"], languages: nil, region: nil, every: nil, minimumConfidence: "0").minimumConfidence == 0)
        let refusals: [([String], String?, String?, String?, String)] = [
            ([], nil, nil, nil, "give the stills or movies"),
            (["a.jpg"], "eng+", nil, nil, "--lang 'eng+'"),
            (["a.jpg"], "../x", nil, nil, "--lang '../x'"),
            (["a.jpg"], nil, "1,2,3", nil, "--region '1,2,3'"),
            (["a.jpg"], nil, "1,2,0,4", nil, "--region '1,2,0,4'"),
            (["a.jpg"], nil, "-1,2,3,4", nil, "--region '-1,2,3,4'"),
            (["a.mp4"], nil, nil, "0s", "--every '0s'"),
            (["a.jpg", "b.png"], nil, nil, "5s", "--every applies to movies"),
        ]
        for (inputs, languages, region, every, message) in refusals {
            let error = #expect(throws: CamrecError.self) {
                try TextRequest(inputs: inputs, languages: languages, region: region, every: every)
            }
            #expect(error?.status == .usage)
            #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
        }
        for value in ["1.5", "-0.1", "x"] {
            let error = #expect(throws: CamrecError.self) {
                try TextRequest(inputs: ["a.jpg"], languages: nil, region: nil, every: nil, minimumConfidence: value)
            }
            #expect(error?.status == .usage)
            #expect(error?.message.contains("--min-confidence '\(value)'") == true, "\(error?.message ?? "")")
        }
    }

    @Test func wordsGroupIntoLinesWithBoxesInPixelsAndFractions() {
        typealias Raw = TextResult.RawWord
        let raw = [
            Raw(text: "METER", confidence: 0.9, left: 100, top: 200, right: 200, bottom: 220, block: 0, line: 3),
            Raw(text: "4721", confidence: 0.7, left: 210, top: 201, right: 260, bottom: 221, block: 0, line: 3),
            Raw(text: "—", confidence: 0.2, left: 270, top: 201, right: 280, bottom: 221, block: 0, line: 3),
            Raw(text: "open", confidence: 0.8, left: 500, top: 500, right: 560, bottom: 518, block: 1, line: 5),
        ]
        let result = TextResult(input: "a.png", time: nil, captured: nil, width: 1000, height: 1000, region: nil,
                                languages: "eng", words: raw)
        #expect(result.text == "METER 4721\nopen")
        #expect(result.words.map(\.text) == ["METER", "4721", "open"])
        #expect(result.words.map(\.line) == [0, 0, 1] && result.words.map(\.block) == [0, 0, 1])
        #expect(result.words[0].box == [100, 200, 100, 20])
        #expect(result.words[0].normalized == [0.1, 0.2, 0.1, 0.02])
        #expect(result.lines[0].box == [100, 200, 160, 21] && result.lines[0].confidence == 0.8)
        #expect(result.lines[1].block == 1)
        let sure = TextResult(input: "a.png", time: nil, captured: nil, width: 1000, height: 1000, region: nil, languages: "eng",
                              words: raw, minimumConfidence: 0.75)
        #expect(sure.text == "METER\nopen" && sure.words.map(\.line) == [0, 1])
    }

    @Test func modelsAreLookedForWhereTesseractLooks() {
        #expect(TesseractLibrary.package(of: "chi_sim") == "tesseract-ocr-chi-sim")
        #expect(TesseractLibrary.package(of: "deu") == "tesseract-ocr-deu")
        #expect(TesseractLibrary.candidateFolders(environment: "/opt/td/") == [
            "/opt/td", "/opt/td/tessdata", "/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata",
        ])
        #expect(TesseractLibrary.candidateFolders(environment: nil).first == "/usr/share/tesseract-ocr/5/tessdata")
    }

    @Test func doctorSaysWhetherTextCanBeRead() {
        let missing = TextChecks.check(problem: { "libtesseract.so.5: cannot open" }, version: { nil }, languages: { [] })
        #expect(missing.status == .info && missing.fix == "sudo apt-get install libtesseract5 tesseract-ocr-eng")
        let bare = TextChecks.check(problem: { nil }, version: { "5.3.0" }, languages: { [] })
        #expect(bare.status == .warning && bare.fix == "sudo apt-get install tesseract-ocr-eng")
        let fine = TextChecks.check(problem: { nil }, version: { "5.3.0" }, languages: { ["deu", "eng"] })
        #expect(fine.status == .ok && fine.message == "libtesseract 5.3.0 loads: camrec text reads deu, eng")
        #expect(fine.package == "libtesseract5")
    }
}

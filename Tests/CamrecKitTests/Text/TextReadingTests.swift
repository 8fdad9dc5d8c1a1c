@testable import CamrecKit
@testable import Text
import CTesseractShim
import Foundation
import Testing

/// Reading with libtesseract itself: a recognizer that reads a busy picture's two
/// polarities at once (`concurrent`) finds the very words one that reads them in turn does.
/// Pictures drawn by ffmpeg (drawtext, DejaVu Sans) as raw grey bytes.
@Suite("Text recognition with libtesseract")
struct TextReadingTests {
    static let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// Whether libtesseract, its English model, ffmpeg and the font are there.
    static var canRead: Bool {
        camrec_tesseract_available(nil) != 0 && TesseractLibrary.installedLanguages()?.languages.contains("eng") == true
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") && FileManager.default.fileExists(atPath: font)
    }

    /// A 1280x720 grey picture of `ground` (an ffmpeg source) with two lines of `ink` text.
    static func render(ground: String, ink: String, extra: String = "") throws -> GreyImage {
        let draws = [("METER 4721 kWh", 120, 150), ("Gate north open", 200, 230)].map { text, x, y in
            "drawtext=fontfile=\(font):text='\(text)':fontsize=33:fontcolor=\(ink)\(extra):x=\(x):y=\(y)"
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-nostdin", "-v", "error", "-f", "lavfi", "-i", ground, "-vf", (draws + ["format=gray"]).joined(separator: ","),
                             "-frames:v", "1", "-f", "rawvideo", "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let bytes = [UInt8](pipe.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        try #require(process.terminationStatus == 0 && bytes.count == 1280 * 720, "ffmpeg gave \(bytes.count) bytes")
        return GreyImage(width: 1280, height: 720, pixels: bytes)
    }

    @Test(.enabled(if: canRead, "libtesseract, its English model, ffmpeg or DejaVu Sans is missing"))
    func aBusyPictureReadsTheSameWithItsPolaritiesReadAtOnce() throws {
        let busy = try Self.render(ground: "mandelbrot=s=1280x720", ink: "white", extra: ":borderw=2:bordercolor=black")
        let plain = try Self.render(ground: "color=c=0xf0f0e8:s=1280x720", ink: "0x202020")
        #expect(busy.looksBusy && !plain.looksBusy)
        let inTurn = try TextRecognizer(languages: ["eng"])
        let atOnce = try TextRecognizer(languages: ["eng"], concurrent: true)
        // A plain picture first: read by one instance alone, the helper not yet started.
        let plainWords = try atOnce.recognize(plain, region: nil)
        #expect(plainWords == (try inTurn.recognize(plain, region: nil)) && plainWords.contains { $0.text == "north" })
        #expect(atOnce.readingsAhead == 0)
        let expected = try inTurn.recognize(busy, region: nil)
        #expect(expected.contains { $0.text == "4721" }, "\(expected.map(\.text))")
        // Twice: the helper takes a second picture after the first.
        #expect(try atOnce.recognize(busy, region: nil) == expected)
        #expect(try atOnce.recognize(busy, region: nil) == expected)
        #expect(atOnce.readingsAhead == 2 && inTurn.readingsAhead == 0)
        // A region of it (read ahead when the part looks busy).
        let region = TextRegion(x: 100, y: 130, width: 500, height: 80)
        let part = try #require(busy.cropped(to: region))
        #expect(try atOnce.recognize(busy, region: region) == inTurn.recognize(busy, region: region))
        #expect(atOnce.readingsAhead == (part.looksBusy ? 3 : 2))
        // A plain picture still by one instance alone.
        let before = atOnce.readingsAhead
        #expect(try atOnce.recognize(plain, region: nil) == plainWords)
        #expect(atOnce.readingsAhead == before)
    }
}

import Foundation
import Testing

/// `camrec text`: known text drawn by ffmpeg (drawtext, DejaVu Sans) into camera-sized
/// pictures, dark on light and light on dark, with noise, at several sizes: every word found
/// with its box around the drawn text; a movie read every T at the right times; a still's
/// EXIF capture time; a missing model or library exits 69 naming the package.
@Suite("camrec text")
struct TextTests {
    static let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    /// DejaVu Sans's cap height is 0.729 of its size (em).
    static let capHeight = 0.729

    /// One phrase drawn at (x, y): drawtext's y is the top of its tallest glyph.
    struct Phrase {
        var text: String
        var x: Int
        var y: Int
    }

    static let phrases = [Phrase(text: "METER 4721 kWh", x: 100, y: 200), Phrase(text: "Gate north open", x: 520, y: 480)]

    /// A 1280x720 PNG with `phrases` in `size` px (em) text of `ink` on `ground`, with
    /// uniform noise of strength `noise` over all of it.
    static func render(_ path: String, size: Int, ink: String, ground: String, noise: Int = 16, phrases: [Phrase] = phrases) throws {
        let draws = phrases.map { "drawtext=fontfile=\(font):text='\($0.text)':fontsize=\(size):fontcolor=\(ink):x=\($0.x):y=\($0.y)" }
        let run = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=\(ground):s=1280x720",
                                                  "-vf", (draws + ["noise=alls=\(noise):allf=u"]).joined(separator: ","),
                                                  "-frames:v", "1", path])
        try #require(run.status == 0, "ffmpeg: \(run.stderr)")
    }

    /// The words `line` reads, in order, each with its box: found exactly, left to right
    /// on one line, and each box inside the phrase's drawn extent.
    static func checkPhrase(_ phrase: Phrase, size: Int, in words: [[String: Any]], label: String) {
        let expected = phrase.text.split(separator: " ").map(String.init)
        let found = expected.compactMap { word in
            words.first { ($0["text"] as? String) == word && (($0["box"] as? [Int])?[1]).map { abs($0 - phrase.y) < size } == true }
        }
        #expect(found.count == expected.count, "\(label): \(phrase.text) read as \(words.compactMap { $0["text"] as? String })")
        guard found.count == expected.count else { return }
        // Generous bounds of the drawn text: DejaVu Sans's widest glyphs are under 0.9 em.
        let right = phrase.x + Int(Double(phrase.text.count * size) * 0.9)
        let bottom = phrase.y + Int(Double(size) * 1.2)
        var previousRight = phrase.x - 3
        for word in found {
            let box = word["box"] as? [Int] ?? []
            #expect(box.count == 4, "\(label): \(word)")
            guard box.count == 4 else { return }
            #expect(box[0] >= previousRight && box[0] + box[2] <= right, "\(label): \(word) outside x \(phrase.x)...\(right)")
            #expect(box[1] >= phrase.y - 3 && box[1] + box[3] <= bottom + 3, "\(label): \(word) outside y \(phrase.y)...\(bottom)")
            #expect(Double(box[3]) >= Double(size) * capHeight * 0.6, "\(label): \(word) lower than its letters")
            previousRight = box[0] + box[2]
            // The normalised box is the same box in fractions of 1280x720.
            let normalized = word["normalized"] as? [Double] ?? []
            #expect(normalized.count == 4 && abs(normalized[0] - Double(box[0]) / 1280) < 0.001
                    && abs(normalized[3] - Double(box[3]) / 720) < 0.001, "\(label): \(word)")
            let confidence = word["confidence"] as? Double ?? -1
            #expect(confidence > 0.5 && confidence <= 1, "\(label): \(word)")
        }
        // One line.
        #expect(Set(found.compactMap { $0["line"] as? Int }).count == 1, "\(label): \(found)")
    }

    @Test(arguments: [16, 24, 40])
    func everyWordIsFoundAroundTheDrawnText(capPixels: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let size = Int((Double(capPixels) / Self.capHeight).rounded())
        for (name, ink, ground) in [("dark-on-light", "0x202020", "0xf0f0e8"), ("light-on-dark", "0xf0f0f0", "0x101820")] {
            let picture = folder.path("\(name)-\(capPixels).png")
            try Self.render(picture, size: size, ink: ink, ground: ground)
            let run = try CamrecBinary.run(["text", "--json", picture], timeout: 120)
            try #require(run.status == 0, "\(run.stderr)")
            let lines = JSONLines.parse(run).filter { $0["type"] as? String == "text" }
            try #require(lines.count == 1, "\(run.stdoutText)")
            let line = lines[0]
            #expect(line["width"] as? Int == 1280 && line["height"] as? Int == 720 && line["input"] as? String == picture)
            #expect(line["captured"] == nil && line["time"] == nil, "\(line)")
            let words = line["words"] as? [[String: Any]] ?? []
            for phrase in Self.phrases { Self.checkPhrase(phrase, size: size, in: words, label: "\(name) \(capPixels) px") }
            // Nothing but the drawn words is read from the noise.
            #expect(words.count == 6, "\(name) \(capPixels) px: \(words.compactMap { $0["text"] as? String })")
            #expect(line["text"] as? String == "METER 4721 kWh\nGate north open", "\(line["text"] ?? "")")
            // For people: the text itself on stdout.
            let plain = try CamrecBinary.run(["text", picture], timeout: 120)
            #expect(plain.status == 0 && plain.stdoutText == "METER 4721 kWh\nGate north open\n", "\(plain.stdoutText)")
        }
    }

    @Test(arguments: [16, 24, 32])
    func lightTextOutlinedInDarkIsReadOnABusyPicture(capPixels: Int) throws {
        // White letters with a 2 px black outline (as a camera's clock or a caption) over a
        // colourful fractal whose median is light: read as they are, the outlines are the
        // ink and the letters hollow shapes.
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let size = Int((Double(capPixels) / Self.capHeight).rounded())
        let phrases = [Phrase(text: "DOCK 14 north", x: 100, y: 200), Phrase(text: "Gate open", x: 200, y: 560)]
        let draws = phrases.map {
            "drawtext=fontfile=\(Self.font):text='\($0.text)':fontsize=\(size):fontcolor=white:borderw=2:bordercolor=black:x=\($0.x):y=\($0.y)"
        }
        let picture = folder.path("outlined-\(capPixels).png")
        let make = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "mandelbrot=s=1280x720",
                                                   "-vf", (draws + ["noise=alls=8:allf=u"]).joined(separator: ","), "-frames:v", "1", picture])
        try #require(make.status == 0, "ffmpeg: \(make.stderr)")
        let run = try CamrecBinary.run(["text", "--json", picture], timeout: 120)
        try #require(run.status == 0, "\(run.stderr)")
        let line = try #require(JSONLines.parse(run).first { $0["type"] as? String == "text" }, "\(run.stdoutText)")
        let words = line["words"] as? [[String: Any]] ?? []
        for phrase in phrases { Self.checkPhrase(phrase, size: size, in: words, label: "outlined \(capPixels) px") }
        // The phrases' lines in reading order (the fractal may add a word of noise of its own).
        let text = line["text"] as? String ?? ""
        let first = try #require(text.range(of: "DOCK 14 north"), "\(text)")
        let second = try #require(text.range(of: "Gate open"), "\(text)")
        #expect(first.lowerBound < second.lowerBound, "\(text)")
    }

    @Test func aRegionReadsOnlyItsPartWithBoxesInThePicture() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let picture = folder.path("p.png")
        try Self.render(picture, size: 33, ink: "0x202020", ground: "0xf0f0e8")
        let run = try CamrecBinary.run(["text", "--json", "--region", "500,440,700,120", picture], timeout: 120)
        try #require(run.status == 0, "\(run.stderr)")
        let line = try #require(JSONLines.parse(run).first { $0["type"] as? String == "text" })
        #expect(line["text"] as? String == "Gate north open", "\(line)")
        #expect((line["region"] as? [String: Int]) == ["x": 500, "y": 440, "width": 700, "height": 120])
        Self.checkPhrase(Self.phrases[1], size: 33, in: line["words"] as? [[String: Any]] ?? [], label: "region")
        let outside = try CamrecBinary.run(["text", "--region", "2000,0,10,10", picture])
        #expect(outside.status == 64 && outside.stderr.contains("lies outside the 1280x720 picture"), "\(outside.stderr)")
    }

    @Test func aMovieIsReadEveryTWithEachFramesTime() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = folder.path("m.mp4")
        let words = ["ALPHA", "BRAVO", "CHARLIE"]
        let draws = words.enumerated().map { index, word in
            "drawtext=fontfile=\(Self.font):text='\(word) \(index + 1)':fontsize=40:fontcolor=black:x=200:y=300:enable='between(t,\(index),\(index).999)'"
        }
        let make = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=white:s=640x360:r=10:d=3",
                                                   "-vf", draws.joined(separator: ","), "-c:v", "libx264", "-g", "5", "-pix_fmt", "yuv420p", movie])
        try #require(make.status == 0, "\(make.stderr)")
        let run = try CamrecBinary.run(["text", "--every", "1s", "--json", movie], timeout: 180)
        try #require(run.status == 0, "\(run.stderr)")
        let lines = JSONLines.parse(run).filter { $0["type"] as? String == "text" }
        #expect(lines.count == 3, "\(run.stdoutText)")
        for (index, line) in lines.enumerated() where index < 3 {
            let time = line["time"] as? Double ?? -1
            #expect(abs(time - Double(index)) < 0.25, "\(line)")
            #expect(line["text"] as? String == "\(words[index]) \(index + 1)", "\(line)")
            #expect(line["captured"] == nil)
        }
        // For people: each frame under a heading with its time.
        let plain = try CamrecBinary.run(["text", "--every", "1s", movie], timeout: 180)
        #expect(plain.stdoutText.contains("== \(movie) at 1.0 s ==\nBRAVO 2\n"), "\(plain.stdoutText)")
    }

    @Test func aRecordedMoviesFramesCarryTheirCaptureTimes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let label = folder.path("label.png")
        let make = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=white:s=320x80", "-vf",
                                                   "drawtext=fontfile=\(Self.font):text='DOCK 14':fontsize=40:fontcolor=black:x=20:y=20",
                                                   "-frames:v", "1", label])
        try #require(make.status == 0, "\(make.stderr)")
        let movie = folder.path("m.mp4")
        let record = try CamrecBinary.run(["--device", "test", "--size", "640x480", "--fps", "30", "-t", "3", "--overlay-image", label,
                                           "--json", movie], timeout: 120)
        try #require(record.status == 0, "\(record.stderr)")
        let result = try #require(JSONLines.parse(record).first { $0["type"] as? String == "result" })
        let file = (result["files"] as? [[String: Any]])?.first ?? [:]
        let startText: String? = file["start"] as? String
        let start = try #require(startText.flatMap { CaptureTimeTests.seconds($0) }, "\(result)")
        let run = try CamrecBinary.run(["text", "--every", "1s", "--json", movie], timeout: 180)
        try #require(run.status == 0, "\(run.stderr)")
        let lines = JSONLines.parse(run).filter { $0["type"] as? String == "text" }
        #expect(lines.count == 3, "\(run.stdoutText)")
        for line in lines {
            #expect((line["text"] as? String)?.hasPrefix("DOCK 14") == true, "\(line)")
            let time = try #require(line["time"] as? Double)
            let capturedText: String? = line["captured"] as? String
            let captured = try #require(capturedText.flatMap { CaptureTimeTests.seconds($0) }, "\(line)")
            #expect(abs(captured - start - time) < 0.0015, "\(line)")
        }
    }

    @Test func aStillsCaptureTimeComesFromItsExif() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let picture = folder.path("label.jpg")
        try Self.render(picture, size: 40, ink: "0x202020", ground: "0xf0f0e8", noise: 8)
        let tag = try ChildProcess.run("exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=2026:05:04 10:11:12",
                                                    "-SubSecTimeOriginal=250", "-OffsetTimeOriginal=+02:00", picture])
        try #require(tag.status == 0, "\(tag.stderr)")
        let run = try CamrecBinary.run(["text", "--json", picture], timeout: 120)
        try #require(run.status == 0, "\(run.stderr)")
        let line = try #require(JSONLines.parse(run).first { $0["type"] as? String == "text" })
        #expect(line["captured"] as? String == "2026-05-04T10:11:12.250+02:00", "\(line)")
        #expect(line["text"] as? String == "METER 4721 kWh\nGate north open", "\(line)")
        // A zone west of UTC, with minutes.
        let west = try ChildProcess.run("exiftool", ["-q", "-overwrite_original", "-OffsetTimeOriginal=-03:30", picture])
        try #require(west.status == 0, "\(west.stderr)")
        let again = try CamrecBinary.run(["text", "--json", picture], timeout: 120)
        let other = JSONLines.parse(again).first { $0["type"] as? String == "text" }
        #expect(other?["captured"] as? String == "2026-05-04T10:11:12.250-03:30", "\(again.stdoutText)")
    }

    @Test func camrecIsNotLinkedWithLibtesseract() throws {
        let dynamic = try ChildProcess.run("readelf", ["-d", CamrecBinary.url.path])
        try #require(dynamic.status == 0 && dynamic.stdoutText.contains("(NEEDED)"), "\(dynamic.stderr)")
        #expect(!dynamic.stdoutText.contains("tesseract") && !dynamic.stdoutText.contains("libgomp")
                && !dynamic.stdoutText.contains("liblept"), "\(dynamic.stdoutText)")
    }

    @Test func aMissingModelOrLibraryExits69NamingThePackage() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let picture = folder.path("p.png")
        try Self.render(picture, size: 30, ink: "black", ground: "white")
        let model = try CamrecBinary.run(["text", "--lang", "eng+qqq", "--json", picture])
        #expect(model.status == 69, "\(model.stderr)")
        #expect(model.stderr.contains("no Tesseract model for 'qqq'") && model.stderr.contains("sudo apt-get install tesseract-ocr-qqq"),
                "\(model.stderr)")
        #expect(JSONLines.parse(model).first?["type"] as? String == "error")
        var environment = ProcessInfo.processInfo.environment
        environment["CAMREC_TESSERACT_LIBRARY"] = folder.path("libtesseract-missing.so.5")
        let library = try CamrecBinary.run(["text", picture], environment: environment)
        #expect(library.status == 69, "\(library.stderr)")
        #expect(library.stderr.contains("libtesseract cannot be loaded") && library.stderr.contains("apt-get install libtesseract5"),
                "\(library.stderr)")
        // Usage errors come first, before the library is looked for.
        let usage = try CamrecBinary.run(["text", "--lang", "x/y", picture], environment: environment)
        #expect(usage.status == 64, "\(usage.stderr)")
        // doctor says so too, as something to know (text is optional).
        let doctor = try CamrecBinary.run(["doctor", "--device", "test", "--json"], environment: environment)
        let check = JSONLines.parse(doctor).first { $0["name"] as? String == "libtesseract5" }
        #expect(check?["status"] as? String == "info", "\(doctor.stdoutText)")
        let present = try CamrecBinary.run(["doctor", "--device", "test", "--json"])
        let found = JSONLines.parse(present).first { $0["name"] as? String == "libtesseract5" }
        #expect(found?["status"] as? String == "ok" && (found?["message"] as? String)?.contains("reads eng") == true, "\(found ?? [:])")
    }
}

/// `camrec still --text`: a label (drawn by ffmpeg) placed in the emulated camera's picture
/// with --overlay-image is read from the photo written: a text line, the result's text and
/// text_file, and the sidecar NAME.txt.
@Suite("camrec still --text")
struct StillTextTests {
    @Test func aPhotosTextIsInItsLineItsResultAndItsSidecar() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let label = folder.path("label.png")
        let make = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=white:s=480x120", "-vf",
                                                   "drawtext=fontfile=\(TextTests.font):text='METER 4721 kWh':fontsize=44:fontcolor=black:x=20:y=35",
                                                   "-frames:v", "1", label])
        try #require(make.status == 0, "\(make.stderr)")
        let photo = folder.path("photo.jpg")
        let run = try CamrecBinary.run(["still", "--device", "test", "--size", "1280x720", "--settle", "0", "--overlay-image", label,
                                        "--text", "--json", photo], timeout: 120)
        try #require(run.status == 0, "\(run.stderr)")
        let lines = JSONLines.parse(run)
        let text = try #require(lines.first { $0["type"] as? String == "text" }, "\(run.stdoutText)")
        #expect(text["input"] as? String == photo)
        let first = try #require((text["lines"] as? [[String: Any]])?.first)
        #expect(first["text"] as? String == "METER 4721 kWh", "\(text)")
        // The label is in the top-right corner (the overlay image's default place).
        let box = first["box"] as? [Int] ?? []
        #expect(box.count == 4 && box[0] >= 1280 - 480 - 40 && box[0] + box[2] <= 1280 && box[1] + box[3] <= 160, "\(box)")
        // The capture time is the photo's own.
        let result = try #require(lines.first { $0["type"] as? String == "result" })
        let file = try #require((result["files"] as? [[String: Any]])?.first)
        #expect(text["captured"] as? String == file["capture_time"] as? String && text["captured"] != nil, "\(text) \(file)")
        #expect(file["text"] as? String == text["text"] as? String)
        #expect(file["text_file"] as? String == folder.path("photo.txt"))
        let sidecar = try String(contentsOfFile: folder.path("photo.txt"), encoding: .utf8)
        #expect(sidecar == (text["text"] as? String ?? "") + "\n" && sidecar.hasPrefix("METER 4721 kWh\n"), "\(sidecar)")
        // A missing model stops before the camera is opened: no photo.
        let missing = try CamrecBinary.run(["still", "--device", "test", "--settle", "0", "--text", "--text-lang", "qqq",
                                            folder.path("none.jpg")])
        #expect(missing.status == 69 && missing.stderr.contains("tesseract-ocr-qqq"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("none.jpg")))
        let usage = try CamrecBinary.run(["still", "--device", "test", "--text-lang", "eng", folder.path("none.jpg")])
        #expect(usage.status == 64 && usage.stderr.contains("--text-lang applies to --text"), "\(usage.stderr)")
    }
}

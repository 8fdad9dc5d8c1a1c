import Foundation
import Testing

/// `camrec sheet`: each tile is the frame of the movies it says (checked against ffmpeg's
/// own decoding of that frame), captioned with its capture time; bad input is refused with
/// its exit code and nothing written.
@Suite("camrec sheet")
struct SheetTests {
    /// PSNR (dB) of the sheet's rectangle at (x, y) against frame `index` of `movie`, both
    /// `width`×`height` (ffmpeg scales the frame bilinearly, as GStreamer's videoscale does).
    static func psnr(sheet: String, x: Int, y: Int, width: Int, height: Int, movie: String, frame index: Int,
                     in folder: TemporaryFolder) throws -> Double {
        let frame = folder.path("frame-\(index).png")
        _ = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", movie, "-vf",
                                            "select=eq(n\\,\(index)),scale=\(width):\(height):flags=bilinear", "-frames:v", "1", frame])
        let run = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "info", "-i", sheet, "-i", frame, "-lavfi",
                                                  "[0]crop=\(width):\(height):\(x):\(y)[a];[a][1]psnr", "-f", "null", "-"])
        let text = run.stderr
        guard let range = text.range(of: #"average:[0-9.]+"#, options: .regularExpression),
              let value = Double(text[range].dropFirst("average:".count))
        else { throw MediaProbe.Failure(description: "ffmpeg measured no PSNR for frame \(index) of \(movie): \(text.suffix(300))") }
        return value
    }

    @Test func eachTileIsTheFrameItSaysCaptionedWithItsCaptureTime() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let record = try CamrecBinary.run(["--device", "test", "--size", "640x480", "--fps", "30", "-t", "4", "--segment", "2",
                                           "--json", folder.path("m.mp4")])
        try #require(record.status == 0, "\(record.stderr)")
        let starts = Dictionary(uniqueKeysWithValues: JSONLines.parse(record).filter { $0["type"] as? String == "segment" }.compactMap { line in
            (line["path"] as? String).flatMap { path in (line["start"] as? String).flatMap(CaptureTimeTests.seconds).map { (path, $0) } }
        })
        let movies = [folder.path("m-0001.mp4"), folder.path("m-0002.mp4")]
        let sheet = folder.path("s.png")
        let run = try CamrecBinary.run(["sheet", "--count", "6", "--columns", "3", "--json", "-o", sheet] + movies)
        try #require(run.status == 0, "\(run.stderr)")
        let line = try #require(JSONLines.parse(run).first { $0["type"] as? String == "sheet" })
        let tiles = try #require(line["tiles"] as? [[String: Any]])
        #expect(tiles.count == 6 && line["columns"] as? Int == 3 && line["rows"] as? Int == 2)
        let size = try ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", sheet])
        #expect(size.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "\(line["width"] ?? 0),\(line["height"] ?? 0)")
        #expect(line["width"] as? Int == 4 + 3 * 324 && line["height"] as? Int == 4 + 2 * (240 + 24 + 4))
        var previous = -1.0
        for (index, tile) in tiles.enumerated() {
            let movie = try #require(tile["input"] as? String)
            let time = try #require(tile["time"] as? Double)
            let frame = Int((time * 30).rounded())
            let (x, y) = (4 + index % 3 * 324, 4 + index / 3 * 268)
            let right = try Self.psnr(sheet: sheet, x: x, y: y, width: 320, height: 240, movie: movie, frame: frame, in: folder)
            let wrong = try Self.psnr(sheet: sheet, x: x, y: y, width: 320, height: 240, movie: movie, frame: frame + 3, in: folder)
            #expect(right > 22 && right > wrong + 6, "tile \(index): \(right) dB against frame \(frame), \(wrong) dB against frame \(frame + 3)")
            // Its capture time: the segment's first frame's, plus its time in the segment.
            let captured = try #require((tile["captured"] as? String).flatMap(CaptureTimeTests.seconds), "\(tile)")
            let start = try #require(starts[movie], "\(movie) in \(starts)")
            #expect(abs(captured - start - time) < 0.0015, "tile \(index): \(tile)")
            // In order across the two movies.
            #expect(captured > previous)
            previous = captured
        }
    }

    @Test func badInputIsRefusedAndNothingIsWritten() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Data("not a movie".utf8).write(to: URL(fileURLWithPath: folder.path("text.mp4")))
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder.path("taken.jpg")))
        let cases: [([String], Int32, String)] = [
            (["-o", folder.path("a.jpg"), folder.path("missing.mp4")], 66, "no such movie"),
            (["-o", folder.path("a.gif"), folder.path("text.mp4")], 64, "end the name with .jpg"),
            (["--count", "0", "-o", folder.path("a.jpg"), folder.path("text.mp4")], 64, "--count '0'"),
            (["--count", "3", "--every", "1s", "-o", folder.path("a.jpg"), folder.path("text.mp4")], 64, "contradict"),
            (["-o", folder.path("a.jpg"), folder.path("text.mp4")], 65, "holds no picture"),
            (["-o", folder.path("taken.jpg"), folder.path("text.mp4")], 73, "exists"),
        ]
        for (arguments, status, message) in cases {
            let run = try CamrecBinary.run(["sheet"] + arguments)
            #expect(run.status == status, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        #expect(folder.contents == ["taken.jpg", "text.mp4"])
    }
}

import Foundation
import Testing

/// A still must look like the movie: JPEG is full range (Y 0–255), camera and test-pattern
/// frames are limited range (Y 16–235), so a still written without converting shows black as
/// grey 16 and white as 235. ffmpeg, not camrec, decodes both files here.
@Suite struct StillLevelsTests {
    func camera(_ spec: String = "/dev/video0,formats=yuyv") throws -> [String: String] {
        try VirtualCameraEnvironment.shared().environment(spec: spec)
    }

    /// Mean R, G and B of a `size`×`size` square at (`x`, `y`) of frame `frame` of `path`,
    /// decoded by ffmpeg to RGB (which applies the file's range and matrix).
    static func meanRGB(_ path: String, frame: Int = 0, x: Int, y: Int, size: Int = 8) throws -> [Double] {
        let result = try ChildProcess.run("ffmpeg", [
            "-nostdin", "-v", "error", "-i", path, "-vf", "select=eq(n\\,\(frame)),crop=\(size):\(size):\(x):\(y)",
            "-fps_mode", "passthrough", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
        ])
        let bytes = [UInt8](result.stdout)
        guard result.status == 0, bytes.count == size * size * 3 else {
            throw LevelsError(description: "ffmpeg decoded \(bytes.count) bytes of \(path) frame \(frame): \(result.stderr)")
        }
        return (0..<3).map { channel in
            Double(stride(from: channel, to: bytes.count, by: 3).reduce(0) { $0 + Int(bytes[$1]) }) / Double(size * size)
        }
    }

    /// The emulated camera's stamp band starts with a white block (Y 235) and a black one
    /// (Y 16), 16 px wide at 640x480: their middles, decoded to RGB.
    static func stampLevels(_ path: String, frame: Int = 0) throws -> (white: [Double], black: [Double]) {
        (try meanRGB(path, frame: frame, x: 4, y: 4), try meanRGB(path, frame: frame, x: 20, y: 4))
    }

    struct LevelsError: Error, CustomStringConvertible { let description: String }

    @Test(arguments: ["photo.jpg", "photo.png"])
    func photoFromARawCameraHasFullBlackAndWhite(_ name: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let photo = folder.path(name)
        let result = try CamrecBinary.run(["still", "--size", "640x480", "--settle", "0", photo], environment: camera())
        #expect(result.status == 0, "\(result.stderr)")
        let levels = try Self.stampLevels(photo)
        #expect(levels.white.allSatisfy { $0 >= 245 }, "white decodes as \(levels.white)")
        #expect(levels.black.allSatisfy { $0 <= 10 }, "black decodes as \(levels.black)")
    }

    /// A still taken while recording from a YUYV camera decodes like the movie's frame it
    /// reports (the same camera frame), and black and white are black and white.
    @Test func stillWhileRecordingLooksLikeTheMovie() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let output = folder.path("movie.mp4")
        let socket = folder.path("control")
        let run = try CamrecBinary.start(["--size", "640x480", "--max-duration", "none", "--control", socket, "--json", output],
                                         environment: camera())
        // A still needs a frame: ask once the movie has some, and stop once the still is written.
        try #require(RecordingWait.frames(5, socket: socket), "no frame within 60 s: \(run.stderrText)")
        run.signal(SIGUSR1)
        #expect(run.waitForLine(type: "still"), "\(run.stderrText)")
        #expect(RecordingWait.stop(socket: socket))
        #expect(run.wait() == 0, "\(run.stderrText)")
        let still = try #require(run.jsonLines.first { $0["type"] as? String == "still" })
        let path = try #require(still["path"] as? String)
        let frame = try #require(still["frame"] as? Int)
        let stillLevels = try Self.stampLevels(path)
        let movieLevels = try Self.stampLevels(output, frame: frame)
        #expect(stillLevels.white.allSatisfy { $0 >= 245 }, "still white \(stillLevels.white)")
        #expect(stillLevels.black.allSatisfy { $0 <= 10 }, "still black \(stillLevels.black)")
        for (stillValue, movieValue) in zip(stillLevels.white + stillLevels.black, movieLevels.white + movieLevels.black) {
            #expect(abs(stillValue - movieValue) <= 8,
                    "still \(stillLevels) against movie frame \(frame) \(movieLevels)")
        }
    }

    /// `--device test` (videotestsrc's SMPTE bars, limited range): a good share of the photo
    /// is full white and full black once decoded.
    @Test func testPatternPhotoReachesBlackAndWhite() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let photo = folder.path("bars.jpg")
        let result = try CamrecBinary.run(["still", "--device", "test", "--size", "640x480", "--settle", "0", photo])
        #expect(result.status == 0, "\(result.stderr)")
        let decoded = try ChildProcess.run("ffmpeg", ["-nostdin", "-v", "error", "-i", photo, "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        let luma = [UInt8](decoded.stdout)
        #expect(luma.count == 640 * 480, "\(decoded.stderr)")
        let white = Double(luma.filter { $0 >= 245 }.count) / Double(max(luma.count, 1))
        let black = Double(luma.filter { $0 <= 10 }.count) / Double(max(luma.count, 1))
        #expect(white > 0.05, "\(Int(white * 100))% of the photo is white (Y ≥ 245)")
        #expect(black > 0.05, "\(Int(black * 100))% of the photo is black (Y ≤ 10)")
    }
}

import Foundation
import Testing
@testable import CamrecKit
@testable import Trim

/// Item 4 of issue 30: the check a trim's output must pass before it is published decodes it
/// and fails on any frame missing, doubled or at another time than planned. Here it is run
/// on movies made by ffmpeg, against plans that do or do not fit them.
@Suite("Trim output check", .serialized)
struct TrimOutputCheckTests {
    /// 10 s at 30 fps without B-frames: frame n at n/30 s.
    static func movie(_ folder: TemporaryFolder, name: String, filter: [String] = []) throws -> String {
        try WildMedia.ffmpeg(folder.path(name), input: "testsrc2=size=320x240:rate=30:duration=10", filter + [
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-bf", "0",
        ])
    }

    static func times(_ frames: [Int]) -> [Int64] { frames.map { Int64($0) * 1_000_000_000 / 30 } }

    /// A join at frame 150: the check decodes the start, the end and around the join.
    static func check(_ frames: [Int]) -> DecodedOutputCheck {
        DecodedOutputCheck(expected: times(frames), joins: [frames.count / 2])
    }

    @Test("item 4: a movie that holds the planned frames passes, decoded in windows")
    func matchingPlanPasses() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = try Self.movie(folder, name: "in.mp4")
        let check = Self.check(Array(0..<300))
        #expect(check.windows.count == 3, "\(check.windows)")
        try check.verify(path: movie, container: .mp4, codec: .h264, control: TrimControl())
    }

    @Test("item 4: a frame missing, an extra frame or frames shifted by one fail the check")
    func mismatchesFail() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let movie = try Self.movie(folder, name: "in.mp4")
        // The plan wants a frame the movie lacks (the movie shows one more than planned).
        var missing = Array(0..<300)
        missing.remove(at: 160)
        // … the last frame planned later than it is; the second half planned a frame late.
        let plans = [missing, Array(0..<299) + [300], (0..<300).map { $0 < 150 ? $0 : $0 + 1 }]
        for plan in plans {
            #expect(throws: CamrecError.self, "plan \(plan.prefix(3))…") {
                try Self.check(plan).verify(path: movie, container: .mp4, codec: .h264, control: TrimControl())
            }
        }
        // A movie that lost a frame (ffmpeg drops frame 160 and keeps the others' times).
        let holed = try Self.movie(folder, name: "holed.mkv", filter: ["-vf", "select='not(eq(n\\,160))'", "-fps_mode", "passthrough"])
        do {
            try Self.check(Array(0..<300)).verify(path: holed, container: .matroska, codec: .h264, control: TrimControl())
            Issue.record("a movie without frame 160 passed the check")
        } catch let error as CamrecError {
            #expect(error.message.contains("frames where") && error.message.contains("were planned"), "\(error.message)")
        }
    }
}

import CamrecKit
import Foundation
import Testing

/// End to end: H.264 with B-frames (ffmpeg/libx264 defaults: B-pyramid, an edit list in
/// MP4) and long GOPs.
@Suite("Trim B-frames and long GOPs", .serialized)
struct TrimBFrameTests {
    static let bFrames = ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-bf", "3", "-g", "30", "-sc_threshold", "0"]

    @Test("accurate cut of B-frame movies", arguments: ["mp4", "mkv", "mov"])
    func accurate(container: String) throws {
        let media = try MediaFactory()
        let input = try media.ffmpeg("in.\(container)", seconds: 4, videoOptions: Self.bFrames, audio: true)
        let output = media.path("out.\(container)")
        let result = try Trimmer.run(TrimRequest(
            input: input, start: .init(nanoseconds: 1_400_000_000), end: .init(nanoseconds: 3_250_000_000),
            destination: .path(output)
        ))
        #expect(result.mode == .accurate)
        #expect(result.framesCopied > 0)
        let check = TrimExpectations(input: input, output: output, start: 1.4, end: 3.25)
        try check.checkAccurate(result)
        try check.checkAudio(videoDuration: result.duration)
    }

    @Test("keyframe and reencode modes with B-frames", arguments: [TrimMode.keyframe, .reencode])
    func otherModes(mode: TrimMode) throws {
        let media = try MediaFactory()
        let input = try media.ffmpeg("in.mp4", seconds: 4, videoOptions: Self.bFrames, audio: true)
        let output = media.path("out.mp4")
        let result = try Trimmer.run(TrimRequest(
            input: input, start: .init(nanoseconds: 1_500_000_000), end: .init(nanoseconds: 3_000_000_000),
            mode: mode, destination: .path(output)
        ))
        let start = mode == .keyframe ? 1.0 : 1.5
        #expect(abs(result.firstFrameTime - start) < 0.002)
        let check = TrimExpectations(input: input, output: output, start: start, end: 3.0)
        try check.checkAccurate(result, expectCopied: mode == .keyframe)
        try check.checkAudio(videoDuration: result.duration)
    }

    @Test("long GOP (10 s) cut in the middle")
    func longGOP() throws {
        let media = try MediaFactory()
        let options = ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-g", "300", "-keyint_min", "300", "-sc_threshold", "0"]
        let input = try media.ffmpeg("in.mp4", seconds: 12, videoOptions: options)
        let output = media.path("out.mp4")
        let result = try Trimmer.run(TrimRequest(
            input: input, start: .init(nanoseconds: 3_000_000_000), end: .init(nanoseconds: 11_000_000_000),
            destination: .path(output)
        ))
        #expect(result.framesCopied > 0)
        let check = TrimExpectations(input: input, output: output, start: 3, end: 11)
        try check.checkAccurate(result)
    }
}

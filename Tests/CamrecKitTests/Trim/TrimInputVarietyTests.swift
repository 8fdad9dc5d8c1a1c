import CamrecKit
import Foundation
import Testing

/// End to end: inputs beyond camrec's own recordings (edit lists, open GOPs, variable
/// frame rate, 4:2:2, Opus, late audio, HEVC and MJPEG; other codecs and formats are in
/// TrimOtherToolsTests).
@Suite("Trim other inputs", .serialized)
struct TrimInputVarietyTests {
    @Test("an input that already carries an edit list (cut mid-GOP by ffmpeg -ss -c copy)")
    func editList() throws {
        let media = try MediaFactory()
        let source = try media.camrecLike("source.mp4", seconds: 5)
        let input = media.path("in.mp4")
        try ProcessRunner.check("ffmpeg", ["-nostdin", "-v", "error", "-ss", "1.5", "-i", source, "-c", "copy", input])
        let output = media.path("out.mp4")
        let result = try Trimmer.run(TrimRequest(
            input: input, start: .init(nanoseconds: 300_000_000), end: .init(nanoseconds: 2_800_000_000), destination: .path(output)
        ))
        let check = TrimExpectations(input: input, output: output, start: 0.3, end: 2.8)
        try check.checkAccurate(result)
        try check.checkAudio(videoDuration: result.duration)
    }

    /// libx264 with open GOPs: its I-frames after the first are not IDR pictures.
    static let openGOPOptions = [
        "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-bf", "2", "-g", "30",
        "-sc_threshold", "0", "-x264-params", "open-gop=1",
    ]

    @Test("open GOP with B-frames")
    func openGOP() throws {
        let media = try MediaFactory()
        let input = try media.ffmpeg("in.mp4", seconds: 4, videoOptions: Self.openGOPOptions)
        let output = media.path("out.mp4")
        let result = try Trimmer.run(TrimRequest(
            input: input, start: .init(nanoseconds: 1_400_000_000), end: .init(nanoseconds: 3_300_000_000), destination: .path(output)
        ))
        let check = TrimExpectations(input: input, output: output, start: 1.4, end: 3.3)
        try check.checkAccurate(result, expectCopied: false)
        // Keyframe mode copies from an IDR picture only (here the first frame): starting on an
        // open-GOP I-frame leaves references to pictures before it.
        let keyframeOut = media.path("key.mp4")
        let copied = try Trimmer.run(TrimRequest(
            input: input, start: .init(nanoseconds: 1_400_000_000), end: .init(nanoseconds: 3_300_000_000), mode: .keyframe,
            destination: .path(keyframeOut)
        ))
        #expect(copied.framesReencoded == 0)
        #expect(copied.firstFrameTime == 0)
        // The end snaps to the last frame whose B-frame neighbours are all before it.
        #expect(copied.lastFrameTime <= 3.3)
        try TrimExpectations(input: input, output: keyframeOut, start: 0, end: copied.lastFrameTime + 0.001).checkAccurate(copied)
    }

    @Test("variable frame rate")
    func variableFrameRate() throws {
        let media = try MediaFactory()
        let input = try media.ffmpeg("in.mp4", seconds: 4, videoOptions: [
            "-vf", "select='not(mod(n\\,3))+not(mod(n\\,5))'", "-vsync", "vfr",
            "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-bf", "0", "-g", "15",
        ], audio: true)
        let output = media.path("out.mp4")
        let result = try Trimmer.run(TrimRequest(
            input: input, start: .init(nanoseconds: 1_100_000_000), end: .init(nanoseconds: 3_100_000_000), destination: .path(output)
        ))
        let check = TrimExpectations(input: input, output: output, start: 1.1, end: 3.1)
        try check.checkAccurate(result)
        try check.checkAudio(videoDuration: result.duration)
    }

    @Test("4:2:2 (High 4:2:2)", arguments: ["mp4", "mkv"])
    func chroma422(container: String) throws {
        let media = try MediaFactory()
        let input = try media.ffmpeg("in.\(container)", seconds: 3, videoOptions: [
            "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv422p", "-bf", "0", "-g", "30",
        ])
        let output = media.path("out.\(container)")
        let result = try Trimmer.run(TrimRequest(
            input: input, start: .init(nanoseconds: 700_000_000), end: .init(nanoseconds: 2_500_000_000), destination: .path(output)
        ))
        let check = TrimExpectations(input: input, output: output, start: 0.7, end: 2.5)
        try check.checkAccurate(result)
        let format = try ProcessRunner.check("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=pix_fmt", "-of", "csv=p=0", output])
        #expect(format.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "yuv422p")
    }

    @Test("Opus audio", arguments: ["mkv", "mp4"])
    func opus(container: String) throws {
        let media = try MediaFactory()
        let input = media.path("in.\(container)")
        try ProcessRunner.check("ffmpeg", [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=4",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=4",
            "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-bf", "0", "-g", "30",
            "-c:a", "libopus", "-strict", "-2", input,
        ])
        let output = media.path("out.\(container)")
        let result = try Trimmer.run(TrimRequest(
            input: input, start: .init(nanoseconds: 1_300_000_000), end: .init(nanoseconds: 3_000_000_000), destination: .path(output)
        ))
        let check = TrimExpectations(input: input, output: output, start: 1.3, end: 3.0)
        try check.checkAccurate(result)
        try check.checkAudio(videoDuration: result.duration, frame: 0.020)
    }

    @Test("audio that starts later than the video")
    func lateAudio() throws {
        let media = try MediaFactory()
        let input = try media.lateAudio("in.mp4")
        let audioStart = try FFprobe.audioSpan(input)?.start ?? 0
        #expect(audioStart > 0.9)
        let output = media.path("out.mp4")
        let result = try Trimmer.run(TrimRequest(
            input: input, start: .init(nanoseconds: 500_000_000), end: .init(nanoseconds: 3_500_000_000), destination: .path(output)
        ))
        let check = TrimExpectations(input: input, output: output, start: 0.5, end: 3.5)
        try check.checkAccurate(result)
        try check.checkAudio(videoDuration: result.duration, expectedStart: audioStart - 0.5)
    }

    @Test("HEVC: accurate falls back to keyframe mode and says so; reencode gives H.264")
    func hevc() throws {
        let media = try MediaFactory()
        let input = try media.ffmpeg("in.mp4", seconds: 3, videoOptions: [
            "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "keyint=30:min-keyint=30:bframes=0:log-level=error",
            "-pix_fmt", "yuv420p",
        ])
        let keyframeOut = media.path("key.mp4")
        let result = try Trimmer.run(TrimRequest(
            input: input, start: .init(nanoseconds: 1_500_000_000), end: .init(nanoseconds: 2_500_000_000), destination: .path(keyframeOut)
        ))
        #expect(result.mode == .keyframe)
        #expect(result.requestedMode == .accurate)
        #expect(result.fallbackReason?.contains("HEVC") == true)
        #expect(abs(result.firstFrameTime - 1.0) < 0.002)
        try TrimExpectations(input: input, output: keyframeOut, start: 1.0, end: 2.5).checkAccurate(result)
        let reencodeOut = media.path("re.mp4")
        let reencoded = try Trimmer.run(TrimRequest(
            input: input, start: .init(nanoseconds: 1_500_000_000), end: .init(nanoseconds: 2_500_000_000), mode: .reencode,
            destination: .path(reencodeOut)
        ))
        #expect(reencoded.mode == .reencode)
        try TrimExpectations(input: input, output: reencodeOut, start: 1.5, end: 2.5).checkAccurate(reencoded, expectCopied: false)
        let codec = try ProcessRunner.check("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name", "-of", "csv=p=0", reencodeOut])
        #expect(codec.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "h264")
    }

    @Test("a video codec a muxer cannot write is named with the muxer, and the way out")
    func unwritableCodec() throws {
        let media = try MediaFactory()
        // GStreamer's mp4mux takes no MPEG-2 video (camrec's own MP4 writer copies it MP4 to MP4).
        let input = try media.ffmpeg("in.mkv", seconds: 1, videoOptions: ["-c:v", "mpeg2video"])
        do {
            _ = try Trimmer.run(TrimRequest(
                input: input, start: .init(nanoseconds: 500_000_000), destination: .path(media.path("out.mp4"))
            ))
            Issue.record("expected a failure")
        } catch {
            #expect(error.status == .invalidInput)
            #expect(error.message.contains("mp4mux cannot write its video codec (MPEG-2 video"), "\(error.message)")
            #expect(error.message.contains("write .mkv"), "\(error.message)")
        }
        #expect(!FileManager.default.fileExists(atPath: media.path("out.mp4")))
    }

    @Test("MJPEG (all intra): accurate by copying alone", arguments: ["mkv", "mov"])
    func mjpeg(container: String) throws {
        let media = try MediaFactory()
        let input = try media.ffmpeg("in.\(container)", seconds: 3, videoOptions: ["-c:v", "mjpeg", "-q:v", "5", "-pix_fmt", "yuvj420p"])
        let output = media.path("out.\(container)")
        let result = try Trimmer.run(TrimRequest(
            input: input, start: .init(nanoseconds: 1_010_000_000), end: .init(nanoseconds: 2_000_000_000), destination: .path(output)
        ))
        #expect(result.mode == .accurate)
        #expect(result.framesReencoded == 0)
        try TrimExpectations(input: input, output: output, start: 1.01, end: 2.0).checkAccurate(result)
    }
}

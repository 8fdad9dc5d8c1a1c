import CamrecKit
import Foundation
import Testing

/// End to end: movies made by other tools (ffmpeg) in formats and codecs camrec does not
/// record. The re-encoded edges must be in the source's own format (codec, bit depth,
/// chroma, profile and level: checked per frame and per parameter set by ffprobe and
/// ffmpeg's trace_headers), and every codec a muxer carries is cut.
@Suite("Trim movies from other tools", .serialized)
struct TrimOtherToolsTests {
    /// An H.264 input: ffmpeg's libx264 with these options.
    struct H264Input: CustomTestStringConvertible, Sendable {
        var name: String
        var options: [String]
        var testDescription: String { name }

        static let all = [
            H264Input(name: "8-bit High", options: ["-pix_fmt", "yuv420p"]),
            H264Input(name: "10-bit 4:2:0 (High 10)", options: ["-pix_fmt", "yuv420p10le"]),
            H264Input(name: "10-bit 4:2:2 (High 4:2:2)", options: ["-pix_fmt", "yuv422p10le"]),
            H264Input(name: "Baseline", options: ["-pix_fmt", "yuv420p", "-profile:v", "baseline"]),
            H264Input(name: "Main, level 3.1", options: ["-pix_fmt", "yuv420p", "-profile:v", "main", "-level", "3.1"]),
        ]
    }

    @Test("H.264 edges in the source's bit depth, chroma, profile and level", arguments: H264Input.all, ["mp4", "mkv"])
    func h264Format(input kind: H264Input, container: String) throws {
        let media = try MediaFactory()
        // libx264's default B-frames (not in Baseline): both a head and a tail are re-encoded.
        let input = try media.ffmpeg("in.\(container)", seconds: 2, videoOptions: [
            "-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-sc_threshold", "0",
        ] + kind.options)
        let output = media.path("out.\(container)")
        let result = try Trimmer.run(TrimRequest(
            input: input, start: .init(nanoseconds: 400_000_000), end: .init(nanoseconds: 1_700_000_000),
            destination: .path(output)
        ))
        #expect(result.mode == .accurate)
        #expect(result.framesReencoded > 0 && result.framesCopied > 0, "\(result)")
        let check = TrimExpectations(input: input, output: output, start: 0.4, end: 1.7)
        try check.checkAccurate(result)

        // What a player is told (the sample description) equals the source's …
        let source = try FFprobe.streamFormat(input)
        #expect(try FFprobe.streamFormat(output) == source)
        // … and holds for every frame: bit depth and chroma of each decoded picture,
        let formats = try FFprobe.framePixelFormats(output)
        #expect(formats.count == result.frames)
        #expect(formats.allSatisfy { $0 == source.pixelFormat }, "\(Set(formats)) against \(source.pixelFormat)")
        // and profile, level, chroma format and bit depth of every parameter set.
        let sourceSets = try FFprobe.h264SequenceFields(input)
        let outputSets = try FFprobe.h264SequenceFields(output)
        let profile = try #require(sourceSets["profile_idc"]?.first)
        let level = try #require(sourceSets["level_idc"]?.first)
        #expect((outputSets["profile_idc"]?.count ?? 0) >= 2, "the source's and the edges' sets")
        #expect(outputSets["profile_idc"]?.allSatisfy { $0 == profile } == true, "\(outputSets)")
        #expect(outputSets["level_idc"]?.allSatisfy { $0 <= level } == true, "\(outputSets)")
        for field in ["chroma_format_idc", "bit_depth_luma_minus8", "bit_depth_chroma_minus8"] {
            let expected = Set(sourceSets[field] ?? [])
            #expect(Set(outputSets[field] ?? []) == expected, "\(field): \(outputSets)")
        }
        // The edges look like the source.
        let head = result.framesReencoded > 0 ? min(10, result.framesReencoded) : 0
        let psnr = try #require(try FFprobe.psnr(output: output, input: input, outputFrom: 0, count: head, inputStart: 0.4))
        #expect(psnr > 40, "head PSNR \(psnr) dB")
    }

    /// A video codec other than H.264, made by ffmpeg.
    struct CodecInput: CustomTestStringConvertible, Sendable {
        var name: String
        var file: String
        var options: [String]
        var testDescription: String { "\(name) in \(file)" }

        static let vp9 = ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "30"]
        static let av1 = ["-c:v", "libaom-av1", "-usage", "realtime", "-cpu-used", "8", "-g", "30"]

        static let all = [
            CodecInput(name: "MPEG-4 Part 2", file: "in.mp4", options: ["-c:v", "mpeg4", "-g", "30", "-q:v", "4"]),
            CodecInput(name: "MPEG-4 Part 2", file: "in.mkv", options: ["-c:v", "mpeg4", "-g", "30", "-q:v", "4"]),
            CodecInput(name: "VP9", file: "in.mkv", options: vp9),
            CodecInput(name: "VP9 10-bit", file: "in.mp4", options: vp9 + ["-pix_fmt", "yuv420p10le"]),
            CodecInput(name: "VP8", file: "in.mkv", options: ["-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-g", "30"]),
            CodecInput(name: "AV1", file: "in.mp4", options: av1),
            CodecInput(name: "AV1", file: "in.mkv", options: av1),
            CodecInput(name: "MPEG-2", file: "in.mkv", options: ["-c:v", "mpeg2video", "-g", "30", "-q:v", "3"]),
            CodecInput(name: "MPEG-2", file: "in.mp4", options: ["-c:v", "mpeg2video", "-g", "30", "-q:v", "3"]),
        ]
    }

    @Test("codecs with an encoder here are cut frame-accurately in their own codec and format", arguments: CodecInput.all)
    func otherCodec(input kind: CodecInput) throws {
        let media = try MediaFactory()
        let input = try media.ffmpeg(kind.file, seconds: 2, videoOptions: kind.options)
        let output = media.path("out" + kind.file.dropFirst(2))
        let result = try Trimmer.run(TrimRequest(
            input: input, start: .init(nanoseconds: 400_000_000), end: .init(nanoseconds: 1_700_000_000),
            destination: .path(output)
        ))
        #expect(result.mode == .accurate, "\(result)")
        #expect(result.fallbackReason == nil)
        #expect(result.framesReencoded > 0 && result.framesCopied > 0, "\(result)")
        try TrimExpectations(input: input, output: output, start: 0.4, end: 1.7).checkAccurate(result)
        let source = try FFprobe.streamFormat(input)
        let written = try FFprobe.streamFormat(output)
        #expect(written.codec == source.codec && written.profile == source.profile, "\(written) against \(source)")
        let formats = try FFprobe.framePixelFormats(output)
        #expect(formats.count == result.frames)
        #expect(formats.allSatisfy { $0 == source.pixelFormat }, "\(Set(formats)) against \(source.pixelFormat)")
        let psnr = try #require(try FFprobe.psnr(
            output: output, input: input, outputFrom: 0, count: min(10, result.framesReencoded), inputStart: 0.4
        ))
        #expect(psnr > 38, "head PSNR \(psnr) dB")
    }

    @Test("10-bit AV1 has no encoder here: a keyframe cut that says why")
    func tenBitAV1() throws {
        let media = try MediaFactory()
        let input = try media.ffmpeg("in.mp4", seconds: 2, videoOptions: CodecInput.av1 + ["-pix_fmt", "yuv420p10le"])
        let output = media.path("out.mp4")
        let result = try Trimmer.run(TrimRequest(
            input: input, start: .init(nanoseconds: 1_400_000_000), destination: .path(output)
        ))
        #expect(result.mode == .keyframe && result.requestedMode == .accurate)
        // qtdemux gives AV1's configuration without its av1C header: the encoder's refusal
        // of the decoded 10-bit frames says it (never a silent conversion to 8 bits).
        #expect(result.fallbackReason?.contains("av1enc here cannot encode I420_10LE frames") == true,
                "\(String(describing: result.fallbackReason))")
        #expect(abs(result.firstFrameTime - 1.0) < 0.002)
        try TrimExpectations(input: input, output: output, start: 1.0, end: 2.0).checkAccurate(result)
        #expect(try FFprobe.streamFormat(output) == FFprobe.streamFormat(input))
    }
}

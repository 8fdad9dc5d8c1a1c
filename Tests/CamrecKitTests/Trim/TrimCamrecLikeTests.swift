import CamrecKit
import Foundation
import Testing

/// End to end: camrec-like movies (H.264 without B-frames, closed 1 s GOP, 30 fps) in MP4,
/// MOV and MKV, with and without AAC, in the three modes.
@Suite("Trim camrec-like movies", .serialized)
struct TrimCamrecLikeTests {
    static let containers = ["mp4", "mkv", "mov"]

    @Test("accurate cut of both ends", arguments: containers, [true, false])
    func accurateBothEnds(container: String, audio: Bool) throws {
        let media = try MediaFactory()
        let input = try media.camrecLike("in.\(container)", seconds: 4, audio: audio)
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        let output = media.path("out.\(container)")
        let result = try Trimmer.run(TrimRequest(
            input: input, start: .init(nanoseconds: 1_400_000_000), end: .init(nanoseconds: 3_250_000_000),
            destination: .path(output)
        ))
        #expect(result.mode == .accurate)
        #expect(result.framesReencoded == 18)  // 1.400 … 1.967 s, up to the keyframe at 2 s
        #expect(result.framesCopied == 38)  // 2.000 … 3.233 s
        let check = TrimExpectations(input: input, output: output, start: 1.4, end: 3.25)
        try check.checkAccurate(result)
        // The re-encoded head is close to the source.
        let quality = try FFprobe.psnr(output: output, input: input, start: 1.4, frames: result.framesReencoded)
        #expect((quality ?? 0) > 40, "head PSNR \(quality ?? 0) dB")
        if audio { try check.checkAudio(videoDuration: result.duration) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before, "input unchanged")
    }

    @Test("accurate cut starting on a keyframe copies everything")
    func startOnKeyframe() throws {
        let media = try MediaFactory()
        let input = try media.camrecLike("in.mp4", seconds: 3)
        let output = media.path("out.mp4")
        let result = try Trimmer.run(TrimRequest(input: input, start: .seconds(1), destination: .path(output)))
        #expect(result.framesReencoded == 0)
        #expect(result.framesCopied == 60)
        let check = TrimExpectations(input: input, output: output, start: 1, end: 3)
        try check.checkAccurate(result)
        try check.checkAudio(videoDuration: result.duration)
    }

    @Test("negative end drops the last seconds; default name beside the input")
    func negativeEnd() throws {
        let media = try MediaFactory()
        let input = try media.camrecLike("clip.mkv", seconds: 4)
        let result = try Trimmer.run(TrimRequest(input: input, end: .seconds(-3)))
        #expect(result.output == media.path("clip-trimmed.mkv"))
        #expect(result.framesReencoded == 0)
        let check = TrimExpectations(input: input, output: result.output, start: 0, end: 1)
        try check.checkAccurate(result)
        try check.checkAudio(videoDuration: result.duration)
    }

    @Test("a cut inside one GOP is all re-encoded", arguments: ["mp4", "mkv"])
    func insideOneGOP(container: String) throws {
        let media = try MediaFactory()
        let input = try media.camrecLike("in.\(container)", seconds: 3)
        let output = media.path("out.\(container)")
        let result = try Trimmer.run(TrimRequest(
            input: input, start: .init(nanoseconds: 1_200_000_000), end: .init(nanoseconds: 1_700_000_000),
            destination: .path(output)
        ))
        #expect(result.framesCopied == 0)
        #expect(result.frames == 15)
        let check = TrimExpectations(input: input, output: output, start: 1.2, end: 1.7)
        try check.checkAccurate(result, expectCopied: false)
        try check.checkAudio(videoDuration: result.duration)
    }

    @Test("keyframe mode copies from the keyframe at or before the start", arguments: containers)
    func keyframeMode(container: String) throws {
        let media = try MediaFactory()
        let input = try media.camrecLike("in.\(container)", seconds: 4)
        let output = media.path("out.\(container)")
        let result = try Trimmer.run(TrimRequest(
            input: input, start: .init(nanoseconds: 1_500_000_000), end: .init(nanoseconds: 3_500_000_000),
            mode: .keyframe, destination: .path(output)
        ))
        #expect(result.mode == .keyframe)
        #expect(result.framesReencoded == 0)
        #expect(abs(result.firstFrameTime - 1.0) < 0.002, "reports the actual start")
        let check = TrimExpectations(input: input, output: output, start: 1.0, end: 3.5)
        try check.checkAccurate(result)
        try check.checkAudio(videoDuration: result.duration)
    }

    @Test("reencode mode re-encodes every frame", arguments: containers)
    func reencodeMode(container: String) throws {
        let media = try MediaFactory()
        let input = try media.camrecLike("in.\(container)", seconds: 3)
        let output = media.path("out.\(container)")
        let result = try Trimmer.run(TrimRequest(
            input: input, start: .init(nanoseconds: 500_000_000), end: .init(nanoseconds: 2_500_000_000),
            mode: .reencode, destination: .path(output)
        ))
        #expect(result.mode == .reencode)
        #expect(result.framesCopied == 0)
        #expect(result.framesReencoded == 60)
        let check = TrimExpectations(input: input, output: output, start: 0.5, end: 2.5)
        try check.checkAccurate(result, expectCopied: false)
        try check.checkAudio(videoDuration: result.duration)
    }

    @Test("in place: the input is replaced atomically")
    func inPlace() throws {
        let media = try MediaFactory()
        let input = try media.camrecLike("in.mp4", seconds: 3)
        let copy = media.path("original.mp4")
        try FileManager.default.copyItem(atPath: input, toPath: copy)
        let result = try Trimmer.run(TrimRequest(
            input: input, start: .init(nanoseconds: 700_000_000), destination: .inPlace
        ))
        #expect(result.output == URL(fileURLWithPath: input).standardizedFileURL.path)
        let check = TrimExpectations(input: copy, output: input, start: 0.7, end: 3)
        try check.checkAccurate(result)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: media.folder.path).filter { $0.hasSuffix(".part") }
        #expect(leftovers.isEmpty)
    }

    @Test("a crash-interrupted hybrid MP4 (fragmented, never finalised) is trimmed")
    func interruptedHybridMP4() throws {
        let media = try MediaFactory()
        let input = media.path("crashed.mp4")
        let description = "videotestsrc pattern=ball is-live=true ! video/x-raw,format=I420,width=320,height=240,framerate=30/1"
            + " ! x264enc bframes=0 key-int-max=30 speed-preset=ultrafast tune=zerolatency ! h264parse"
            + " ! mp4mux fragment-duration=1000 fragment-mode=first-moov-then-finalise ! filesink location=\(input)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gst-launch-1.0")
        process.arguments = ["-q"] + description.split(separator: " ").map(String.init)
        try process.run()
        Thread.sleep(forTimeInterval: 3.6)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let output = media.path("out.mp4")
        let result = try Trimmer.run(TrimRequest(
            input: input, start: .init(nanoseconds: 500_000_000), end: .init(nanoseconds: 2_500_000_000),
            destination: .path(output)
        ))
        let check = TrimExpectations(input: input, output: output, start: 0.5, end: 2.5)
        try check.checkAccurate(result)
    }
}

@Suite("Trim keeps container metadata")
struct TrimMetadataTests {
    @Test("rotation of an MP4/MOV input is kept", arguments: ["mp4", "mov"])
    func rotation(container: String) throws {
        let media = try MediaFactory()
        let plain = try media.camrecLike("plain.\(container)", seconds: 3)
        let input = media.path("rotated.\(container)")
        try ProcessRunner.check("ffmpeg", ["-nostdin", "-v", "error", "-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=90", input])
        let before = try FFprobe.rotation(input)
        #expect(before != nil && before != 0)
        let output = media.path("out.\(container)")
        let result = try Trimmer.run(TrimRequest(input: input, start: .init(nanoseconds: 600_000_000), destination: .path(output)))
        #expect(try FFprobe.rotation(output) == before)
        try TrimExpectations(input: input, output: output, start: 0.6, end: 3).checkAccurate(result)
    }
}

@Suite("Trim camrec's own recordings", .serialized)
struct TrimCamrecRecordingTests {
    /// What `camrec record` writes: x264enc tune=zerolatency (sliced threads, no B-frames),
    /// a 1 s GOP, bt709, h264parse, and the hybrid MP4 finalised on EOS, or Matroska.
    func record(_ media: MediaFactory, _ name: String, muxer: String) throws -> String {
        let output = media.path(name)
        let description = "videotestsrc num-buffers=120 pattern=ball ! video/x-raw,format=I420,width=640,height=360,framerate=30/1"
            + " ! videoconvert ! video/x-raw,format=I420,colorimetry=bt709"
            + " ! x264enc tune=zerolatency key-int-max=30 speed-preset=ultrafast threads=2 ! h264parse"
            + " ! \(muxer) ! filesink location=\(output)"
        try ProcessRunner.check("gst-launch-1.0", ["-q", "-e"] + description.split(separator: " ").map(String.init))
        return output
    }

    @Test("finalised hybrid MP4 and MKV", arguments: [
        ("rec.mp4", "mp4mux fragment-duration=1000 fragment-mode=first-moov-then-finalise"),
        ("rec.mkv", "matroskamux"),
    ])
    func recording(name: String, muxer: String) throws {
        let media = try MediaFactory()
        let input = try record(media, name, muxer: muxer)
        for mode in TrimMode.allCases {
            let output = media.path("\(mode.rawValue)-\(name)")
            let result = try Trimmer.run(TrimRequest(
                input: input, start: .init(nanoseconds: 1_250_000_000), end: .init(nanoseconds: 3_400_000_000), mode: mode,
                destination: .path(output)
            ))
            let start = mode == .keyframe ? 1.0 : 1.25
            try TrimExpectations(input: input, output: output, start: start, end: 3.4)
                .checkAccurate(result, expectCopied: mode != .reencode)
        }
    }

    @Test("another container on request: MKV in, MP4 out and back")
    func containerChange() throws {
        let media = try MediaFactory()
        let mkv = try media.camrecLike("in.mkv", seconds: 3)
        let mp4 = media.path("out.mp4")
        let result = try Trimmer.run(TrimRequest(input: mkv, start: .init(nanoseconds: 400_000_000), destination: .path(mp4)))
        let check = TrimExpectations(input: mkv, output: mp4, start: 0.4, end: 3)
        try check.checkAccurate(result)
        try check.checkAudio(videoDuration: result.duration)
        let back = media.path("back.mkv")
        let again = try Trimmer.run(TrimRequest(input: mp4, end: .seconds(-1), destination: .path(back)))
        try TrimExpectations(input: mp4, output: back, start: 0, end: 1.6).checkAccurate(again)
    }
}

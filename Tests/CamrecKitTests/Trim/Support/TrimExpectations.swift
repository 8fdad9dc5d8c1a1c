import CamrecKit
import Foundation
import Testing

/// Checks a trimmed movie against its input with ffprobe/ffmpeg, as the contract states.
struct TrimExpectations {
    var input: String
    var output: String
    /// Requested start and end on the input's timeline, in seconds.
    var start: Double
    var end: Double

    static let tolerance = 0.002

    /// Runs every check of accurate mode; returns the result's checks for further use.
    func checkAccurate(_ result: TrimResult, expectCopied: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if let keep = ProcessInfo.processInfo.environment["TRIM_TEST_KEEP"] {
            // Debugging aid: keep the media of the last check.
            for (path, name) in [(input, "input"), (output, "output")] {
                let target = keep + "/" + name + "." + (path as NSString).pathExtension
                try? FileManager.default.removeItem(atPath: target)
                try? FileManager.default.copyItem(atPath: path, toPath: target)
            }
        }
        let inputFrames = try FFprobe.videoFrames(input)
        let kept = inputFrames.filter { $0.pts >= start - 1e-6 && $0.pts < end - 1e-6 }
        let outputFrames = try FFprobe.videoFrames(output)
        #expect(outputFrames.count == kept.count, "frame count", sourceLocation: sourceLocation)
        #expect(result.frames == kept.count, sourceLocation: sourceLocation)
        #expect(abs((outputFrames.first?.pts ?? -1)) < Self.tolerance, "output starts at 0", sourceLocation: sourceLocation)
        if let first = kept.first, let last = kept.last, let outLast = outputFrames.last {
            #expect(abs(result.firstFrameTime - first.pts) < Self.tolerance, sourceLocation: sourceLocation)
            #expect(abs(result.lastFrameTime - last.pts) < Self.tolerance, sourceLocation: sourceLocation)
            #expect(abs(outLast.pts - (last.pts - first.pts)) < Self.tolerance, "last frame time", sourceLocation: sourceLocation)
        }
        try checkPackets(frameCount: kept.count, sourceLocation: sourceLocation)
        #expect(try FFprobe.decodeErrors(output) == "", sourceLocation: sourceLocation)
        #expect(result.framesCopied + result.framesReencoded == result.frames, sourceLocation: sourceLocation)
        if expectCopied {
            try checkCopiedFramesIdentical(inputFrames: inputFrames, kept: kept, result: result, sourceLocation: sourceLocation)
        }
    }

    /// DTS strictly increasing, one packet per frame.
    func checkPackets(frameCount: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let packets = try FFprobe.packets(output)
        #expect(packets.count == frameCount, "packets = frames (no hidden frames)", sourceLocation: sourceLocation)
        // Matroska stores no decoding times (ffprobe guesses them), so the DTS checks apply
        // to MP4 and MOV only.
        guard !output.hasSuffix(".mkv") else { return }
        let dts = packets.compactMap(\.dts)
        #expect(dts.count == packets.count, "every packet has a DTS", sourceLocation: sourceLocation)
        #expect(zip(dts, dts.dropFirst()).allSatisfy { $0 < $1 }, "DTS strictly increase", sourceLocation: sourceLocation)
    }

    /// The frames from the first re-used keyframe on decode to the same pictures as the input's.
    func checkCopiedFramesIdentical(
        inputFrames: [FFprobe.Frame], kept: [FFprobe.Frame], result: TrimResult, sourceLocation: SourceLocation
    ) throws {
        let inputHashes = try FFprobe.frameHashes(input)
        let outputHashes = try FFprobe.frameHashes(output)
        guard inputHashes.count == inputFrames.count, let first = kept.first,
              let firstIndex = inputFrames.firstIndex(where: { abs($0.pts - first.pts) < 1e-6 })
        else {
            Issue.record("cannot line up frame hashes", sourceLocation: sourceLocation)
            return
        }
        // The re-encoded head comes first (up to the first keyframe at or after the start),
        // then the copied body; a re-encoded tail may follow.
        let bodyStart = inputFrames.first { $0.isKey && $0.pts >= first.pts - 1e-6 }?.pts ?? .infinity
        let head = result.framesCopied == 0 ? result.framesReencoded : kept.filter { $0.pts < bodyStart - 1e-6 }.count
        let copied = result.framesCopied
        guard copied > 0 else { return }
        let expected = Array(inputHashes[(firstIndex + head)..<(firstIndex + head + copied)])
        let actual = Array(outputHashes[head..<min(outputHashes.count, head + copied)])
        #expect(actual == expected, "copied frames are bit-exact", sourceLocation: sourceLocation)
    }

    /// Audio starts within one AAC frame of the video and lasts as long as it.
    func checkAudio(
        videoDuration: Double, expectedStart: Double = 0, frame: Double = 1024.0 / 48000.0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        guard let span = try FFprobe.audioSpan(output) else {
            Issue.record("no audio in the output", sourceLocation: sourceLocation)
            return
        }
        #expect(
            span.start >= expectedStart - Self.tolerance && span.start < expectedStart + frame + Self.tolerance,
            "audio start \(span.start)", sourceLocation: sourceLocation
        )
        #expect(abs(span.end - videoDuration) < frame * 1.5, "audio end \(span.end) vs \(videoDuration)", sourceLocation: sourceLocation)
    }
}

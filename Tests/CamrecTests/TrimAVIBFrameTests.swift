import Foundation
import Testing

/// `camrec trim` on MPEG-4 Part 2 with B-frames in AVI (issue 30 item 12), as ffmpeg writes
/// it (`-c:v mpeg4 -bf 2 -g 60`: one VOP per AVI chunk, in decode order, open GOPs unless
/// `-flags +cgop`). Each output is checked by ffmpeg alone: the frame count of the range
/// asked for, copied frames bit for bit the source's (framemd5), re-encoded ones at least
/// 35 dB luma PSNR against the source's decoded frame at their place.
@Suite("Trim AVI MPEG-4 Part 2 with B-frames (issue 30 item 12)", .serialized)
struct TrimAVIBFrameTests {
    /// 6 s of 320x240 30 fps MPEG-4 Part 2 with 2 B-frames, a keyframe every 60 frames.
    static func source(_ folder: TemporaryFolder, closedGOP: Bool) throws -> String {
        try WildMedia.ffmpeg(
            folder.path(closedGOP ? "closed.avi" : "cam.avi"), input: "testsrc2=size=320x240:rate=30:duration=6",
            ["-c:v", "mpeg4", "-q:v", "3", "-bf", "2", "-g", "60"]
                + (closedGOP ? ["-flags", "+cgop", "-sc_threshold", "1000000000"] : [])
        )
    }

    struct Cut: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var closedGOP: Bool
        /// Source frames kept: frame n is shown at n/30 s.
        var frames: Range<Int>
        var testDescription: String { "\(arguments.joined(separator: " "))\(closedGOP ? " (closed GOP)" : "")" }
    }

    static let cuts = [
        Cut(arguments: ["--start", "1.5", "--end", "4.5"], closedGOP: false, frames: 45..<135),
        Cut(arguments: ["--start", "2.2"], closedGOP: false, frames: 66..<180),
        Cut(arguments: ["--end", "4.2"], closedGOP: false, frames: 0..<126),
        Cut(arguments: ["--start", "1.5", "--end", "4.5"], closedGOP: true, frames: 45..<135),
        Cut(arguments: ["--start", "0.7", "--end", "3.1"], closedGOP: true, frames: 21..<93),
    ]

    @Test("accurate cuts are frame-exact: the range asked for, copies bit-exact, edges re-encoded", arguments: cuts)
    func accurate(_ cut: Cut) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.source(folder, closedGOP: cut.closedGOP)
        let source = try WildMedia.frameHashes(input)
        #expect(source.count == 180)
        let output = folder.path("out.mkv")
        let result = try CamrecBinary.run(["trim"] + cut.arguments + ["--json", "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(JSONLines.parse(result).last)
        #expect(line["mode"] as? String == "accurate", "\(line)")
        #expect(line["fallback_reason"] == nil, "\(line)")
        #expect(line["frames"] as? Int == cut.frames.count, "\(line)")
        let times = try WildMedia.frameTimes(output)
        #expect(times.count == cut.frames.count, "\(times.count) frames")
        #expect(WildMedia.strictlyRising(times))
        // Every copied frame is the source's at its place, bit for bit; no frame is another's.
        let copied = line["frames_copied"] as? Int ?? 0
        try WildMedia.expectSourceFrames(output, source: source, firstSourceFrame: cut.frames.lowerBound, atLeast: copied)
        let psnr = try WildMedia.lumaPSNR(output, source: input, firstSourceFrame: cut.frames.lowerBound)
        #expect(psnr.frames == cut.frames.count)
        #expect(psnr.minimum >= 35, "lowest luma PSNR \(psnr.minimum) dB")
        #expect(try MediaProbe.decodeErrors(output).isEmpty)
        if cut.closedGOP { #expect(copied > 0 && (line["frames_reencoded"] as? Int ?? 0) > 0, "\(line)") }
    }

    struct KeyframeCut: CustomTestStringConvertible, Sendable {
        var start: String
        var end: String
        /// Source frames kept: from the keyframe at or before the start, through the P-frame
        /// the last B-frames before the end refer to.
        var frames: ClosedRange<Int>
        var testDescription: String { "--start \(start) --end \(end)" }
    }

    @Test("keyframe mode on open GOPs starts at the keyframe at or before the start and keeps every frame before the end",
          arguments: [
              // Keyframes (I) at frames 0, 60, 120; B-frames 133, 134 refer to P-frame 135.
              KeyframeCut(start: "2.5", end: "4.5", frames: 60...135),
              KeyframeCut(start: "2", end: "4.2", frames: 60...126),
              KeyframeCut(start: "4.1", end: "6", frames: 120...179),
          ])
    func keyframeOpenGOP(_ cut: KeyframeCut) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.source(folder, closedGOP: false)
        let source = try WildMedia.frameHashes(input)
        let output = folder.path("out.mkv")
        let result = try CamrecBinary.run(["trim", "--mode", "keyframe", "--start", cut.start, "--end", cut.end, "--json", "-o", output, input])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(JSONLines.parse(result).last)
        #expect(line["mode"] as? String == "keyframe", "\(line)")
        #expect(line["first_frame_time"] as? Double == Double(cut.frames.lowerBound) / 30, "\(line)")
        #expect(line["frames_reencoded"] as? Int == 0, "\(line)")
        // Every frame from the keyframe on, bit for bit, each in its place: none left out
        // before the end (the B-frames just before it included), no leading picture of the
        // keyframe's open GOP (shown before it, referring to the GOP before) kept.
        let hashes = try WildMedia.frameHashes(output)
        #expect(hashes == Array(source[cut.frames]), "\(hashes.count) frames for \(cut.frames)")
        #expect(WildMedia.strictlyRising(try WildMedia.frameTimes(output)))
        #expect(try MediaProbe.decodeErrors(output).isEmpty)
    }
}

@testable import CamrecKit
import Testing

/// The plan stage with plain values: the codec decides between a smart cut, a keyframe
/// fallback (said why) and copying alone.
@Suite("Trim PlannedCut")
struct PlannedCutTests {
    static let frame: Int64 = 40_000_000

    static func index(caps: String, mediaType: String, gop: Int) -> FrameIndex {
        let frames = (0..<60).map { VideoFrame(pts: Int64($0) * frame, duration: frame, isKeyframe: $0 % gop == 0) }
        return FrameIndex(
            container: .mp4, video: frames, videoCaps: caps, videoMediaType: mediaType, codecData: nil, audio: [],
            audioMediaType: nil, audioCaps: nil, audioPresentationOffset: 0, presentationOffset: 0
        )
    }

    /// From frame 15 to frame 45.
    static let times = CutTimes(start: 15 * frame, end: 45 * frame)

    @Test func h264IsCutAccurately() throws {
        let cut = try PlannedCut.make(
            index: Self.index(caps: "video/x-h264", mediaType: "video/x-h264", gop: 30), times: Self.times,
            mode: .accurate, name: "in.mp4"
        )
        #expect(cut.codec == .h264)
        #expect(cut.plan.mode == .accurate && cut.plan.encodes)
        #expect(cut.plan.firstPTS == 15 * Self.frame)
        #expect(cut.fallbackReason == nil)
    }

    @Test func hevcFallsBackToKeyframesAndSaysWhy() throws {
        let cut = try PlannedCut.make(
            index: Self.index(caps: "video/x-h265", mediaType: "video/x-h265", gop: 30), times: Self.times,
            mode: .accurate, name: "in.mp4"
        )
        #expect(cut.plan.mode == .keyframe && !cut.plan.encodes)
        #expect(cut.plan.firstPTS == 0)
        #expect(cut.fallbackReason?.contains("HEVC cannot be re-encoded frame-accurately") == true)
    }

    @Test func allIntraMJPEGIsAccurateByCopyingAlone() throws {
        let cut = try PlannedCut.make(
            index: Self.index(caps: "image/jpeg", mediaType: "image/jpeg", gop: 1), times: Self.times, mode: .accurate,
            name: "in.mkv"
        )
        #expect(cut.plan.mode == .accurate && !cut.plan.encodes)
        #expect(cut.plan.framesCopied == 30)
        #expect(cut.fallbackReason == nil)
    }

    @Test func anUnhandledCodecIsNamed() {
        #expect {
            try PlannedCut.make(
                index: Self.index(caps: "video/mpeg, mpegversion=(int)2", mediaType: "video/mpeg", gop: 15),
                times: Self.times, mode: .accurate, name: "in.mkv"
            )
        } throws: { error in
            guard let error = error as? CamrecError else { return false }
            return error.kind == .invalidInput && error.message.contains("video/mpeg version 2")
        }
    }
}

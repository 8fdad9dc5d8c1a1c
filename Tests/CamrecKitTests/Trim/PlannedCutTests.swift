@testable import CamrecKit
@testable import Trim
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
        #expect(cut.encoding == nil)
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

    @Test("the edges of VP9, AV1, MPEG-1/2 and MPEG-4 Part 2 are re-encoded in their own codec")
    func otherCodecsAreCutAccurately() throws {
        let cases: [(caps: String, mediaType: String, encoder: String)] = [
            ("video/x-vp9", "video/x-vp9", "vp9enc"),
            ("video/x-vp8", "video/x-vp8", "vp8enc"),
            ("video/x-av1", "video/x-av1", "av1enc"),
            ("video/mpeg, mpegversion=(int)2", "video/mpeg", "mpeg2enc format=3"),
            ("video/mpeg, mpegversion=(int)1", "video/mpeg", "mpeg2enc format=0"),
            ("video/mpeg, mpegversion=(int)4", "video/mpeg", "avenc_mpeg4"),
        ]
        for item in cases {
            let cut = try PlannedCut.make(
                index: Self.index(caps: item.caps, mediaType: item.mediaType, gop: 30), times: Self.times,
                mode: .accurate, name: "in.mkv"
            )
            #expect(cut.plan.mode == .accurate && cut.plan.encodes, "\(item.caps)")
            #expect(cut.encoding?.encoder.hasPrefix(item.encoder) == true, "\(item.caps)")
            #expect(cut.encoding?.codec == cut.codec, "edges in the source's codec")
        }
    }

    @Test("10-bit AV1 falls back to keyframes: av1enc encodes 8-bit only")
    func tenBitAV1FallsBack() throws {
        // av1C: marker/version, seq_profile 0 level 8, high_bitdepth set.
        let caps = "video/x-av1, codec_data=(buffer)81084c00"
        let cut = try PlannedCut.make(
            index: Self.index(caps: caps, mediaType: "video/x-av1", gop: 30), times: Self.times, mode: .accurate,
            name: "in.mp4"
        )
        #expect(cut.plan.mode == .keyframe)
        #expect(cut.fallbackReason?.contains("8-bit AV1 only") == true)
    }

    @Test("an unknown codec is copied at keyframes, not refused")
    func anUnknownCodecIsCopied() throws {
        let cut = try PlannedCut.make(
            index: Self.index(caps: "video/x-theora", mediaType: "video/x-theora", gop: 20), times: Self.times,
            mode: .accurate, name: "in.mkv"
        )
        #expect(cut.plan.mode == .keyframe && !cut.plan.encodes)
        #expect(cut.fallbackReason?.contains("no encoder") == true)
    }
}

import CamrecKit
import Testing

/// `keyframe` mode over open GOPs (issue 30 item 12: ffmpeg's MPEG-4 Part 2 with `-bf 2`):
/// it starts at the keyframe at or before the start, without the leading B-frames decoded
/// after it and shown before it, and keeps every frame shown before the end.
@Suite("Keyframe plans over open GOPs")
struct OpenGOPKeyframePlanTests {
    static let f: Int64 = 33_333_333

    /// `count` frames shown at n × f: I0, then each anchor (every third frame) decoded before
    /// the two B-frames shown before it; anchors at multiples of `gop` are keyframes, so
    /// every keyframe but the first has two leading B-frames (an open GOP, as ffmpeg writes).
    static func openGOPs(count: Int, gop: Int) -> [VideoFrame] {
        var order = [0]
        var anchor = 3
        while anchor < count {
            order += [anchor, anchor - 2, anchor - 1]
            anchor += 3
        }
        return order.enumerated().map { position, n in
            VideoFrame(pts: Int64(n) * f, dts: Int64(position - 1) * f, duration: f, isKeyframe: n % gop == 0)
        }
    }

    @Test func anOpenGOPsKeyframeStartsTheCopyWithoutItsLeadingPictures() throws {
        let frames = Self.openGOPs(count: 180, gop: 60)
        let planner = SmartCutPlanner(frames: frames)
        // I60 is decode index 58, its leading B58 and B59 are 59 and 60.
        #expect(planner.leadingPictures(of: 58) == 59..<61)
        #expect(planner.isCopyStart(58))
        #expect(!planner.isSafeKeyframe(58))
        let plan = try planner.plan(start: 75 * Self.f, end: 135 * Self.f, mode: .keyframe)
        // B133 and B134 (decode 134, 135) refer to P135 (decode 133): all three are kept.
        #expect(plan.parts == [.copy(frames: 58...58), .copy(frames: 61...135)])
        #expect(plan.firstPTS == 60 * Self.f)
        #expect(plan.lastPTS == 135 * Self.f)
        #expect(plan.frameCount == 76)
        #expect(plan.framesCopied == 76)
    }

    @Test func aCleanKeyframeIsOneCopiedPart() throws {
        let frames = Self.openGOPs(count: 180, gop: 60)
        let plan = try SmartCutPlanner(frames: frames).plan(start: 10 * Self.f, end: 30 * Self.f, mode: .keyframe)
        // From I0 (no leading pictures) through P30, which B28 and B29 refer to.
        #expect(plan.parts == [.copy(frames: 0...30)])
        #expect(plan.frameCount == 31)
    }
}

import CamrecKit
import Testing

private let frameNS: Int64 = 33_333_333

/// Frames with PTS = n × frame, in the given decode order (presentation indices), keyframes
/// where `keys` says (by presentation index).
private func frames(decodeOrder: [Int], keys: Set<Int>) -> [VideoFrame] {
    decodeOrder.enumerated().map { position, n in
        VideoFrame(pts: Int64(n) * frameNS + 2 * frameNS, dts: Int64(position) * frameNS, duration: frameNS, isKeyframe: keys.contains(n))
    }
}

/// A stream without reordering: `count` frames, a keyframe every `gop`.
private func linear(count: Int, gop: Int) -> [VideoFrame] {
    (0..<count).map { VideoFrame(pts: Int64($0) * frameNS, duration: frameNS, isKeyframe: $0 % gop == 0) }
}

/// I P B B P B B … with each P decoded before the two B-frames shown before it.
/// A keyframe every `gop` frames; a keyframe that is a P position (multiple of 3) is decoded
/// before the B-frames shown before it, as in an open GOP.
private func withBFrames(count: Int, gop: Int) -> [VideoFrame] {
    var order: [Int] = []
    var n = 0
    order.append(0)
    n = 1
    while n < count {
        let anchor = min(n + 2, count - 1)
        order.append(anchor)
        for b in n..<anchor { order.append(b) }
        n = anchor + 1
    }
    return frames(decodeOrder: order, keys: Set(stride(from: 0, to: count, by: gop)))
}

@Suite("SmartCutPlanner")
struct SmartCutPlannerTests {
    @Test func headReencodedBodyCopied() throws {
        let planner = SmartCutPlanner(frames: linear(count: 90, gop: 30))
        let plan = try planner.plan(start: 15 * frameNS, end: 75 * frameNS + 1, mode: .accurate)
        #expect(plan.parts == [
            .encode(feed: 0...29, keep: (15 * frameNS)..<(30 * frameNS)),
            .copy(frames: 30...75),
        ])
        #expect(plan.framesReencoded == 15)
        #expect(plan.framesCopied == 46)
        #expect(plan.firstPTS == 15 * frameNS)
        #expect(plan.lastPTS == 75 * frameNS)
        #expect(plan.readFrom == 0)
        #expect(plan.readThrough == 75)
    }

    @Test func startOnKeyframeCopiesOnly() throws {
        let plan = try SmartCutPlanner(frames: linear(count: 90, gop: 30)).plan(start: 30 * frameNS, end: 90 * frameNS, mode: .accurate)
        #expect(plan.parts == [.copy(frames: 30...89)])
        #expect(plan.framesReencoded == 0)
    }

    @Test func cutInsideOneGOPIsReencoded() throws {
        let plan = try SmartCutPlanner(frames: linear(count: 90, gop: 30)).plan(start: 35 * frameNS, end: 50 * frameNS, mode: .accurate)
        #expect(plan.parts == [.encode(feed: 30...49, keep: (35 * frameNS)..<(50 * frameNS))])
        #expect(plan.frameCount == 15)
        #expect(plan.mode == .accurate)
    }

    /// The start comes to the planner less CutTimes' half-millisecond slack: a keyframe at
    /// the start asked for is where the copy starts, not the one before it.
    @Test func keyframeModeStartsAtAKeyframeExactlyAtTheStart() throws {
        let slack: Int64 = 500_000
        let plan = try SmartCutPlanner(frames: linear(count: 90, gop: 30))
            .plan(start: 30 * frameNS - slack, end: 80 * frameNS, mode: .keyframe)
        #expect(plan.firstPTS == 30 * frameNS)
        #expect(plan.frameCount == 50)
    }

    @Test func keyframeModeSnapsBackward() throws {
        let plan = try SmartCutPlanner(frames: linear(count: 90, gop: 30)).plan(start: 45 * frameNS, end: 80 * frameNS, mode: .keyframe)
        #expect(plan.parts == [.copy(frames: 30...79)])
        #expect(plan.firstPTS == 30 * frameNS)
    }

    @Test func reencodeDecodesFromThePreviousKeyframe() throws {
        let plan = try SmartCutPlanner(frames: linear(count: 90, gop: 30)).plan(start: 45 * frameNS, end: 80 * frameNS, mode: .reencode)
        #expect(plan.parts == [.encode(feed: 30...79, keep: (45 * frameNS)..<(80 * frameNS))])
        #expect(plan.framesReencoded == 35)
    }

    @Test func noFrameInRangeIsInvalidInput() {
        #expect(throws: CamrecError.self) {
            try SmartCutPlanner(frames: linear(count: 10, gop: 5)).plan(start: 20 * frameNS, end: 30 * frameNS, mode: .accurate)
        }
    }

    @Test func bFramesCloseTheBodyAndReencodeTheTail() throws {
        let stream = withBFrames(count: 90, gop: 30)
        let planner = SmartCutPlanner(frames: stream)
        // End before frame 60, a P decoded before the B-frames 58 and 59 shown before it.
        let end = 60 * frameNS + 2 * frameNS
        let plan = try planner.plan(start: 2 * frameNS, end: end, mode: .accurate)
        let copied = plan.parts.compactMap { part -> ClosedRange<Int>? in
            if case .copy(let range) = part { range } else { nil }
        }
        #expect(copied.count == 1)
        // Every output frame exactly once, in [start, end).
        #expect(plan.frameCount == 60)
        #expect(plan.framesCopied + plan.framesReencoded == 60)
        if let body = copied.first {
            let pts = stream[body].map(\.pts)
            #expect(pts.allSatisfy { $0 < end })
            let later = stream[(body.upperBound + 1)...].map(\.pts).min() ?? .max
            #expect((pts.max() ?? 0) < later, "the copied frames form one interval")
        }
    }

    @Test func nonIDRKeyframeIsNotSafe() {
        var stream = linear(count: 60, gop: 30)
        stream[30].isIDR = false
        let planner = SmartCutPlanner(frames: stream)
        #expect(!planner.isSafeKeyframe(30))
        #expect(planner.isSafeKeyframe(0))
    }

    @Test func openGOPKeyframeIsNotSafe() {
        let stream = withBFrames(count: 60, gop: 30)
        let planner = SmartCutPlanner(frames: stream)
        let unsafe = stream.indices.filter { stream[$0].isKeyframe && !planner.isSafeKeyframe($0) }
        #expect(!unsafe.isEmpty, "a keyframe followed by leading pictures is not safe")
        #expect(planner.isSafeKeyframe(0))
    }
}

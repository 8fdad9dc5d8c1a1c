@testable import CamrecKit
@testable import Trim
import Testing

/// The output timeline with plain values, no media: which frame goes where, with which
/// PTS, DTS and duration, for the plans the planner makes.
@Suite("Trim OutputTimeline")
struct OutputTimelineTests {
    static let frame: Int64 = 40_000_000

    /// An index of `frames`, buffer times `offset` after presentation times.
    static func index(_ frames: [VideoFrame], offset: Int64 = 0) -> FrameIndex {
        FrameIndex(
            container: .mp4, video: frames, videoCaps: "video/x-h264", videoMediaType: "video/x-h264", codecData: nil,
            audio: [], audioMediaType: nil, audioCaps: nil, audioPresentationOffset: 0, presentationOffset: offset
        )
    }

    /// No reordering: `count` frames, a keyframe every `gop`.
    static func linear(count: Int, gop: Int, start: Int64 = 0) -> [VideoFrame] {
        (0..<count).map { n in
            VideoFrame(pts: start + Int64(n) * frame, duration: frame, isKeyframe: n % gop == 0)
        }
    }

    /// Closed GOPs of six frames, I P B B P B in decode order (presentation 0 3 1 2 5 4),
    /// decoded one frame ahead of presentation: DTS = position, PTS = n + 1 (in frames).
    static func closedGOPs(_ count: Int) -> [VideoFrame] {
        let pattern = [0, 3, 1, 2, 5, 4]
        return (0..<(count * 6)).map { position in
            let n = position / 6 * 6 + pattern[position % 6]
            return VideoFrame(
                pts: Int64(n + 1) * frame, dts: Int64(position) * frame, duration: frame, isKeyframe: n % 6 == 0
            )
        }
    }

    static func timeline(
        _ frames: [VideoFrame], start: Int64, end: Int64, mode: TrimMode = .accurate, offset: Int64 = 0
    ) throws -> (TrimPlan, OutputTimeline) {
        let plan = try SmartCutPlanner(frames: frames).plan(start: start, end: end, mode: mode)
        let timeline = OutputTimeline(
            plan: plan, index: index(frames, offset: offset), minimumDecodeStep: 1_000_000
        )
        #expect(timeline.frames.count == plan.frameCount)
        #expect(timeline.parts.count == plan.parts.count)
        let dts = timeline.frames.map(\.dts)
        #expect(zip(dts, dts.dropFirst()).allSatisfy { $0 < $1 }, "DTS strictly rise: \(dts)")
        #expect(timeline.frames.allSatisfy { $0.dts <= $0.pts }, "no frame is shown before it is decoded")
        #expect(timeline.frames.map(\.pts).min() == 0, "the output starts at 0")
        #expect(timeline.end == plan.endPTS - plan.firstPTS)
        return (plan, timeline)
    }

    @Test("I-frames only: times shift to 0, DTS = PTS")
    func intraOnly() throws {
        let f = Self.frame
        let (_, timeline) = try Self.timeline(Self.linear(count: 10, gop: 1), start: 3 * f, end: 7 * f)
        #expect(timeline.frames.map(\.source) == [3, 4, 5, 6])
        #expect(timeline.frames.allSatisfy { $0.isCopied })
        #expect(timeline.frames.map(\.pts) == [0, f, 2 * f, 3 * f])
        #expect(timeline.frames.map(\.dts) == [0, f, 2 * f, 3 * f])
        #expect(timeline.reorderDelay == 0)
        #expect(timeline.end == 4 * f)
        #expect(timeline.frames.indices.map(timeline.decodeDuration) == [f, f, f, f])
    }

    @Test("I, P and B-frames copied: decoding starts the reorder delay before 0, offsets kept")
    func reorderedCopy() throws {
        let f = Self.frame
        let frames = Self.closedGOPs(3)
        let (plan, timeline) = try Self.timeline(frames, start: 7 * f, end: 13 * f, mode: .keyframe)
        #expect(plan.parts == [.copy(frames: 6...11)])
        #expect(timeline.frames.map(\.source) == Array(6...11))
        #expect(timeline.reorderDelay == f)
        #expect(timeline.frames.map(\.pts) == [0, 3 * f, f, 2 * f, 5 * f, 4 * f])
        #expect(timeline.frames.map(\.dts) == [-f, 0, f, 2 * f, 3 * f, 4 * f])
        for frame in timeline.frames {
            #expect(frame.pts - frame.dts == frames[frame.source].pts - frames[frame.source].dts)
        }
        #expect(timeline.end == 6 * f)
    }

    @Test("a cut on a keyframe is one copied part")
    func cutAtKeyframe() throws {
        let f = Self.frame
        let (plan, timeline) = try Self.timeline(Self.linear(count: 90, gop: 30), start: 30 * f, end: 60 * f)
        #expect(plan.parts == [.copy(frames: 30...59)])
        #expect(timeline.parts == [0..<30])
        #expect(timeline.frames.first?.source == 30)
        #expect(timeline.frames.map(\.pts) == (0..<30).map { Int64($0) * f })
        #expect(timeline.position(ofCopied: 45, inPart: 0) == 15)
    }

    @Test("a cut inside a GOP: the head is re-encoded in presentation order, DTS behind by the body's delay")
    func reencodedHead() throws {
        let f = Self.frame
        let frames = Self.closedGOPs(3)
        // From presentation frame 3 (PTS 4) to the start of the third GOP (PTS 13).
        let (plan, timeline) = try Self.timeline(frames, start: 4 * f, end: 13 * f)
        #expect(plan.parts == [.encode(feed: 0...5, keep: (4 * f)..<(7 * f)), .copy(frames: 6...11)])
        #expect(timeline.parts == [0..<3, 3..<9])
        // The head: presentation frames 3, 4, 5 are decode positions 1, 5, 4.
        #expect(timeline.frames[0..<3].map(\.source) == [1, 5, 4])
        #expect(timeline.frames[0..<3].allSatisfy { !$0.isCopied })
        #expect(timeline.frames[0..<3].map(\.pts) == [0, f, 2 * f])
        #expect(timeline.frames[0..<3].map(\.dts) == [-f, 0, f])
        // The body keeps its offsets, and its first DTS follows the head's last.
        #expect(timeline.frames[3...].map(\.source) == Array(6...11))
        #expect(timeline.frames[3...].map(\.pts) == [3 * f, 6 * f, 4 * f, 5 * f, 8 * f, 7 * f])
        #expect(timeline.frames[3...].map(\.dts) == [2 * f, 3 * f, 4 * f, 5 * f, 6 * f, 7 * f])
        #expect(timeline.reorderDelay == f)
        #expect(timeline.end == 9 * f)
    }

    @Test("a cut before the end of a GOP: the tail after the body is re-encoded")
    func reencodedTail() throws {
        let f = Self.frame
        let frames = Self.closedGOPs(3)
        // Up to presentation frame 9 (PTS 10): frames 7 and 8 are B-frames after the P at 9.
        let (plan, timeline) = try Self.timeline(frames, start: f, end: 10 * f)
        #expect(plan.parts == [.copy(frames: 0...6), .encode(feed: 6...9, keep: (8 * f)..<(10 * f))])
        #expect(timeline.parts == [0..<7, 7..<9])
        #expect(timeline.frames[0..<7].map(\.pts) == [0, 3 * f, f, 2 * f, 5 * f, 4 * f, 6 * f])
        #expect(timeline.frames[0..<7].map(\.dts) == [-f, 0, f, 2 * f, 3 * f, 4 * f, 5 * f])
        #expect(timeline.frames[7...].map(\.source) == [8, 9])
        #expect(timeline.frames[7...].map(\.pts) == [7 * f, 8 * f])
        #expect(timeline.frames[7...].map(\.dts) == [6 * f, 7 * f])
        #expect(timeline.end == 9 * f)
    }

    @Test("a whole re-encode without copied frames has no reorder delay")
    func wholeReencode() throws {
        let f = Self.frame
        let (plan, timeline) = try Self.timeline(Self.closedGOPs(2), start: 2 * f, end: 11 * f, mode: .reencode)
        #expect(plan.framesCopied == 0)
        #expect(timeline.reorderDelay == 0)
        #expect(timeline.frames.map(\.pts) == (0..<9).map { Int64($0) * f })
        #expect(timeline.frames.map(\.dts) == timeline.frames.map(\.pts))
    }

    @Test("re-encoded frames keep their own durations (variable frame rate)")
    func durations() throws {
        let durations: [Int64] = [40, 20, 60, 40, 30, 50].map { $0 * 1_000_000 }
        var pts: Int64 = 0
        let frames = durations.enumerated().map { n, duration in
            defer { pts += duration }
            return VideoFrame(pts: pts, duration: duration, isKeyframe: n == 0)
        }
        let (_, timeline) = try Self.timeline(frames, start: 20_000_000, end: 240_000_000)
        #expect(timeline.frames.map(\.source) == [1, 2, 3, 4, 5])
        #expect(timeline.frames.map(\.duration) == Array(durations[1...]))
        #expect(timeline.frames.map(\.pts) == [0, 20, 80, 120, 150].map { $0 * 1_000_000 })
        #expect(timeline.end == 200_000_000)
    }

    @Test("buffer times offset from presentation times, or negative: the output still starts at 0")
    func offsetAndNegativeStarts() throws {
        let f = Self.frame
        // An edit list that starts the presentation two frames into the media: buffer times
        // run from -2 frames (presentation times are 2 frames later than buffer times here).
        let frames = Self.linear(count: 60, gop: 30, start: -2 * f)
        let (plan, timeline) = try Self.timeline(frames, start: -f, end: 40 * f, offset: -2 * f)
        #expect(plan.firstPTS == -f)
        #expect(timeline.frames.first?.source == 1)
        #expect(timeline.frames.map(\.pts) == (0..<41).map { Int64($0) * f })
        #expect(timeline.audio.start == f, "the first frame on the presentation timeline")
        #expect(timeline.audio.end == 42 * f)
    }

    @Test("times in a track's ticks: the same frames, the same layout, exact in ticks")
    func trackTicks() throws {
        let frames = Self.closedGOPs(3)
        // 90 kHz: 40 ms is 3600 ticks.
        let ticks = frames.map { VideoFrame(pts: $0.pts / 40_000_000 * 3600, dts: $0.dts / 40_000_000 * 3600, duration: 3600, isKeyframe: $0.isKeyframe) }
        let plan = try SmartCutPlanner(frames: frames).plan(start: 4 * Self.frame, end: 13 * Self.frame, mode: .accurate)
        let nanoseconds = OutputTimeline(plan: plan, index: Self.index(frames), minimumDecodeStep: 1_000_000)
        let inTicks = OutputTimeline(plan: plan, index: Self.index(frames), times: ticks, minimumDecodeStep: 1)
        #expect(inTicks.frames.map(\.source) == nanoseconds.frames.map(\.source))
        #expect(inTicks.frames.map(\.pts) == nanoseconds.frames.map { $0.pts / 40_000_000 * 3600 })
        #expect(inTicks.frames.map(\.dts) == nanoseconds.frames.map { $0.dts / 40_000_000 * 3600 })
        #expect(inTicks.reorderDelay == 3600)
        #expect(inTicks.end == 9 * 3600)
        #expect(inTicks.audio == nanoseconds.audio, "audio stays in nanoseconds")
        #expect(inTicks.decodeDuration(at: inTicks.frames.count - 1) == 3600)
    }

    @Test("a DTS that would not rise is moved one step after the one before, not past its PTS when it can be")
    func brokenDecodeTimes() throws {
        let f = Self.frame
        let step: Int64 = 1_000_000
        // Copied frames whose DTS repeat (frame 2) and go back (frame 4, decoded after its PTS).
        var frames = Self.linear(count: 6, gop: 6)
        frames[2].dts = frames[1].dts
        frames[3].dts = 5 * f
        frames[4].dts = 4 * f
        let plan = TrimPlan(
            mode: .keyframe, parts: [.copy(frames: 0...5)], firstPTS: 0, lastPTS: 5 * f, endPTS: 6 * f,
            frameCount: 6, framesCopied: 6, framesReencoded: 0
        )
        let timeline = OutputTimeline(plan: plan, index: Self.index(frames), minimumDecodeStep: step)
        #expect(timeline.frames.map(\.dts) == [0, f, f + step, 5 * f, 5 * f + step, 5 * f + 2 * step])
    }

    @Test("a ten-minute re-encode: every frame once, in presentation order")
    func longReencode() throws {
        // 10 minutes at 30 fps with B-frame reordering in pairs: built in O(n log n), with
        // no look-up per frame (a scan per frame made `--mode reencode` quadratic once).
        let count = 18_000
        let frame: Int64 = 33_333_333
        let frames = (0..<count).map { index in
            let slot = index % 2 == 0 ? index + 1 : index - 1
            return VideoFrame(pts: Int64(slot) * frame, dts: Int64(index) * frame, duration: frame, isKeyframe: index % 30 == 0)
        }
        let plan = TrimPlan(
            mode: .reencode, parts: [.encode(feed: 0...(count - 1), keep: 0..<(Int64(count) * frame))],
            firstPTS: 0, lastPTS: Int64(count - 1) * frame, endPTS: Int64(count) * frame, frameCount: count,
            framesCopied: 0, framesReencoded: count
        )
        let timeline = OutputTimeline(plan: plan, index: Self.index(frames), minimumDecodeStep: 1_000_000)
        #expect(timeline.frames.count == count)
        #expect(timeline.frames.map(\.pts) == (0..<count).map { Int64($0) * frame })
        #expect(timeline.frames.map { frames[$0.source].pts } == timeline.frames.map(\.pts))
        #expect(Set(timeline.frames.map(\.source)).count == count)
    }

    @Test("a re-encoded part's frames: those fed whose PTS is kept, in presentation order, ties in decode order")
    func keptFrames() {
        let f = Self.frame
        // IBBP in decode order: PTS 0, 3, 1, 2, 6, 4, 5 (frames).
        var frames = [0, 3, 1, 2, 6, 4, 5].map { VideoFrame(pts: Int64($0) * f, duration: f, isKeyframe: $0 == 0) }
        let part = TrimPart.encode(feed: 1...5, keep: (f)..<(5 * f))
        #expect(part.keptFrames(of: frames) == [2, 3, 1, 5], "decode index 0 is not fed, 4 and 6 not kept")
        #expect(TrimPart.copy(frames: 0...6).keptFrames(of: frames) == [])
        frames[5].pts = frames[1].pts  // a broken stream: decode indices 1 and 5 both at 3 frames
        #expect(part.keptFrames(of: frames) == [2, 3, 1, 5])
    }
}

import CamrecCore

/// Decides, from the frames of a stream, which frames a trim copies and which it
/// re-encodes. Pure value logic: frames in decode order in, a ``TrimPlan`` out.
///
/// A keyframe is *safe* when it is an IDR picture and no frame decoded after it has a
/// smaller PTS: copying can start there without the leading pictures of an open GOP. The copied body is a run of
/// frames in decode order whose presentation times form one interval, so no frame in it
/// is displayed out of place and no frame outside it is missing from that interval.
///
/// `keyframe` mode also starts at an open GOP's keyframe (MPEG-4 Part 2 and MPEG-2 from
/// ffmpeg without `-flags +cgop`, HEVC CRA pictures), leaving out its leading pictures: the
/// B-frames decoded right after it and shown before it, which refer to the GOP before and
/// which no later frame refers to. It keeps every frame shown before the end, and with
/// B-frames the reference frames they need, up to the first point in decode order where the
/// run's presentation times close.
public struct SmartCutPlanner: Sendable {
    /// The frames, in decode order.
    public let frames: [VideoFrame]
    /// For each decode index, the smallest PTS among the frames decoded after it.
    private let laterMinimumPTS: [Int64]

    /// Plans over `frames`, in decode order.
    public init(frames: [VideoFrame]) {
        self.frames = frames
        var minimum = [Int64](repeating: Int64.max, count: frames.count)
        var running = Int64.max
        for index in frames.indices.reversed() {
            minimum[index] = running
            running = min(running, frames[index].pts)
        }
        laterMinimumPTS = minimum
    }

    /// Whether copying may start at decode index `index`: an IDR picture (a decoder may
    /// switch to it from other coded data; an open-GOP I-frame's memory-management commands
    /// refer to pictures before it) with no leading pictures.
    public func isSafeKeyframe(_ index: Int) -> Bool {
        frames[index].isKeyframe && frames[index].isIDR && laterMinimumPTS[index] >= frames[index].pts
    }

    /// The frames decoded right after keyframe `index` that are shown before it (an open
    /// GOP's leading pictures); empty for a clean keyframe.
    public func leadingPictures(of index: Int) -> Range<Int> {
        var end = index + 1
        while end < frames.count, frames[end].pts < frames[index].pts { end += 1 }
        return (index + 1)..<end
    }

    /// Whether a copy may start at decode index `index` once its leading pictures are left
    /// out: an IDR picture after whose leading pictures no frame is shown before it.
    public func isCopyStart(_ index: Int) -> Bool {
        guard frames[index].isKeyframe, frames[index].isIDR else { return false }
        return laterMinimumPTS[leadingPictures(of: index).upperBound - 1] >= frames[index].pts
    }

    /// Plans a cut keeping the frames with `start <= pts < end` (buffer times).
    ///
    /// - Throws: ``CamrecError`` (invalid input) when no frame lies in the range.
    public func plan(start: Int64, end: Int64, mode: TrimMode) throws(CamrecError) -> TrimPlan {
        switch mode {
        case .accurate: try accuratePlan(start: start, end: end)
        case .reencode: try reencodePlan(start: start, end: end)
        case .keyframe: try keyframePlan(start: start, end: end)
        }
    }

    private func selected(start: Int64, end: Int64) throws(CamrecError) -> [Int] {
        let indices = frames.indices.filter { frames[$0].pts >= start && frames[$0].pts < end }
        guard !indices.isEmpty else { throw .invalidInput("no video frame lies between the start and the end") }
        return indices
    }

    /// The keyframe to start decoding from to get the frames from `pts` on: the last
    /// keyframe before `limit` (decode order) whose PTS is at or before `pts`, else the first frame.
    private func decodeStart(forPTS pts: Int64, before limit: Int) -> Int {
        (0..<min(limit, frames.count)).last { frames[$0].isKeyframe && frames[$0].pts <= pts } ?? 0
    }

    /// The longest run from `first` in decode order with every PTS below `end` whose
    /// presentation times form one interval (nothing decoded later falls inside it).
    private func closedRun(from first: Int, end: Int64) -> Int? {
        var maximum = Int64.min
        var last: Int?
        var index = first
        while index < frames.count, frames[index].pts < end {
            maximum = max(maximum, frames[index].pts)
            if maximum < laterMinimumPTS[index] { last = index }
            index += 1
        }
        return last
    }

    private func accuratePlan(start: Int64, end: Int64) throws(CamrecError) -> TrimPlan {
        let chosen = try selected(start: start, end: end)
        let firstPTS = chosen.map { frames[$0].pts }.min() ?? start
        guard let bodyStart = frames.indices.first(where: { isSafeKeyframe($0) && frames[$0].pts >= firstPTS }),
              frames[bodyStart].pts < end, let bodyEnd = closedRun(from: bodyStart, end: end)
        else {
            return try reencodePlan(start: start, end: end, mode: .accurate)
        }
        var parts: [TrimPart] = []
        let bodyPTS = frames[bodyStart].pts
        if firstPTS < bodyPTS {
            let from = decodeStart(forPTS: firstPTS, before: bodyStart)
            parts.append(.encode(feed: from...(bodyStart - 1), keep: firstPTS..<bodyPTS))
        }
        parts.append(.copy(frames: bodyStart...bodyEnd))
        let tailPTS = laterMinimumPTS[bodyEnd]
        let tail = chosen.filter { frames[$0].pts >= tailPTS }
        if let tailLast = tail.max(), tailPTS < end {
            var from = bodyStart
            for index in bodyStart...min(bodyEnd + 1, frames.count - 1) where isSafeKeyframe(index) { from = index }
            parts.append(.encode(feed: from...tailLast, keep: tailPTS..<end))
        }
        return finish(parts: parts, mode: .accurate)
    }

    private func reencodePlan(start: Int64, end: Int64, mode: TrimMode = .reencode) throws(CamrecError) -> TrimPlan {
        let chosen = try selected(start: start, end: end)
        let firstPTS = chosen.map { frames[$0].pts }.min() ?? start
        let last = chosen.max() ?? 0
        let from = decodeStart(forPTS: firstPTS, before: last + 1)
        return finish(parts: [.encode(feed: from...last, keep: firstPTS..<end)], mode: mode)
    }

    /// From the keyframe at or before the start (an open GOP's without its leading pictures)
    /// through every frame before the end. `start` comes with ``CutTimes/slack`` taken off
    /// (for frames whose times a container rounded to the millisecond): a keyframe within
    /// that slack after it is the one *at* the start asked for, not one to snap back from.
    private func keyframePlan(start: Int64, end: Int64) throws(CamrecError) -> TrimPlan {
        let starts = frames.indices.filter(isCopyStart)
        let atStart = start + 2 * CutTimes.slack
        guard let first = starts.last(where: { frames[$0].pts <= atStart }) ?? starts.first,
              frames[first].pts < end, let last = coveringRun(from: first, end: end) ?? closedRun(from: first, end: end)
        else { throw .invalidInput("no keyframe lies between the start and the end; try --mode accurate") }
        let leading = leadingPictures(of: first)
        guard !leading.isEmpty else { return finish(parts: [.copy(frames: first...last)], mode: .keyframe) }
        // The keyframe, then (its leading pictures left out) the rest.
        var parts: [TrimPart] = [.copy(frames: first...first)]
        if leading.upperBound <= last { parts.append(.copy(frames: leading.upperBound...last)) }
        return finish(parts: parts, mode: .keyframe)
    }

    /// The shortest run from `first` in decode order that holds every frame after it shown
    /// before `end` and whose presentation times (leading pictures aside) form one interval:
    /// the B-frames just before the end come with the reference frame they need, shown after
    /// it. Nil when the frames indexed end before it closes (a window of the input).
    private func coveringRun(from first: Int, end: Int64) -> Int? {
        guard let wanted = (first..<frames.count).last(where: { frames[$0].pts < end }) else { return nil }
        var maximum = Int64.min
        for index in first..<frames.count {
            maximum = max(maximum, frames[index].pts)
            if index >= wanted, maximum < laterMinimumPTS[index] { return index }
        }
        return nil
    }

    private func finish(parts: [TrimPart], mode: TrimMode) -> TrimPlan {
        var copied = 0
        var reencoded = 0
        var outputPTS: [Int64] = []
        var endPTS = Int64.min
        for part in parts {
            switch part {
            case .copy(let range):
                copied += range.count
                for index in range {
                    outputPTS.append(frames[index].pts)
                    endPTS = max(endPTS, frames[index].pts + frames[index].duration)
                }
            case .encode(let feed, let keep):
                for index in feed where keep.contains(frames[index].pts) {
                    reencoded += 1
                    outputPTS.append(frames[index].pts)
                    endPTS = max(endPTS, frames[index].pts + frames[index].duration)
                }
            }
        }
        return TrimPlan(
            mode: mode, parts: parts, firstPTS: outputPTS.min() ?? 0, lastPTS: outputPTS.max() ?? 0,
            endPTS: endPTS, frameCount: outputPTS.count, framesCopied: copied, framesReencoded: reencoded
        )
    }
}

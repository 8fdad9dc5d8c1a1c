/// Decides, from the frames of a stream, which frames a trim copies and which it
/// re-encodes. Pure value logic: frames in decode order in, a ``TrimPlan`` out.
///
/// A keyframe is *safe* when it is an IDR picture and no frame decoded after it has a
/// smaller PTS: copying can start there without the leading pictures of an open GOP. The copied body is a run of
/// frames in decode order whose presentation times form one interval, so no frame in it
/// is displayed out of place and no frame outside it is missing from that interval.
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

    /// From the keyframe at or before the start. `start` comes with ``CutTimes/slack`` taken
    /// off (for frames whose times a container rounded to the millisecond): a keyframe within
    /// that slack after it is the one *at* the start asked for, not one to snap back from.
    private func keyframePlan(start: Int64, end: Int64) throws(CamrecError) -> TrimPlan {
        let safe = frames.indices.filter(isSafeKeyframe)
        let atStart = start + 2 * CutTimes.slack
        guard let first = safe.last(where: { frames[$0].pts <= atStart }) ?? safe.first,
              frames[first].pts < end, let last = closedRun(from: first, end: end)
        else { throw .invalidInput("no keyframe lies between the start and the end; try --mode accurate") }
        return finish(parts: [.copy(frames: first...last)], mode: .keyframe)
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

/// Which frames a time-lapse keeps, and which it must decode for them: one frame for each
/// instant `from + k × step` before `to` (a movie's presentation times, nanoseconds).
///
/// - Exact: the first frame at or after each instant (the frame captured then), decoded
///   from the keyframe before it.
/// - Keyframes: when the step is at least the longest distance between keyframes in the
///   range, the keyframe nearest each instant stands for it (at most half a keyframe
///   interval off) and only keyframes are decoded: each decodes alone.
struct TimelapseSelection: Equatable {
    /// How far before an instant a frame still counts as at it: times converted from a
    /// track's ticks are truncated (at 3000 ticks a second, the 6th frame at 30 fps is at
    /// 199 999 999 ns, not 200 ms), never by this much.
    static let slack: Int64 = 500_000

    /// The kept frames (indices into the frames given), in presentation order.
    var kept: [Int]
    /// The frames to feed the decoder (indices), in decoding order.
    var fed: [Int]
    /// Whether keyframes alone stand for the instants.
    var keyframesOnly: Bool

    /// The selection from `frames` (presentation time, decoding order, keyframe flag: the
    /// index's frames in decoding order).
    static func make(
        pts: [Int64], isKeyframe: [Bool], from: Int64, to: Int64, step: Int64
    ) -> TimelapseSelection {
        precondition(pts.count == isKeyframe.count && step > 0)
        let order = pts.indices.sorted { pts[$0] < pts[$1] }
        let inRange = order.filter { pts[$0] >= from - slack && pts[$0] < to - slack }
        guard !inRange.isEmpty else { return TimelapseSelection(kept: [], fed: [], keyframesOnly: false) }
        var instants: [Int64] = []
        var instant = from
        while instant < to {
            instants.append(instant)
            instant += step
        }
        // The keyframes that can stand for an instant: those captured in the range.
        let keyframes = inRange.filter { isKeyframe[$0] }
        let gaps = zip(keyframes, keyframes.dropFirst()).map { pts[$1] - pts[$0] }
        let longest = gaps.max() ?? Int64.max
        if keyframes.count > 1, step >= longest {
            var kept: [Int] = []
            var position = 0
            for instant in instants {
                // Keyframes are in presentation order: move to the last one at or before the instant.
                while position + 1 < keyframes.count, pts[keyframes[position + 1]] <= instant { position += 1 }
                var nearest = keyframes[position]
                if position + 1 < keyframes.count,
                   abs(pts[keyframes[position + 1]] - instant) < abs(pts[nearest] - instant) {
                    nearest = keyframes[position + 1]
                }
                if kept.last != nearest { kept.append(nearest) }
            }
            let fed = kept.sorted()
            return TimelapseSelection(kept: kept, fed: fed, keyframesOnly: true)
        }
        // Exact: the first frame at or after each instant.
        var kept: [Int] = []
        var position = 0
        for instant in instants {
            while position < inRange.count, pts[inRange[position]] < instant - slack { position += 1 }
            guard position < inRange.count else { break }
            if kept.last != inRange[position] { kept.append(inRange[position]) }
        }
        // Feed each kept frame's keyframe and everything decoded from it up to the frame.
        var keyBefore = [Int](repeating: -1, count: pts.count)
        var last = -1
        for index in pts.indices {
            if isKeyframe[index] { last = index }
            keyBefore[index] = last
        }
        var fed = Set<Int>()
        for frame in kept where keyBefore[frame] >= 0 {
            for index in keyBefore[frame]...frame { fed.insert(index) }
        }
        return TimelapseSelection(kept: kept, fed: fed.sorted(), keyframesOnly: false)
    }
}

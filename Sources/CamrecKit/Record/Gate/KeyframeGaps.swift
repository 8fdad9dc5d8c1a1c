/// The longest time between two keyframes of a passthrough recording: the camera decides
/// where keyframes are, and that interval bounds what a crash loses (a hybrid MP4 fragment
/// starts at a keyframe) and where a segment can start, so the result reports it.
struct KeyframeGaps: Equatable {
    private var last: UInt64?
    /// The longest gap seen, in nanoseconds; nil before the second keyframe.
    private(set) var longest: UInt64?

    /// Notes a keyframe at `time` (nanoseconds, on the movie's clock).
    mutating func note(_ time: UInt64) {
        if let last, time > last { longest = max(longest ?? 0, time - last) }
        last = time
    }

    /// The longest gap in seconds, to the millisecond.
    var longestSeconds: Double? {
        longest.map { (Double($0) / 1e6).rounded() / 1000 }
    }
}

/// Counts frames missing between the frames let through: a gap of more than 1.5 frame
/// intervals between two timestamps means the camera dropped or stalled (sequence gaps,
/// late frames) or the pipeline fell behind, and the missing intervals count as dropped.
struct DropCounter: Equatable {
    /// One frame interval, in nanoseconds.
    let interval: UInt64
    private var last: UInt64?
    /// Frames counted as missing so far.
    private(set) var dropped: UInt64 = 0

    init(rate: FrameRateValue) {
        interval = UInt64(1_000_000_000.0 / max(rate.framesPerSecond, 0.001))
    }

    /// Notes the frame at `time` (nanoseconds), let through after the previous one.
    mutating func note(_ time: UInt64) {
        let half = interval / 2
        if let last, time > last, time - last > interval + half {
            dropped += (time - last + half) / interval - 1
        }
        last = time
    }

    /// Notes that no frame came up to `latestStart`, the last time a frame could start
    /// and still be in the movie (the limit): the slots between the last frame and it
    /// were lost too, though no later frame shows the gap.
    mutating func noteEnd(latestStart: UInt64) {
        guard let last, latestStart > last else { return }
        dropped += (latestStart - last) / interval
        self.last = latestStart
    }
}

/// Keeps a recording in time when its encoder cannot keep up (issue 37 item 3): frames are
/// left out evenly before they reach the encoder, never in a run.
///
/// Frames wait for the encoder in the queue named "record" (up to 2 s). Left alone, a
/// starved encoder fills it; the full queue then blocks the camera's thread, the camera
/// loses frames in runs once its own few buffers are full, and the movie ends late by the
/// queue's length. The shedder reads how far behind the encoder is (the queue's level, in
/// time) as each frame leaves the queue: up to `calm` it keeps every frame, so a short
/// stall is absorbed as before; beyond it, it leaves out a share of the frames that grows
/// with the backlog (`share(backlog:)`), at most `mostShed`, spread evenly by error
/// diffusion (a share of ½ leaves out every other frame, ⅓ every third). The backlog
/// settles where the share left out is what the encoder lacks, below `full`, so the queue
/// never blocks the camera and the movie ends at most about that long after its limit.
/// The frames kept keep their timestamps: one left out lengthens the frame before it.
/// `calm` is most of the queue (measured: leaving frames out from 0.5 or 1 s behind lost
/// far more frames under load than the queue would have, for an end only a little earlier),
/// and `full` is short of it, so the camera's thread is never blocked: the stills, motion
/// and preview branches it also feeds keep their frames.
struct LoadShedder: Sendable, Equatable {
    /// The backlog up to which every frame is kept (nanoseconds).
    static let calm: UInt64 = 1_500_000_000
    /// The backlog at which the most is left out (nanoseconds); the queue holds 2 s.
    static let full: UInt64 = 1_900_000_000
    /// The largest share of frames left out: at least one in ten is kept.
    static let mostShed = 0.9

    /// The share carried towards the next frame left out.
    private var carry = 0.0
    /// Frames left out so far.
    private(set) var shed: UInt64 = 0

    /// The share of frames to leave out with the encoder `backlog` nanoseconds behind.
    static func share(backlog: UInt64) -> Double {
        guard backlog > calm else { return 0 }
        let over = Double(backlog - calm) / Double(full - calm)
        return min(mostShed, over * mostShed)
    }

    /// Whether to leave out the next frame, the encoder being `backlog` nanoseconds behind.
    mutating func leavesOut(backlog: UInt64) -> Bool {
        let share = Self.share(backlog: backlog)
        guard share > 0 else {
            carry = 0
            return false
        }
        carry += share
        guard carry >= 1 else { return false }
        carry -= 1
        shed += 1
        return true
    }

    /// The warning when the first frame is left out, with what would keep every frame
    /// (`rate`: the movie's frame rate).
    static func warning(rate: FrameRateValue) -> String {
        "the encoder cannot keep up (\(Double(calm) / 1e9) s behind): camrec now leaves frames out evenly so that the movie "
            + "keeps its timing and ends on time (shed_frames in ctl status and the result); to keep every frame, lower "
            + "--quality, --size or --fps (\(rate) now), or use a hardware --encoder (camrec encoders)"
    }
}

import GStreamer
import Synchronization

/// Counts the frames entering the encoder and, with a limit, lets through exactly the
/// frames whose time since the first frame is below it: the movie then holds
/// fps × limit frames, however late the stop reaches the source.
///
/// It also counts frames lost before it: a gap of more than 1.5 frame intervals between
/// two timestamps means the camera dropped or stalled (sequence gaps, late frames) or
/// the pipeline fell behind, and the missing intervals are counted as dropped frames.
///
/// Runs in a pad probe on the recording branch, so it only does arithmetic under a mutex.
final class MaxDurationGate: Sendable {
    private struct Counts {
        var firstPts: UInt64?
        var lastPts: UInt64?
        var frames = 0
        var dropped: UInt64 = 0
        var closed = false
        /// The last frames let through, (pts, index in the movie), for matching stills.
        var recent: [(pts: UInt64, index: Int)] = []
    }

    /// How many recent frames are remembered for `movieFrame(pts:)`: several seconds.
    private static let recentCapacity = 512

    private let limitNanoseconds: UInt64?
    private let halfFrameNanoseconds: UInt64
    private let frameNanoseconds: UInt64
    private let counts = Mutex(Counts())

    /// A gate for `limit` (nil: count only) at the nominal frame rate.
    init(limit: TimeSpec?, rate: FrameRateValue) {
        limitNanoseconds = limit.map { UInt64(max(0, $0.nanoseconds)) }
        frameNanoseconds = UInt64(1_000_000_000.0 / max(rate.framesPerSecond, 1))
        halfFrameNanoseconds = frameNanoseconds / 2
    }

    /// Decides for one buffer; `onLimit` is called once, when the first frame is held back.
    /// `slot` is the frame's time on an even grid when frames are kept from a faster camera
    /// (`RateDecimator`): the limit and lost frames are then reckoned on the grid, and `pts`
    /// only identifies the frame for stills.
    func admit(pts: UInt64?, slot: UInt64? = nil, onLimit: () -> Void) -> ProbeDecision {
        var reachedNow = false
        let decision = counts.withLock { counts -> ProbeDecision in
            if counts.closed { return .drop }
            let time = slot ?? pts ?? counts.lastPts ?? 0
            let first = counts.firstPts ?? time
            counts.firstPts = first
            let elapsed = time >= first ? time - first : 0
            if let limit = limitNanoseconds, elapsed + halfFrameNanoseconds > limit {
                counts.closed = true
                reachedNow = true
                return .drop
            }
            if let last = counts.lastPts, time > last, time - last > frameNanoseconds + halfFrameNanoseconds {
                let missing = (time - last + halfFrameNanoseconds) / frameNanoseconds - 1
                counts.dropped += missing
            }
            counts.recent.append((pts ?? time, counts.frames))
            if counts.recent.count > Self.recentCapacity { counts.recent.removeFirst(counts.recent.count - Self.recentCapacity / 2) }
            counts.frames += 1
            counts.lastPts = time
            return .pass
        }
        if reachedNow { onLimit() }
        return decision
    }

    /// Frames let through so far.
    var frames: Int { counts.withLock { $0.frames } }

    /// Where the frame with timestamp `pts` is in the movie: its index and its time from
    /// the first frame. `.pending` until the recording branch has reached it; `.absent`
    /// when it was not recorded (past the limit, or lost).
    func movieFrame(pts: UInt64) -> MovieFrameLookup {
        counts.withLock { counts in
            if let hit = counts.recent.last(where: { $0.pts == pts }), let first = counts.firstPts {
                return .found(index: hit.index, seconds: Double(hit.pts - first) / 1e9)
            }
            if counts.closed { return .absent }
            if let last = counts.lastPts, last >= pts { return .absent }
            return .pending
        }
    }

    /// Frames missing between the timestamps let through so far.
    var droppedFrames: UInt64 { counts.withLock { $0.dropped } }

    /// Whether the limit was reached.
    var isClosed: Bool { counts.withLock { $0.closed } }

    /// Video time let through so far, in seconds: from the first frame to the end of the last.
    func recordedSeconds(frameDuration: Double) -> Double {
        counts.withLock { counts in
            guard let first = counts.firstPts, let last = counts.lastPts else { return 0 }
            let seconds = Double(last - first) / 1e9 + frameDuration
            return (seconds * 1000).rounded() / 1000
        }
    }
}

/// The answer of `MaxDurationGate.movieFrame(pts:)`.
enum MovieFrameLookup: Equatable {
    case found(index: Int, seconds: Double)
    case pending
    case absent
}

import GStreamer
import Synchronization

/// The recording branch's gate, before the encoder: it applies `--max-duration`
/// (`DurationLimit`), counts lost frames (`DropCounter`), keeps the movie's frame
/// timeline for stills (`FrameTimeline`) and says when a periodic still is due
/// (`StillSchedule`). Each job is a value type of its own, tested on
/// its own; this class holds them under one mutex, because it runs in a pad probe on the
/// streaming thread, where it only does arithmetic.
final class FrameGate: Sendable {
    private struct Jobs {
        var limit: DurationLimit
        var drops: DropCounter
        var timeline = FrameTimeline()
        var stills: StillSchedule?
        var lastTime: UInt64?
    }

    private let jobs: Mutex<Jobs>

    /// A gate for `limit` (nil: count only) at the movie's frame rate, with a still due
    /// every `stillEvery` of movie time (nil: none).
    init(limit: TimeSpec?, rate: FrameRateValue, stillEvery: TimeSpec? = nil) {
        jobs = Mutex(Jobs(limit: DurationLimit(limit: limit, rate: rate), drops: DropCounter(rate: rate),
                          stills: stillEvery.map { StillSchedule(every: $0, rate: rate) }))
    }

    /// Decides for one buffer; `onLimit` is called once, when the first frame is held back.
    /// `slot` is the frame's time on an even grid when frames are kept from a faster camera
    /// (`RateDecimator`): the limit and lost frames are then reckoned on the grid, and `pts`
    /// only identifies the frame for stills.
    /// `onStillDue` is called with the camera timestamp of a frame that reaches the next
    /// period of `stillEvery`.
    func admit(pts: UInt64?, slot: UInt64? = nil, onLimit: () -> Void, onStillDue: (UInt64) -> Void = { _ in }) -> ProbeDecision {
        var reachedNow = false
        var stillDue: UInt64?
        let decision = jobs.withLock { jobs -> ProbeDecision in
            if jobs.limit.isReached { return .drop }
            let time = slot ?? pts ?? jobs.lastTime ?? 0
            guard jobs.limit.admits(time) else {
                // Frames lost just before the limit show no gap to a later frame.
                if let latest = jobs.limit.latestStart { jobs.drops.noteEnd(latestStart: latest) }
                reachedNow = true
                return .drop
            }
            jobs.drops.note(time)
            jobs.timeline.append(pts: pts ?? time, time: time)
            jobs.lastTime = time
            if let first = jobs.timeline.first, jobs.stills?.isDue(movieTime: time - first) == true { stillDue = pts ?? time }
            return .pass
        }
        if reachedNow { onLimit() }
        if let stillDue { onStillDue(stillDue) }
        return decision
    }

    /// Frames let through so far.
    var frames: Int { jobs.withLock { $0.timeline.frames } }

    /// Where the camera frame with timestamp `pts` is in the movie.
    func movieFrame(pts: UInt64) -> MovieFrameLookup {
        jobs.withLock { $0.timeline.lookup(pts: pts, closed: $0.limit.isReached) }
    }

    /// Frames missing between the timestamps let through so far.
    var droppedFrames: UInt64 { jobs.withLock { $0.drops.dropped } }

    /// Whether the limit was reached.
    var isClosed: Bool { jobs.withLock { $0.limit.isReached } }

    /// Video time let through so far, in seconds: from the first frame to the end of the last.
    func recordedSeconds(frameDuration: Double) -> Double {
        jobs.withLock { $0.timeline.seconds(frameDuration: frameDuration) }
    }
}

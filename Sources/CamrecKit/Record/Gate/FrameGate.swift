import GStreamer
import Synchronization

/// The recording branch's gate, before the encoder: it applies `--max-duration`
/// (`DurationLimit`), counts lost frames (`DropCounter`), cuts the run into segments
/// (`SegmentClock`), keeps each movie file's frame timeline for stills and results
/// (`FrameTimeline`) and says when a periodic still is due (`StillSchedule`). Each job is
/// a value type of its own, tested on its own; this class holds them under one mutex,
/// because it runs in a pad probe on the streaming thread, where it only does arithmetic.
final class FrameGate: Sendable {
    private struct Jobs {
        var limit: DurationLimit
        var drops: DropCounter
        var segments: SegmentClock
        /// The movie file being written.
        var timeline = FrameTimeline()
        /// The one before it, for stills asked for just before a cut.
        var previous: FrameTimeline?
        /// Frames and seconds of each finished movie file, in order.
        var finished: [SegmentSummary] = []
        var stills: StillSchedule?
        var runFirst: UInt64?
        var lastTime: UInt64?
        /// `--settle`: frames held back until the picture is stable; nil once reported or without.
        var settle: SettleWindow?
        var settleReported = false
        /// Passthrough: the keyframes the camera sent (nil when frames are encoded here).
        var keyframes: KeyframeGaps?
        /// The camera timestamps of the first and the latest frame let through (where the
        /// sound starts and, at the end, stops).
        var firstPTS: UInt64?
        var lastPTS: UInt64?
        /// The pipeline's base time (a frame's clock time is its timestamp plus it), when told.
        var baseTime: UInt64?
        /// `--schedule`: the window of the wall clock the movie records; nil without.
        var window: WindowLimit?

        /// The movie file being written, summed up.
        func summary(frameDuration: Double) -> SegmentSummary {
            SegmentSummary(frames: timeline.frames, seconds: timeline.seconds(frameDuration: frameDuration),
                           firstClockTime: timeline.first.flatMap { first in baseTime.map { first &+ $0 } },
                           firstCapture: timeline.firstCapture)
        }
    }

    private let jobs: Mutex<Jobs>
    /// Broadcast at every frame let through, and every frame a time-lapse passes over
    /// (stills wait on it for their frame's place).
    let admitted = EventCount()
    /// One frame at the movie's rate, in seconds.
    let frameDuration: Double

    /// A gate for `limit` (nil: count only) at the movie's frame rate, cutting a new movie
    /// file every `segment` of video (nil: only when asked), with a still due every
    /// `stillEvery` of movie time (nil: none).
    /// With `settle` above zero, the first frames are settling frames (`SettleWindow`).
    /// With `measuresKeyframes` (passthrough), the longest gap between keyframes is kept.
    /// `captureRate` is a time-lapse's (`--timelapse`): frames are admitted at their slots
    /// on its grid of capture time, one per interval, and the limit, segments, periodic
    /// stills and lost frames are reckoned on that grid (half a slot of tolerance), while
    /// the movie files' timelines count movie frames at `rate`.
    /// With `window` (`--schedule`), the frames captured before its start are held back and
    /// the movie ends at its end, or at `limit` if that comes first (`WindowLimit`).
    init(limit: TimeSpec?, rate: FrameRateValue, segment: TimeSpec? = nil, stillEvery: TimeSpec? = nil,
         settle: TimeSpec = .zero, measuresKeyframes: Bool = false, captureRate: FrameRateValue? = nil,
         window: RecordingWindow? = nil) {
        let step = captureRate ?? rate
        jobs = Mutex(Jobs(limit: DurationLimit(limit: limit, rate: step), drops: DropCounter(rate: step),
                          segments: SegmentClock(length: segment, rate: step),
                          stills: stillEvery.map { StillSchedule(every: $0, rate: step) },
                          settle: SettleWindow(limit: settle, rate: rate),
                          keyframes: measuresKeyframes ? KeyframeGaps() : nil,
                          window: window.map { WindowLimit($0, rate: step) }))
        frameDuration = 1 / max(rate.framesPerSecond, 1)
    }

    /// Decides for one buffer; `onLimit` is called once, when the first frame is held back.
    /// `slot` is the frame's time on an even grid when frames are kept from a faster camera
    /// (`RateDecimator`): the limit, segments and lost frames are then reckoned on the
    /// grid, and `pts` only identifies the frame for stills.
    /// `movieTime` is the frame's retimed timestamp in a time-lapse (`TimeLapseGrid`): the
    /// movie file's timeline and a segment's start (where the encoder and the muxer see
    /// the frame) are on it, while `slot` is its capture time.
    /// `onSegmentStart` is called with the timestamp of a frame that starts a new movie
    /// file (before it is let through, so the caller can ask for a keyframe there).
    /// `onStillDue` is called with the camera timestamp of a frame that reaches the next
    /// period of `stillEvery`.
    ///
    /// `keyframe` is false for a compressed frame that needs the frames before it (the
    /// camera's own stream, stored without encoding): the movie starts at the first
    /// keyframe (the frames before it cannot be shown) and a segment starts at the first
    /// keyframe at or after its boundary, since it cannot be asked for one. Raw frames are
    /// all keyframes: the encoder makes one where a segment starts.
    ///
    /// `capture` is the frame's capture time on the wall clock, for a movie of a schedule's
    /// window; reaching the window's end is reaching the limit.
    func admit(pts: UInt64?, slot: UInt64? = nil, movieTime: UInt64? = nil, keyframe: Bool = true,
               capture: WallTime? = nil, onLimit: () -> Void,
               onSegmentStart: (UInt64) -> Void = { _ in },
               onStillDue: (UInt64) -> Void = { _ in }) -> ProbeDecision {
        var reachedNow = false
        var stillDue: UInt64?
        var segmentStart: UInt64?
        let frameDuration = frameDuration
        let decision = jobs.withLock { jobs -> ProbeDecision in
            if jobs.limit.isReached { return .drop }
            let time = slot ?? pts ?? jobs.lastTime ?? 0
            // A settling frame goes on to be measured where it is decoded, and dropped there
            // (`measureSettling`); the limit, drops and timeline start after the window.
            if jobs.settle?.isSettling(pts ?? time) == true { return .pass }
            if jobs.runFirst == nil, !keyframe { return .drop }
            if var window = jobs.window, let capture {
                let decision = window.decide(capture: capture)
                jobs.window = window
                switch decision {
                case .early: return .drop
                case .inside: break
                case .ended:
                    jobs.limit.close()
                    reachedNow = true
                    return .drop
                }
            }
            guard jobs.limit.admits(time) else {
                // Frames lost just before the limit show no gap to a later frame.
                if let latest = jobs.limit.latestStart { jobs.drops.noteEnd(latestStart: latest) }
                reachedNow = true
                return .drop
            }
            jobs.drops.note(time)
            if keyframe, jobs.segments.startsSegment(at: time) {
                jobs.finished.append(jobs.summary(frameDuration: frameDuration))
                jobs.previous = jobs.timeline
                jobs.timeline = FrameTimeline()
                segmentStart = movieTime ?? pts ?? time
            }
            jobs.timeline.append(pts: pts ?? time, time: time, movieTime: movieTime)
            if keyframe { jobs.keyframes?.note(time) }
            if jobs.runFirst == nil { jobs.runFirst = time }
            jobs.lastTime = time
            if jobs.firstPTS == nil { jobs.firstPTS = pts ?? time }
            jobs.lastPTS = pts ?? time
            if let first = jobs.runFirst, jobs.stills?.isDue(movieTime: time - first) == true { stillDue = pts ?? time }
            return .pass
        }
        if case .pass = decision { admitted.signal() }
        if let segmentStart { onSegmentStart(segmentStart) }
        if reachedNow { onLimit() }
        if let stillDue { onStillDue(stillDue) }
        return decision
    }

    /// Notes that the frame at `pts` is not recorded (a time-lapse left it out): stills
    /// waiting to know whether their frame is in the movie learn that it is not, at once.
    func passOver(pts: UInt64) {
        jobs.withLock { $0.timeline.passOver(pts: pts) }
        admitted.signal()
    }

    /// Notes when the movie file's first frame was captured, once per file: `capture` gives
    /// the wall-clock time of a camera timestamp (called under the gate's lock: it only
    /// reads clocks). Returns the file (0-based) and the time when it was noted just now.
    @discardableResult
    func noteFirstCapture(_ capture: (UInt64) -> WallTime?) -> (file: Int, time: WallTime)? {
        jobs.withLock { jobs in
            guard jobs.timeline.firstCapture == nil, let pts = jobs.timeline.firstPTS, let time = capture(pts) else { return nil }
            jobs.timeline.firstCapture = time
            return (jobs.finished.count, time)
        }
    }

    /// `--schedule`: whether the frame with timestamp `pts`, captured at `capture` on the
    /// wall clock, comes before the movie's window (the camera opened early): asked before
    /// the frame's other gates (the sound's start, several cameras' barrier), which must not
    /// start on it. A settling frame is not early: it goes on to be measured.
    func isBeforeWindow(pts: UInt64?, capture: WallTime) -> Bool {
        jobs.withLock { jobs in
            guard let window = jobs.window, !window.opened else { return false }
            if let pts, jobs.settle?.isSettling(pts) == true { return false }
            return window.isEarly(capture)
        }
    }

    /// Whether the frame with timestamp `pts` is a settling frame, asked before `admit`
    /// (several cameras: before the start barrier, so that each camera settles before it
    /// offers its frames). A settling frame goes on to be measured and dropped where it is
    /// decoded; `admit` then takes the first frame that is not as the movie's first.
    func isSettling(pts: UInt64) -> Bool {
        jobs.withLock { $0.settle?.isSettling(pts) == true }
    }

    /// Whether the frame with timestamp `pts`, reaching the encoder, is a settling frame
    /// (then `brightness` is measured and the caller drops it).
    func measureSettling(pts: UInt64?, brightness: () -> Double, focusBusy: () -> Bool = { false }) -> Bool {
        measureSettling(pts: pts, brightnesses: { [brightness()] }, focusBusy: focusBusy)
    }

    /// `measureSettling` for a canvas: `brightnesses` measures each camera's rectangle.
    func measureSettling(pts: UInt64?, brightnesses: () -> [Double], focusBusy: () -> Bool = { false }) -> Bool {
        jobs.withLock { jobs in
            guard let pts, jobs.settle != nil else { return false }
            return jobs.settle?.measure(pts, brightnesses: brightnesses, focusBusy: focusBusy) ?? false
        }
    }

    /// Whether the settle window is over (or there is none): no frame is held back any more.
    var settleWindowOver: Bool {
        jobs.withLock { $0.settle?.outcome != nil || $0.settle == nil }
    }

    /// How the settle window ended, once (nil before it ends, after it was taken, or without one).
    func takeSettleOutcome() -> SettleOutcome? {
        jobs.withLock { jobs in
            guard !jobs.settleReported, let outcome = jobs.settle?.outcome else { return nil }
            jobs.settleReported = true
            return outcome
        }
    }

    /// The length of a movie with a limit, in whole frames (ns): where its last frame
    /// ends after its first frame's timestamp. Nil without a limit.
    var movieLength: UInt64? {
        jobs.withLock { jobs in
            guard let limit = jobs.limit.limit else { return nil }
            let frames = (Double(limit) / 1e9 / frameDuration).rounded()
            return UInt64(frames * frameDuration * 1e9)
        }
    }

    /// Before the first frame is let through (several cameras): the pipeline's base time,
    /// and the clock time where the segment grid to go on with began (`RecordConfig.segmentGrid`),
    /// for the frame at `pts`, which may be the first.
    func prepareFirstFrame(pts: UInt64, baseTime: UInt64, gridOrigin: UInt64?) {
        jobs.withLock { jobs in
            guard jobs.firstPTS == nil else { return }
            jobs.baseTime = baseTime
            let clock = pts &+ baseTime
            if let gridOrigin, clock >= gridOrigin { jobs.segments.continueGrid(phase: clock - gridOrigin) }
        }
    }

    /// The clock time of the first frame let through, when the base time was told
    /// (`prepareFirstFrame`); nil before it.
    var firstFrameClockTime: UInt64? {
        jobs.withLock { jobs in jobs.firstPTS.flatMap { first in jobs.baseTime.map { first &+ $0 } } }
    }

    /// The timestamp of the run's first frame let through; nil before it.
    var firstFramePTS: UInt64? { jobs.withLock { $0.firstPTS } }

    /// Where the latest frame let through ends (its timestamp plus one frame interval);
    /// nil before the first frame.
    var videoEnd: UInt64? {
        let interval = UInt64(frameDuration * 1e9)
        return jobs.withLock { $0.lastPTS.map { $0 + interval } }
    }

    /// Lets no more frames through, as the limit does (a stop with sound: the sound then
    /// ends where the last frame does).
    func close() {
        jobs.withLock { $0.limit.close() }
    }

    /// Shuts the gate for good if no frame has gone through it yet, in one step (no frame can
    /// slip through afterwards); whether it did.
    func closeIfEmpty() -> Bool {
        jobs.withLock { jobs in
            guard jobs.runFirst == nil else { return false }
            jobs.limit.close()
            return true
        }
    }

    /// Asks for the next frame (or the first at or after timestamp `pts`) to start a new
    /// movie file (`camrec ctl … split`).
    func requestSplit(at pts: UInt64? = nil) {
        jobs.withLock { $0.segments.requestSplit(at: pts) }
    }

    /// Frames let through so far, in all movie files.
    var frames: Int { jobs.withLock { jobs in jobs.finished.reduce(jobs.timeline.frames) { $0 + $1.frames } } }

    /// The movie file being written: 0 for the first.
    var currentSegment: Int { jobs.withLock { $0.finished.count } }

    /// Frames and seconds of movie file `index` (0 for the first): final for a finished
    /// one, so far for the one being written; nil past it.
    func segment(_ index: Int) -> SegmentSummary? {
        jobs.withLock { jobs in
            if index < jobs.finished.count { return jobs.finished[index] }
            guard index == jobs.finished.count else { return nil }
            return jobs.summary(frameDuration: frameDuration)
        }
    }

    /// Where the camera frame with timestamp `pts` is in its movie file.
    func movieFrame(pts: UInt64) -> MovieFrameLookup {
        place(pts: pts).frame
    }

    /// Where the camera frame with timestamp `pts` is: its movie file (0 for this
    /// pipeline's first) and its place in it.
    func place(pts: UInt64) -> (frame: MovieFrameLookup, file: Int) {
        jobs.withLock { jobs in
            let lookup = jobs.timeline.lookup(pts: pts, closed: jobs.limit.isReached)
            if lookup == .absent, let previous = jobs.previous, case .found = previous.lookup(pts: pts, closed: true) {
                return (previous.lookup(pts: pts, closed: true), jobs.finished.count - 1)
            }
            return (lookup, jobs.finished.count)
        }
    }

    /// Passthrough: the longest time between two keyframes let through, in seconds (nil
    /// before the second keyframe, or when frames are encoded here).
    var longestKeyframeInterval: Double? { jobs.withLock { $0.keyframes?.longestSeconds } }

    /// Frames missing between the timestamps let through so far.
    var droppedFrames: UInt64 { jobs.withLock { $0.drops.dropped } }

    /// Whether the limit was reached.
    var isClosed: Bool { jobs.withLock { $0.limit.isReached } }

    /// Whether a frame at `time` comes too late for the limit (or the limit was reached):
    /// the gate will drop it.
    func isPastLimit(_ time: UInt64) -> Bool {
        jobs.withLock { jobs in jobs.limit.isReached || jobs.limit.latestStart.map { time > $0 } ?? false }
    }

    /// Video time let through so far, in all movie files, in seconds.
    func recordedSeconds(frameDuration: Double) -> Double {
        jobs.withLock { jobs in
            let seconds = jobs.finished.reduce(jobs.timeline.seconds(frameDuration: frameDuration)) { $0 + $1.seconds }
            return (seconds * 1000).rounded() / 1000
        }
    }
}

/// What one movie file of a run holds.
struct SegmentSummary: Equatable, Sendable {
    /// Video frames.
    var frames: Int
    /// Seconds of video (to the millisecond).
    var seconds: Double
    /// The clock time (ns) of its first frame, when the run's base time is known (several
    /// cameras: `prepareFirstFrame`); nil otherwise.
    var firstClockTime: UInt64? = nil
    /// When its first frame was captured (wall clock); nil when not noted.
    var firstCapture: WallTime? = nil
}

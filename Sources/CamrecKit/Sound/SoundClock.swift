/// Keeps captured sound on the pipeline's clock, the system's monotonic clock that the
/// camera's frames are stamped on, whatever the sound card's own clock does.
///
/// A sound card counts samples on its own crystal, which runs some hundred parts per
/// million fast or slow against the system clock; stamped by count, the sound slides away
/// from the picture (tens of milliseconds in ten minutes). GStreamer 1.22's `skew` slaving
/// only resynchronises when the source falls a whole ring buffer behind, with a jump and a
/// gap, and a loaded machine makes it jump for nothing. So the source is not slaved
/// (`slave-method=none`: plain sample counts) and this type places each buffer instead:
///
/// - A buffer's *lateness* is how long after the end of its sound (by its timestamp) it
///   reached the branch. It never falls below the source's delivery delay; on a loaded
///   machine it rises for a while and comes back. The least lateness over a second of
///   sound is the timeline's error: kept at zero, the sound is stamped when it was captured.
/// - Drift is corrected gently, by repeating or dropping single sample frames spread over
///   the next second (at most `maximumCorrection`, 1000 ppm: inaudible), so that the sound
///   stays continuous and the encoder sees no gap; the correction follows half the error
///   of the last second (a stable loop; with a constant drift it settles within a
///   fraction of a millisecond).
/// - Sound that was really lost follows the clock at once: a buffer the source marks as a
///   discontinuity (its ring buffer overran) keeps its gap, and sound that stays more than
///   `gapThreshold` late for `gapWindow` (the sound card stopped delivering for a while)
///   jumps forward; `audiorate` then fills the gap with silence of the same length, so the
///   sound after it is in place. Sound stamped later than it arrived is impossible, so the
///   timeline then jumps back at once (the overlap is dropped by `audiorate`).
///
/// Pure state: the probe on the source's pad feeds it (`SoundClockProbe`).
struct SoundClock {
    /// The numbers of the control loop.
    struct Tuning: Sendable {
        /// Sound per control step (ns).
        var block: UInt64 = 1_000_000_000
        /// The share of the last step's error corrected in the next (proportional)...
        var gain = 0.5
        /// ...and the share added to the standing correction, which learns the card's drift
        /// (integral: without it a constant drift leaves an error of drift ÷ gain).
        var learning = 0.1
        /// At the start, sound stamped later than it arrived by more than this (ns) moves
        /// back at once: the first buffer came late and the timeline was anchored on it.
        var startTolerance: Int64 = 1_000_000
        /// How long the start lasts (ns of sound).
        var start: UInt64 = 500_000_000
        /// The largest correction, parts per million of the sound.
        var maximumCorrection = 1000.0
        /// How long (of arrival time) sound must stay late before it counts as lost (ns).
        var gapWindow: UInt64 = 300_000_000
        /// How late (ns) is late enough to be a loss rather than a busy machine.
        var gapThreshold: Int64 = 40_000_000
        /// Buffers needed in the window before a loss is declared.
        var gapMinimumBuffers = 10
    }

    /// Where one buffer of sound goes.
    struct Placement: Equatable {
        /// Its new timestamp (running time, ns).
        var pts: UInt64
        /// Its new duration (ns).
        var duration: UInt64
        /// Sample frames to repeat (positive) or drop (negative), spread over the buffer.
        var edit: Int
        /// How far the timeline jumped before this buffer (ns): positive, sound lost (a gap
        /// for silence); negative, sound stamped too late (an overlap to drop). Zero mostly.
        var jump: Int64
    }

    let rate: Int
    let tuning: Tuning
    /// The timeline: the next buffer starts `frames` sample frames after `anchor` (ns).
    private var anchor: UInt64?
    private var frames: Int64 = 0
    /// Where the source's next buffer should start by its own stamps (a discontinuity's gap).
    private var expectedInput: UInt64?
    /// The control step under way.
    private var stepFrames: Int64 = 0
    private var stepBuffers = 0
    private var stepLeast: Int64?
    /// Frames to repeat (or drop, negative) per buffer during this step, and the part not yet done.
    private var plan = 0.0
    private var pending = 0.0
    /// The standing correction, frames per step: the card's drift as learnt so far.
    private var standing = 0.0
    /// Recent (arrival, lateness) pairs, for lost sound.
    private var recent: [(arrival: UInt64, lateness: Int64)] = []
    /// A jump decided after the last buffer, reported with the next.
    private var carriedJump: Int64 = 0
    /// Frames placed so far (the start is the first `tuning.start` of them), and jumps made.
    private(set) var placedFrames: Int64 = 0
    private(set) var jumps = 0

    init(rate: Int, tuning: Tuning = Tuning()) {
        self.rate = max(rate, 1)
        self.tuning = tuning
    }

    /// How fast the sound card's clock runs against the system clock, in parts per million
    /// (positive: fast, frames are dropped): the standing correction the loop has learnt
    /// (not the corrections so far, which include putting the start in place).
    var clockPPM: Double {
        -standing / (Double(rate) * Double(tuning.block) / 1_000_000_000) * 1_000_000
    }

    /// Places a buffer of `count` sample frames that the source stamped `pts` and that
    /// reached the branch at `arrival` (running time, ns); `discontinuous`: the source lost
    /// sound just before it.
    mutating func place(pts: UInt64?, count: Int, arrival: UInt64, discontinuous: Bool) -> Placement {
        let count = max(count, 0)
        var jump = carriedJump
        carriedJump = 0
        if anchor == nil {
            // The first buffer: its sound ends as it arrives.
            anchor = arrival - min(arrival, nanoseconds(Int64(count)))
        } else if discontinuous, let pts, let expected = expectedInput, pts > expected {
            shift(by: Int64(pts - expected))
            jump += Int64(pts - expected)
        }
        if let pts { expectedInput = pts + nanoseconds(Int64(count)) }

        let edit = nextEdit(count: count)
        // Stamped later than it arrived: impossible, so the timeline is wrong; back at once.
        let early = Int64(bitPattern: arrival &- (position + nanoseconds(Int64(count + edit))))
        let starting = placedFrames < Int64(tuning.start / 1_000_000) * Int64(rate) / 1000
        if early < -(starting ? tuning.startTolerance : tuning.gapThreshold) {
            shift(by: early)
            jump += early
        }
        let start = position
        frames += Int64(count + edit)
        let end = position
        record(arrival: arrival, lateness: Int64(bitPattern: arrival &- end), count: count + edit)
        // Late for a whole window: the card lost sound; what follows goes where the clock says.
        if let lost = lostSound() {
            shift(by: lost)
            carriedJump = lost
        }
        placedFrames += Int64(count + edit)
        if jump != 0 { jumps += 1 }
        return Placement(pts: start, duration: end - start, edit: edit, jump: jump)
    }

    /// The timeline's position: the start of the next buffer (ns).
    private var position: UInt64 { (anchor ?? 0) + nanoseconds(frames) }

    private func nanoseconds(_ frames: Int64) -> UInt64 {
        UInt64(max(frames, 0)) * 1_000_000_000 / UInt64(rate)
    }

    /// Moves the timeline by `amount` ns and starts a new control step: what was measured
    /// before the jump says nothing about the timeline after it.
    private mutating func shift(by amount: Int64) {
        let base = position
        let moved = amount >= 0 ? base + UInt64(amount) : base - min(base, UInt64(-amount))
        anchor = moved
        frames = 0
        stepFrames = 0
        stepBuffers = 0
        stepLeast = nil
        plan = 0
        pending = 0
        recent.removeAll()
    }

    /// The frames to repeat or drop in a buffer of `count`: the plan's share, at most one
    /// frame per hundred.
    private mutating func nextEdit(count: Int) -> Int {
        pending += plan
        let limit = max(1, count / 100)
        let edit = max(-limit, min(limit, Int(pending.rounded(.towardZero))))
        pending -= Double(edit)
        return count + edit > 0 ? edit : 0
    }

    /// Notes a placed buffer; at the end of a step, plans the next step's correction.
    private mutating func record(arrival: UInt64, lateness: Int64, count: Int) {
        stepLeast = min(stepLeast ?? lateness, lateness)
        stepFrames += Int64(count)
        stepBuffers += 1
        recent.append((arrival, lateness))
        if let first = recent.first, arrival > first.arrival + tuning.gapWindow {
            recent.removeAll { arrival - $0.arrival > tuning.gapWindow }
        }
        guard nanoseconds(stepFrames) >= tuning.block, let least = stepLeast else { return }
        // Keep whole seconds in the anchor so that frames * 1e9 never overflows.
        let seconds = frames / Int64(rate)
        anchor = (anchor ?? 0) + UInt64(seconds) * 1_000_000_000
        frames -= seconds * Int64(rate)
        let error = Double(least) * Double(rate) / 1_000_000_000
        let largest = tuning.maximumCorrection / 1_000_000 * Double(stepFrames)
        standing = max(-largest, min(largest, standing + tuning.learning * error))
        let correction = max(-largest, min(largest, standing + tuning.gain * error))
        plan = correction / Double(max(stepBuffers, 1))
        stepFrames = 0
        stepBuffers = 0
        stepLeast = nil
    }

    /// How far behind the clock the sound fell, when it stayed late beyond the threshold
    /// for a whole window.
    private func lostSound() -> Int64? {
        guard recent.count >= tuning.gapMinimumBuffers, let first = recent.first, let last = recent.last,
              last.arrival - first.arrival >= tuning.gapWindow * 4 / 5
        else { return nil }
        let least = recent.map(\.lateness).min() ?? 0
        return least > tuning.gapThreshold ? least : nil
    }
}

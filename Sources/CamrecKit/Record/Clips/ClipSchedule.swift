/// When event clips start and end (issue 16): a trigger asks for the stretch from
/// `preRoll` before it to `postRoll` after it; a trigger while a clip is still being
/// written extends that clip (one event) instead of starting another, up to `maxClip` in
/// all; after the clip has ended, the next trigger starts a new one. Triggers are
/// repeatable for the whole run.
///
/// Pure state, on the recording's timeline (running time, ns): the recording tells it
/// each trigger and each frame's time, and it says when a clip starts, grows and ends.
struct ClipSchedule: Equatable {
    /// One clip: where it starts and ends (ns), and the triggers in it.
    struct Clip: Equatable {
        var start: UInt64
        var end: UInt64
        var triggers: [UInt64]
    }

    /// What a trigger did.
    enum Decision: Equatable {
        /// A new clip, from `start` (trigger − pre-roll) to `end`.
        case started(Clip)
        /// The clip being written now ends at `end` (later than before, or as late as
        /// `maxClip` allows).
        case extended(Clip)
    }

    let preRoll: UInt64
    let postRoll: UInt64
    let maxClip: UInt64
    /// The clip being written, if any.
    private(set) var current: Clip?
    /// How many clips were started.
    private(set) var count = 0

    /// Clips of `preRoll` before and `postRoll` after each trigger, at most `maxClip` long
    /// (at least the pre-roll and post-roll together).
    init(preRoll: UInt64, postRoll: UInt64, maxClip: UInt64) {
        self.preRoll = preRoll
        self.postRoll = postRoll
        self.maxClip = max(maxClip, preRoll + postRoll)
    }

    /// A trigger at `time`; `after` overrides the post-roll for this trigger (`ctl clip
    /// --after T`).
    mutating func trigger(at time: UInt64, after: UInt64? = nil) -> Decision {
        let wanted = time + (after ?? postRoll)
        if var clip = current, time <= clip.end {
            clip.end = min(max(clip.end, wanted), clip.start + maxClip)
            clip.triggers.append(time)
            current = clip
            return .extended(clip)
        }
        let start = time > preRoll ? time - preRoll : 0
        let clip = Clip(start: start, end: min(wanted, start + maxClip), triggers: [time])
        current = clip
        count += 1
        return .started(clip)
    }

    /// A frame at `time` reached the clip: the clip that ends before it (that frame is not
    /// in it), if one does.
    mutating func frame(at time: UInt64) -> Clip? {
        guard let clip = current, time >= clip.end else { return nil }
        current = nil
        return clip
    }

    /// The run ends at `time`: the clip being written ends there (shorter than planned).
    mutating func close(at time: UInt64) -> Clip? {
        guard var clip = current else { return nil }
        current = nil
        clip.end = max(clip.start, min(clip.end, time))
        return clip
    }
}

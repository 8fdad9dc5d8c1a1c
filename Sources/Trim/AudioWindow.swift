/// The audio that goes with a trim's video: one run of packets, from the first that starts
/// at the first frame (or within a millisecond before it) to the last that starts before
/// the end of the last frame. Both tracks are placed on the input's presentation timeline
/// first (each through its own edit list), so audio that starts later than the video stays
/// in sync. Times in nanoseconds.
struct AudioWindow: Sendable, Equatable {
    /// The first output frame's presentation time: the output's 0.
    let start: Int64
    /// The end of the last output frame: no packet that starts here or later is kept.
    let end: Int64
    /// The audio track's buffer time minus its presentation time (its own edit list).
    let audioPresentationOffset: Int64

    /// How early a packet may start and still be kept: a packet at the first frame's
    /// instant may read a little earlier once rounded in its own timescale.
    static let lead: Int64 = 1_000_000

    /// Where a packet lies.
    enum Place: Equatable {
        /// Before the first frame: dropped.
        case before
        /// Kept.
        case inside
        /// At or after the end of the last frame: dropped, and so is all that follows.
        case after
    }

    /// A window from `start` to `end` (presentation times) for a track whose buffer times
    /// are `audioPresentationOffset` later than its presentation times.
    init(start: Int64, end: Int64, audioPresentationOffset: Int64) {
        self.start = start
        self.end = end
        self.audioPresentationOffset = audioPresentationOffset
    }

    /// The window of `plan`'s output, whose video buffer times are `presentationOffset`
    /// later than its presentation times, and its audio's `audioPresentationOffset` later.
    init(plan: TrimPlan, presentationOffset: Int64, audioPresentationOffset: Int64) {
        start = plan.firstPTS - presentationOffset
        end = plan.endPTS - presentationOffset
        self.audioPresentationOffset = audioPresentationOffset
    }

    /// Where the packet with buffer time `pts` lies.
    func place(_ pts: Int64) -> Place {
        let shown = pts - audioPresentationOffset
        if shown >= end { return .after }
        return shown >= start - Self.lead ? .inside : .before
    }

    /// How long after the output's 0 the packet with buffer time `pts` is shown: negative
    /// for a packet kept within ``lead`` before it.
    func offset(ofPacketAt pts: Int64) -> Int64 {
        pts - audioPresentationOffset - start
    }

    /// The run of `packets` (in the track's order) that is kept, as one piece of the track:
    /// from the first inside the window to the last that starts before its end; nil when
    /// none is inside.
    func keptRun(of packets: [AudioPacket]) -> ClosedRange<Int>? {
        guard let first = packets.firstIndex(where: { place($0.pts) != .before }), place(packets[first].pts) == .inside
        else { return nil }
        let last = packets[first...].lastIndex { place($0.pts) != .after } ?? first
        return first...last
    }
}

/// Places audio packets one by one as a demuxer delivers them: drops those before the
/// window, ends at the first one past it, and gives the others output times (from the
/// output's 0) that never go back and never fall below 0.
struct AudioPlacer: Sendable {
    /// The window packets are placed in.
    let window: AudioWindow
    /// Whether a packet past the window has come: nothing more is kept.
    private(set) var isFinished = false
    private var lastTime: Int64 = -1

    /// A placer for `window`.
    init(window: AudioWindow) {
        self.window = window
    }

    /// The output time of the packet with buffer time `pts`; nil when it is dropped.
    mutating func place(_ pts: Int64) -> Int64? {
        guard !isFinished else { return nil }
        switch window.place(pts) {
        case .before:
            return nil
        case .after:
            isFinished = true
            return nil
        case .inside:
            let time = max(0, window.offset(ofPacketAt: pts), lastTime + 1)
            lastTime = time
            return time
        }
    }
}

/// Places the cues of a subtitle stream (timed text, subpictures) as a demuxer delivers
/// them: drops those that end before the window, ends at the first one that starts at or
/// after its end, and shortens the others to the window, so that a cue shown across the
/// cut is shown from the output's 0 on. Times in nanoseconds.
struct CuePlacer: Sendable {
    /// The window cues are placed in (its offset: the subtitle stream's own).
    let window: AudioWindow
    /// Whether a cue past the window has come: nothing more is kept.
    private(set) var isFinished = false
    /// The shortest part of a cue kept (ns): Matroska's time unit as muxers write it.
    static let shortest: Int64 = 1_000_000

    init(window: AudioWindow) {
        self.window = window
    }

    /// The output time and duration of the cue with buffer time `pts` shown for `duration`
    /// (0: unknown); nil when it is dropped.
    mutating func place(_ pts: Int64, duration: Int64) -> (pts: Int64, duration: Int64)? {
        guard !isFinished else { return nil }
        let shown = pts - window.audioPresentationOffset
        guard shown < window.end else {
            isFinished = true
            return nil
        }
        let over = duration > 0 ? shown + duration : shown
        guard over > window.start || (duration <= 0 && shown >= window.start) else { return nil }
        let from = max(shown, window.start)
        let until = min(max(over, from), window.end)
        // A cue that starts less than a millisecond before the end of the last frame (the
        // end lies between two of Matroska's millisecond ticks) would be kept for nothing:
        // a zero-length cue once written.
        guard duration <= 0 || until - from >= Self.shortest else { return nil }
        return (from - window.start, until - from)
    }
}

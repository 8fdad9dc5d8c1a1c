/// Which sound belongs with the movie's frames: the sound from the first frame's time to
/// the end of the last frame, to the sample. A buffer that straddles either end is cut
/// there (`part`), so sound and picture start and end together to within one sample (the
/// encoder then pads its last packet). Sound reaches its gate sooner than frames reach
/// theirs (frames are decoded first), so the end of a movie with `--max-duration` is known
/// from its first frame (`length`): the sound cannot run past it before the frames get
/// there. A stop ends it where the last frame let through ends.
struct SoundWindow: Equatable {
    /// The first frame's timestamp (running time, ns); nil until the movie's first frame.
    var start: UInt64?
    /// The movie's length when it has a limit (whole frames, ns): the end is then known
    /// from the first frame.
    var length: UInt64?
    /// Where the last frame ends; nil until the movie is closed (its limit, or a stop).
    var end: UInt64?

    enum Decision: Equatable {
        /// The movie has no frame yet: it is not known whether this sound belongs.
        case wait
        /// Before the first frame: dropped.
        case before
        /// With the movie.
        case pass
        /// Partly with the movie: only its sound from `lowerBound` to `upperBound` (ns),
        /// which is inside the buffer.
        case part(Range<UInt64>)
        /// After the last frame: dropped, and the sound is complete.
        case after
    }

    /// Decides for a sound buffer at `pts` lasting `duration` (ns; 0 when unknown: the
    /// buffer is then judged by its start alone).
    func decide(pts: UInt64, duration: UInt64) -> Decision {
        guard let start else { return .wait }
        let end = self.end ?? length.map { start + $0 }
        if let end, pts >= end { return .after }
        let bufferEnd = pts + duration
        if duration == 0 { return pts < start ? .before : .pass }
        if bufferEnd <= start { return .before }
        let kept = max(pts, start)..<min(bufferEnd, end ?? .max)
        return kept == pts..<bufferEnd ? .pass : .part(kept)
    }
}

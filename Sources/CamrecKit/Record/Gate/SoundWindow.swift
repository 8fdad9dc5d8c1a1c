/// Which sound belongs with the movie's frames: the sound from the first frame's time to
/// the end of the last frame. A sound buffer belongs where its middle is, so sound and
/// picture start and end together to within half a buffer (5 ms for a sound server's
/// 10-ms buffers), well within one frame interval and one encoded sound packet. Sound
/// reaches its gate sooner than frames reach theirs (frames are decoded first), so the
/// end of a movie with `--max-duration` is known from its first frame (`length`): the
/// sound cannot run past it before the frames get there. A stop ends it where the last
/// frame let through ends.
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
        /// After the last frame: dropped, and the sound is complete.
        case after
    }

    /// Decides for a sound buffer at `pts` lasting `duration` (ns).
    func decide(pts: UInt64, duration: UInt64) -> Decision {
        guard let start else { return .wait }
        let middle = pts + duration / 2
        if middle < start { return .before }
        if let end = end ?? length.map({ start + $0 }), middle >= end { return .after }
        return .pass
    }
}

/// The frames of a sound buffer that a cut keeps: the sound from `kept.lowerBound` to
/// `kept.upperBound` (ns) of a buffer starting at `pts`, in whole frames at `rate`, each
/// end rounded to the nearest frame (so consecutive cuts neither lose nor repeat one).
struct SampleCut: Equatable {
    /// Frames skipped at the buffer's start.
    var skip: Int
    /// Frames kept after them.
    var keep: Int

    /// A cut given as frames.
    init(skip: Int, keep: Int) {
        self.skip = skip
        self.keep = keep
    }

    /// Nil when nothing is kept (the range rounds to no frame) or the values are not usable.
    init?(pts: UInt64, kept: Range<UInt64>, rate: Int) {
        guard rate > 0, kept.lowerBound >= pts else { return nil }
        func frames(_ nanoseconds: UInt64) -> Int {
            Int((nanoseconds * UInt64(rate) + 500_000_000) / 1_000_000_000)
        }
        let first = frames(kept.lowerBound - pts)
        let last = frames(kept.upperBound - pts)
        guard last > first else { return nil }
        skip = first
        keep = last - first
    }
}

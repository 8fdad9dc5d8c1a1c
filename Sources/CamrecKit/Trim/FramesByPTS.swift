/// The frames of a decode-order range, found by presentation time: a hash map built once,
/// in O(n), then O(1) per look-up. The writers look up every re-encoded frame this way
/// (its duration, its sample); a linear scan per frame made `--mode reencode` quadratic
/// in the length of the cut.
struct FramesByPTS {
    private let positions: [Int64: Int]

    /// Indexes `frames[range]` (decode order). Should two frames share a PTS (a broken
    /// stream), the first in decode order is the one found.
    init(_ frames: [VideoFrame], in range: ClosedRange<Int>) {
        var positions: [Int64: Int] = [:]
        positions.reserveCapacity(range.count)
        for index in range where positions[frames[index].pts] == nil {
            positions[frames[index].pts] = index
        }
        self.positions = positions
    }

    /// The decode index of the frame shown at `pts`; nil when no frame of the range is.
    func index(of pts: Int64) -> Int? { positions[pts] }

    /// How many distinct presentation times the range holds.
    var count: Int { positions.count }
}

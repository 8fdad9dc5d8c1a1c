/// A run of the output, in output order.
public enum TrimPart: Sendable, Equatable {
    /// Decode frames `feed` (decode-order indices) and re-encode those whose PTS lies in `keep`.
    case encode(feed: ClosedRange<Int>, keep: Range<Int64>)
    /// Copy frames `frames` (decode-order indices) bit-exact.
    case copy(frames: ClosedRange<Int>)
}

extension TrimPart {
    /// Whether the part is copied (not re-encoded).
    var isCopy: Bool {
        if case .copy = self { true } else { false }
    }

    /// The decode indices of the frames an encode part outputs, in presentation order (the
    /// order its encoder returns them; frames shown at the same time in decode order); a copy: none.
    func keptFrames(of frames: [VideoFrame]) -> [Int] {
        guard case .encode(let feed, let keep) = self else { return [] }
        return feed.filter { keep.contains(frames[$0].pts) }
            .sorted { (frames[$0].pts, $0) < (frames[$1].pts, $1) }
    }
}

/// What a trim will do, decided from the frame index alone (no media needed).
public struct TrimPlan: Sendable, Equatable {
    /// The mode the plan implements.
    public var mode: TrimMode
    /// The parts, in output order.
    public var parts: [TrimPart]
    /// PTS of the output's first frame (becomes time 0).
    public var firstPTS: Int64
    /// PTS of the output's last frame.
    public var lastPTS: Int64
    /// End of the output's last frame (its PTS plus duration): audio stops here.
    public var endPTS: Int64
    /// Frames in the output.
    public var frameCount: Int
    /// Frames copied.
    public var framesCopied: Int
    /// Frames re-encoded.
    public var framesReencoded: Int

    /// The first decode-order index the reader must deliver.
    public var readFrom: Int {
        parts.map { part in
            switch part {
            case .encode(let feed, _): feed.lowerBound
            case .copy(let frames): frames.lowerBound
            }
        }.min() ?? 0
    }

    /// The last decode-order index the reader must deliver.
    public var readThrough: Int {
        parts.map { part in
            switch part {
            case .encode(let feed, _): feed.upperBound
            case .copy(let frames): frames.upperBound
            }
        }.max() ?? 0
    }

    /// Whether any part re-encodes.
    public var encodes: Bool {
        parts.contains { if case .encode = $0 { true } else { false } }
    }
}

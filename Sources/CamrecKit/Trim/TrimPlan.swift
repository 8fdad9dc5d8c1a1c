/// One compressed video frame as the demuxer gave it (times in nanoseconds on the
/// demuxer's buffer timeline).
public struct VideoFrame: Sendable, Equatable {
    /// Presentation time.
    public var pts: Int64
    /// Decoding time (equal to `pts` when the stream has no reordering or no DTS).
    public var dts: Int64
    /// Duration (an estimate when the container does not store one).
    public var duration: Int64
    /// Whether the frame is a sync sample (keyframe).
    public var isKeyframe: Bool
    /// Whether a stream may switch to this frame from other coded data: an IDR picture for
    /// H.264 (an open-GOP I-frame is a keyframe but not this), any keyframe otherwise.
    public var isIDR: Bool

    /// Creates a frame.
    public init(pts: Int64, dts: Int64? = nil, duration: Int64, isKeyframe: Bool, isIDR: Bool? = nil) {
        self.pts = pts
        self.dts = dts ?? pts
        self.duration = duration
        self.isKeyframe = isKeyframe
        self.isIDR = isIDR ?? isKeyframe
    }
}

/// A run of the output, in output order.
public enum TrimPart: Sendable, Equatable {
    /// Decode frames `feed` (decode-order indices) and re-encode those whose PTS lies in `keep`.
    case encode(feed: ClosedRange<Int>, keep: Range<Int64>)
    /// Copy frames `frames` (decode-order indices) bit-exact.
    case copy(frames: ClosedRange<Int>)
}

extension TrimPart {
    /// PTS of the frames an encode part outputs, in presentation order (a copy: none).
    func keptPTS(of frames: [VideoFrame]) -> [Int64] {
        guard case .encode(let feed, let keep) = self else { return [] }
        return feed.map { frames[$0].pts }.filter { keep.contains($0) }.sorted()
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

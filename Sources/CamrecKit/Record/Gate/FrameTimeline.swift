/// The frames of one movie file as they entered the encoder: how many, from when to
/// when, and which recent camera frame (by timestamp) is which frame of the movie, so
/// that a still can say where it is in the movie. One per movie file.
struct FrameTimeline: Equatable {
    /// How many recent frames are remembered for `lookup(pts:)`: several seconds.
    static let recentCapacity = 512

    /// Frames in the movie so far.
    private(set) var frames = 0
    /// The first frame's time on the movie's clock (nanoseconds).
    private(set) var first: UInt64?
    /// The last frame's time on the movie's clock (nanoseconds).
    private(set) var last: UInt64?
    /// The first frame's camera timestamp.
    private(set) var firstPTS: UInt64?
    /// The last frame's camera timestamp (a time-lapse's movie clock runs behind it).
    private(set) var lastPTS: UInt64?
    /// When the first frame was captured (wall clock), once noted (`FrameGate.noteFirstCapture`).
    var firstCapture: WallTime?
    /// The last frames let through, (camera pts, index in the movie).
    private var recent: [Recent] = []

    private struct Recent: Equatable {
        var pts: UInt64
        var index: Int
        /// Where it is on the movie's clock, for its time in the movie.
        var at: UInt64
    }

    /// Adds a frame: `pts` is the camera frame's timestamp, `time` its time on the
    /// movie's clock (the same, but for frames kept from a faster camera). `movieTime`,
    /// when given, is its retimed timestamp (a time-lapse, `TimeLapseGrid`): the movie's
    /// clock is then that one.
    mutating func append(pts: UInt64, time: UInt64, movieTime: UInt64? = nil) {
        let time = movieTime ?? time
        if first == nil { first = time }
        if firstPTS == nil { firstPTS = pts }
        recent.append(Recent(pts: pts, index: frames, at: movieTime ?? pts))
        if recent.count > Self.recentCapacity { recent.removeFirst(recent.count - Self.recentCapacity / 2) }
        frames += 1
        last = time
        lastPTS = pts
    }

    /// Notes that the camera frame at `pts` was left out on purpose (a time-lapse keeps
    /// one in many): a still of it, or of a frame before it, is not in the movie, known at once.
    mutating func passOver(pts: UInt64) {
        lastPTS = max(lastPTS ?? pts, pts)
    }

    /// Where the camera frame with timestamp `pts` is in the movie; `closed` says whether
    /// no more frames will come.
    func lookup(pts: UInt64, closed: Bool) -> MovieFrameLookup {
        if let hit = recent.last(where: { $0.pts == pts }), let first {
            return .found(index: hit.index, seconds: Double(hit.at >= first ? hit.at - first : 0) / 1e9)
        }
        if closed { return .absent }
        if let lastPTS, lastPTS >= pts { return .absent }
        return .pending
    }

    /// Video time in the movie, in seconds (milliseconds precision): from the first frame
    /// to the end of the last.
    func seconds(frameDuration: Double) -> Double {
        guard let first, let last else { return 0 }
        let seconds = Double(last - first) / 1e9 + frameDuration
        return (seconds * 1000).rounded() / 1000
    }
}

/// Where a camera frame is in the movie.
enum MovieFrameLookup: Equatable {
    /// Frame `index`, at `seconds` from the movie's first frame.
    case found(index: Int, seconds: Double)
    /// Not reached the recording branch yet.
    case pending
    /// Not recorded (past the limit, or lost).
    case absent
}

import FoundationEssentials

/// Event clips (`--pre-roll`, `--post-roll`, `--max-clip`): what a trigger (`camrec ctl
/// SOCKET clip`, SIGUSR2, the key c) writes beside the movie.
public struct ClipSettings: Sendable, Equatable {
    /// How much of the encoded stream before a trigger is kept in memory and starts its clip.
    public var preRoll: TimeSpec
    /// How long a clip goes on after its last trigger.
    public var postRoll: TimeSpec
    /// The longest a clip grows when triggers keep extending it.
    public var maxClip: TimeSpec
    /// The name clips are named after (`NAME-clip-0001.EXT`); nil: the recording's OUTPUT
    /// (with `--segment`, camrec gives the name without its time fields and counter).
    public var namedAfter: String?
    /// `--clips PATTERN`: the clips' names, as segments' (strftime fields of the clip's
    /// start, local time or `utc`, and/or one counter); nil: `NAME-clip-0001.EXT`.
    public var pattern: SegmentNaming?
    /// `--keep`, `--keep-size`, `--min-free` applied to the clips (those matching their
    /// names, from this run and earlier ones), after each clip; nil: all are kept.
    public var retention: RetentionPolicy?
    /// `--live-photo`: every clip also has the still of its trigger's frame.
    public var livePhoto = false
    /// `--clip-start`: where a clip's first frame is.
    public var start = ClipStart.keyframe

    /// The default post-roll: 10 s.
    public static let defaultPostRoll = TimeSpec.seconds(10)
    /// The default longest clip: 5 minutes.
    public static let defaultMaxClip = TimeSpec.minutes(5)

    public init(preRoll: TimeSpec = .zero, postRoll: TimeSpec = defaultPostRoll, maxClip: TimeSpec = defaultMaxClip) {
        self.preRoll = preRoll
        self.postRoll = postRoll
        self.maxClip = maxClip
    }

    /// How clips are named: `pattern`, or `NAME-clip-0001.EXT` beside the movie `moviePath`.
    public func naming(moviePath: String) -> SegmentNaming {
        if let pattern { return pattern }
        let (stem, ext) = OutputFile.split(namedAfter ?? moviePath)
        // A plain name: the counter is added (NAME-clip-0001.EXT); no time fields to refuse.
        let plain = stem.replacing("%", with: "%%") + "-clip" + ext.replacing("%", with: "%%")
        return (try? SegmentNaming(output: plain, utc: false)) ?? Self.fallbackNaming
    }

    private static let fallbackNaming: SegmentNaming = {
        do { return try SegmentNaming(output: "clip.mp4", utc: false) } catch { preconditionFailure("a fixed plain name is valid") }
    }()
}

/// What a clip trigger did (the reply of `camrec ctl SOCKET clip`).
public struct ClipTrigger: Sendable, Codable, Equatable {
    /// How a running session takes a trigger: the capture time it is at (ns on the
    /// pipelines' clock, CLOCK_MONOTONIC; nil: the newest encoded frame), the post-roll for
    /// it (nil: `--post-roll`), and whether it is a Live Photo.
    typealias Request = @Sendable (UInt64?, TimeSpec?, Bool) -> Result<ClipRecorder.TriggerOutcome, CamrecError>

    /// Where the clip goes once complete.
    public var path: String
    /// The clip's number in the run (1 for the first).
    public var clip: Int
    /// True when the trigger extended the clip being written instead of starting one.
    public var extended: Bool
    /// Several cameras: the device of the camera whose clip it is; nil with one camera.
    public var device: String?
    /// Several cameras: what the trigger did on each camera, in `--device` order (the
    /// fields above are the first camera's); nil with one camera.
    public var cameras: [ClipTrigger]?

    /// What a trigger did to clip `clip`, going to `path`.
    public init(path: String, clip: Int, extended: Bool, device: String? = nil) {
        self.path = path
        self.clip = clip
        self.extended = extended
        self.device = device
    }
}

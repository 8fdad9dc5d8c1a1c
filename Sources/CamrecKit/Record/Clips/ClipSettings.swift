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
    /// `--live-photo`: every clip also has the still of its trigger's frame.
    public var livePhoto = false

    /// The default post-roll: 10 s.
    public static let defaultPostRoll = TimeSpec.seconds(10)
    /// The default longest clip: 5 minutes.
    public static let defaultMaxClip = TimeSpec.minutes(5)

    public init(preRoll: TimeSpec = .zero, postRoll: TimeSpec = defaultPostRoll, maxClip: TimeSpec = defaultMaxClip) {
        self.preRoll = preRoll
        self.postRoll = postRoll
        self.maxClip = maxClip
    }

    /// `NAME-clip-0001.EXT` beside the movie `moviePath`: the clip with number `counter`.
    public static func path(forClip counter: Int, moviePath: String) -> String {
        let (stem, ext) = OutputFile.split(moviePath)
        let digits = String(counter)
        return stem + "-clip-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ext
    }
}

/// What a clip trigger did (the reply of `camrec ctl SOCKET clip`).
public struct ClipTrigger: Sendable, Codable, Equatable {
    /// How a running session takes a trigger: the post-roll for it (nil: `--post-roll`),
    /// and whether it is a Live Photo.
    typealias Request = @Sendable (TimeSpec?, Bool) -> Result<ClipRecorder.TriggerOutcome, CamrecError>

    /// Where the clip goes once complete.
    public var path: String
    /// The clip's number in the run (1 for the first).
    public var clip: Int
    /// True when the trigger extended the clip being written instead of starting one.
    public var extended: Bool
}

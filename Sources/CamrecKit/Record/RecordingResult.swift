/// Why a recording stopped.
public enum StopReason: String, Sendable, Codable, Equatable {
    /// `--max-duration` was reached.
    case maxDuration = "max-duration"
    /// SIGINT, SIGTERM or SIGHUP (finalised cleanly).
    case signal
    /// A stop command (control socket, `q` on the terminal).
    case control
    /// The camera went away; the movie so far was finalised.
    case cameraLost = "camera-lost"
    /// The disk filled up; the movie so far was kept.
    case diskFull = "disk-full"
    /// A third signal stopped at once, without finalising (the file still plays).
    case aborted
    /// Something failed.
    case error
    /// Everything asked for was done (`camrec still`).
    case completed
    /// The movie played as the camera (`--device file:PATH`) ended (without `--loop`);
    /// the recording was finalised as at `--max-duration`.
    case sourceEnded = "source-ended"
}

/// A file camrec made.
public struct ResultFile: Sendable, Codable, Equatable {
    /// Where it is.
    public var path: String
    /// "movie" or "still".
    public var kind: String
    /// Seconds of video (movies).
    public var duration: Double?
    /// Number of video frames (movies).
    public var frames: Int?
    /// Size in bytes.
    public var bytes: Int64
    /// Stills: the frame's time in the movie, in seconds from its first frame.
    public var pts: Double?
    /// Stills: the frame's index in the movie (0 is the first frame).
    public var frame: Int?
    /// Stills: milliseconds from the trigger to the file being written.
    public var latencyMs: Double?
    /// Stills: what asked for it.
    public var trigger: StillTrigger?
    /// Stills: when the camera captured the frame, on the wall clock, ISO 8601 with the
    /// milliseconds and the zone (`2026-12-01T11:04:30.250+01:00`): the EXIF
    /// DateTimeOriginal, SubSecTimeOriginal and OffsetTimeOriginal the still carries.
    public var captureTime: String?
    /// Stills in a run of several movies (`--segment`): the movie whose frame it is
    /// (`frame` and `pts` count in that movie).
    public var movie: String?
    /// Segments: the movie's number in the run (1 for the first).
    public var index: Int?
    /// Segments: the wall-clock time the movie started, ISO 8601 with the zone.
    public var start: String?
    /// Clips: each trigger's time in the clip, in seconds from its first frame.
    public var triggers: [Double]?
    /// Clips: true when the pre-roll was shorter than asked (the run had just started):
    /// the clip starts later than trigger − pre-roll.
    public var preRollShort: Bool?
    /// Clips: the frames re-encoded to start the clip exactly where it was asked (between
    /// the keyframe before the start and the start; 0 when the start was a keyframe or the
    /// frames before it are hidden by an edit list).
    public var reencodedFrames: Int?
    /// Clips: the first and the last frame's times in the run (seconds of recorded video
    /// before them; the first is `pts`).
    public var firstFrameTime: Double?
    public var lastFrameTime: Double?
    /// Clips that are Live Photos: the still of the (first) trigger's frame.
    public var still: String?
    /// Stills of a composed movie (`--layout`): the canvas and each camera's rectangle
    /// on it; nil otherwise.
    public var layout: LayoutReport?
    /// Clips: the index in the clip of the (first) trigger's frame (a Live Photo's still
    /// shows that frame).
    public var triggerFrame: Int?
    /// Several cameras in one run: the device of the camera whose file it is; nil for one camera.
    public var device: String?
    /// A camera's still in a composed run (`--layout`): that camera's rectangle on the
    /// canvas (the still itself is the camera's whole frame, at its own size).
    public var rect: PixelRect?
    /// Several cameras' movies stored as the cameras send them (`--codec copy`): how long
    /// after the run's common start (seconds) the movie's first frame was captured: each
    /// movie starts at its camera's first keyframe at or after the common start (or, for a
    /// later segment, after its boundary). Nil where every movie starts together (within
    /// one frame interval).
    public var startOffset: Double?
    /// Set when the finished file could not be given its final name (the name was taken
    /// meanwhile, the file system refused): the name it should have had. The file is then
    /// kept at `path`, its temporary name, and the run exits 73.
    public var unpublished: String?
    /// Stills taken with `camrec still --text`: the text recognised in it, and the sidecar
    /// (NAME.txt) holding it.
    public var text: String?
    public var textFile: String?

    public init(path: String, kind: String, duration: Double?, frames: Int?, bytes: Int64) {
        self.path = path
        self.kind = kind
        self.duration = duration
        self.frames = frames
        self.bytes = bytes
    }
}

/// The outcome of a recording: every file made, why it stopped, what was lost.
public struct RecordingResult: Sendable, Codable, Equatable {
    /// Why it stopped.
    public var reason: StopReason
    /// Every file made.
    public var files: [ResultFile]
    /// Frames missing from the movie: lost by the camera or the pipeline, or held back
    /// because they were empty or corrupt.
    public var droppedFrames: UInt64
    /// Of those, the frames held back because they were corrupt (an MJPEG frame cut short).
    public var corruptFrames: UInt64
    /// Of those, the frames camrec left out evenly because the encoder could not keep up
    /// (`LoadShedder`); nil when none was.
    public var shedFrames: UInt64?
    /// A message for people when the stop was not the normal one (lost camera, abort).
    public var message: String?
    /// Passthrough: the longest time between two of the camera's keyframes in the
    /// movies, in seconds (what a crash can lose, and where segments can start); nil when
    /// camrec encodes (its `--keyframe-interval` holds) or before a second keyframe.
    public var keyframeInterval: Double?
    /// With sound: milliseconds of sound the source lost (recorded as silence of the same
    /// length, so the sound never shifts); nil without sound.
    public var droppedAudioMs: Int?
    /// With sound: how fast the sound card's clock ran against the system clock, in parts
    /// per million (positive: fast), as camrec corrected it to keep the sound with the
    /// picture; nil without sound.
    public var audioClockPPM: Int?
    /// `--layout`: the composed movie's canvas and each camera's rectangle on it; nil without.
    public var layout: LayoutReport?
    /// Movies lost during the run (their temporary file removed, with its folder, or
    /// replaced by another file before they were finished), by the names they would have
    /// had; nil when none was. A run that lost one exits 73, whatever stopped it.
    public var lostMovies: [String]?
    /// `--timelapse`: the interval, the speed-up and the camera frames kept (in every
    /// movie, also those retention deleted since); nil without.
    public var timelapse: TimeLapseReport?

    public init(reason: StopReason, files: [ResultFile], droppedFrames: UInt64, corruptFrames: UInt64 = 0,
                message: String? = nil) {
        self.reason = reason
        self.files = files
        self.droppedFrames = droppedFrames
        self.corruptFrames = corruptFrames
        self.message = message
    }

    /// The exit status a script sees for this result.
    public var exitStatus: ExitStatus {
        switch reason {
        case .maxDuration, .signal, .control, .completed:
            // A movie left under its temporary name, or lost, is not what was asked for.
            files.contains { $0.unpublished != nil } || !(lostMovies ?? []).isEmpty ? .cannotCreateOutput : .success
        case .cameraLost: .cameraLost
        case .diskFull: .diskFull
        case .aborted: .aborted
        case .error: .failure
        // A movie that failed mid-way is bad input; one that ended is a finished recording.
        case .sourceEnded where message != nil: .invalidInput
        case .sourceEnded:
            files.contains { $0.unpublished != nil } || !(lostMovies ?? []).isEmpty ? .cannotCreateOutput : .success
        }
    }
}

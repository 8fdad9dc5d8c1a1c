/// What a running recording tells its caller, in order.
public enum RecordingEvent: Sendable {
    /// The pipeline is running.
    case started(RecordingStart)
    /// Periodic progress (about twice a second).
    case progress(RecordingProgress)
    /// A still was written.
    case still(ResultFile)
    /// Something went wrong that the recording survives.
    case warning(String)
    /// A stop was requested; the file is being finalised.
    case stopping(StopReason)
    /// With `--segment`: a movie of the run is complete (finalised and in place).
    case segment(ResultFile)
    /// Retention deleted an earlier movie.
    case deleted(DeletedFile)
    /// With `--reconnect`: the camera was lost; camrec waits for it. `camera`: which one,
    /// in a run of several cameras (nil for one).
    case cameraLost(String, camera: RunCamera? = nil)
    /// With `--reconnect`: the camera is back after `gap` seconds, at `device`. `camera`:
    /// which one, in a run of several cameras (nil for one).
    case cameraBack(device: String, gap: Double, camera: RunCamera? = nil)
    /// With `--settle`: the picture settled (or the limit came first); the movie starts now.
    case settled(SettleOutcome)
    /// A trigger started an event clip (its `clip` event follows once it is in place).
    case clipStarted(ClipStartLine)
    /// An event clip is complete (in place; `kind` "clip").
    case clip(ResultFile)
    /// `--min-free`: free space stays below it with nothing left to delete.
    case diskLow(DiskLowLine)
    /// `--on-motion`: the picture changed.
    case motion(MotionLine)
    /// `--on-sound`: the sound stayed above its level.
    case sound(SoundLine)
    /// `--text-every`, `camrec ctl SOCKET text`, `--text` stills: the text of a frame or a still.
    case text(TextResult)
    /// `--schedule`: camrec waits for a window with the camera closed, or starts recording one.
    case schedule(ScheduleLine)
}

/// One camera of a run of several, as the lines about it name it.
public struct RunCamera: Sendable, Equatable {
    /// Its number in the run: 1 for the first `--device`.
    public var index: Int
    /// Its device path, as the run's files name it (`device`).
    public var device: String

    public init(index: Int, device: String) {
        self.index = index
        self.device = device
    }
}

/// A motion detection, as the JSON `motion` line reports it.
public struct MotionLine: Sendable, Codable, Equatable {
    /// The frame's time in the run (seconds of recorded video before it).
    public var time: Double
    /// The share of the picture that changed (0…1).
    public var area: Double
    /// The clip it started or extended; nil when no clip could be made.
    public var clip: Int?
    /// Several cameras: the device of the camera that saw it (every camera makes a clip);
    /// nil with one camera.
    public var device: String?
}

/// What a recording runs with, reported once at the start.
public struct RecordingStart: Sendable, Codable, Equatable {
    /// The final path.
    public var path: String
    /// Where the file is written until it is finalised.
    public var partialPath: String
    /// "test" or the device path.
    public var device: String
    /// The camera format (fourcc), or "test".
    public var format: String
    /// Frame size, e.g. "1280x720".
    public var size: String
    /// Frame rate, e.g. "30".
    public var fps: String
    /// Why that format was chosen.
    public var formatReason: String?
    /// The limit in seconds, nil for none.
    public var maxDuration: Double?
    /// `--schedule`: the end of the window this movie records (ISO 8601 with the zone),
    /// where it ends; nil without a schedule.
    public var windowEnd: String?
    /// The pipeline as a gst-launch-1.0 line.
    public var pipeline: String
    /// The camera controls set for the run (`--set`, `--flash`); nil when none.
    public var controls: [AppliedControl]?
    /// The movie's video codec: "h264", "h265" or "mjpeg".
    public var codec: String = "h264"
    /// The encoder element, or "copy" when the camera's stream is stored as it comes.
    public var encoder: String = "x264enc"
    /// Whether the encoder is a hardware encoder.
    public var hardware: Bool = false
    /// Why that codec and encoder, for people.
    public var encodingReason: String = ""
    /// The bitrate aimed at, in kbit/s; nil when the bytes follow the picture (Motion
    /// JPEG, passthrough).
    public var bitrate: Int?
    /// `--quality auto`: the encoder's effort chosen by timing it here ("ultrafast, one
    /// thread"); nil otherwise.
    public var effort: String?
    /// Seconds between keyframes asked of the encoder; nil for passthrough (the camera's).
    public var keyframeInterval: Double?
    /// `--standby`: no movie is written, only event clips.
    public var standby: Bool?
    /// The sound recorded with the movie; nil for a silent movie.
    public var audio: StartedAudio?
    /// Several cameras (`--device` more than once): each camera and its movie, in order
    /// (the line's own fields describe the first); nil for one camera.
    public var cameras: [StartedCamera]?
    /// With `--serve`: where the live stream is (`rtsp://127.0.0.1:8554/live`).
    public var serveURL: String?
    /// `--layout`: the canvas and each camera's rectangle on it; nil without.
    public var layout: LayoutReport?
    /// `--timelapse`: the interval and the speed-up (`maxDuration` is then capture time);
    /// nil without.
    public var timelapse: TimeLapseReport?
}

/// The sound of a recording, as the `started` line reports it.
public struct StartedAudio: Sendable, Equatable, Codable {
    /// The source: a sound-server source name, an ALSA device, "default" or "test".
    public var device: String
    /// "aac" or "opus".
    public var codec: String
    /// The encoder element.
    public var encoder: String
    /// Channels recorded.
    public var channels: Int
    /// Sample rate encoded, in Hz.
    public var rate: Int
    /// kbit/s.
    public var bitrate: Int
    /// What was picked and why, for people.
    public var reason: String
    /// The camera this microphone belongs to, when it is one.
    public var camera: String?

    public init(_ settings: AudioSettings) {
        device = settings.input.deviceName
        codec = settings.codec.rawValue
        encoder = settings.codec.encoder
        channels = settings.channels
        rate = settings.rate
        bitrate = settings.bitrate
        reason = settings.input.reason
        camera = settings.input.camera
    }
}

/// A progress report.
public struct RecordingProgress: Sendable, Equatable {
    /// Seconds of video recorded.
    public var seconds: Double
    /// Frames recorded.
    public var frames: Int
    /// Bytes written so far.
    public var bytes: Int64
    /// The limit in seconds, nil for none.
    public var limit: Double?
    /// Frames per second over the last report interval.
    public var fps: Double
}

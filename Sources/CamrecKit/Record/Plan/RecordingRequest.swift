/// What the record command asks for, as typed values, before any camera is looked at:
/// the input of `RecordingPlanner`. Everything here comes from the command line.
public struct RecordingRequest: Sendable, Equatable {
    /// OUTPUT as given: a movie, a segment pattern, or with `--output-per-device` a pattern
    /// with `{index}` and `{device}`.
    public var output: String
    /// Every `--device` given, in order; empty: the first camera.
    public var devices: [String]
    /// `--output-per-device`.
    public var outputPerDevice = false
    /// `--all-or-nothing`.
    public var allOrNothing = false
    /// `--layout`; nil: one movie per camera.
    public var layout: CanvasLayout?
    /// `--canvas` (or its default).
    public var canvas: FrameSize = CanvasLayout.defaultCanvas
    /// `--force`.
    public var force = false
    /// The stills of one camera: their format, `--still-every`, and their names beside
    /// OUTPUT or from `--stills`; several cameras make their own names from `stillsPattern`.
    public var stills: StillSettings
    /// `--stills PATTERN` as given.
    public var stillsPattern: String?
    /// `--location`: where the stills were taken (their EXIF GPS tags); nil: not given.
    public var location: GeoLocation?
    /// The event clips' settings (nil: no clip option); their names are the planner's.
    public var clips: ClipSettings?
    /// `--clips PATTERN` as given.
    public var clipsPattern: String?
    /// `--utc`.
    public var utc = false
    /// `--standby`: clips only, no movie.
    public var standby = false
    /// `--segment` or `--reconnect`: the series of OUTPUT (nil: one movie).
    public var segments: SegmentSettings?
    /// Whether `--segment` itself was given (`--reconnect` alone implies a series).
    public var segmentGiven = false
    /// `--schedule`: a movie (or series) per window, so a canvas's movies are a series too.
    public var scheduled = false
    /// `--keep`, `--keep-size`, `--min-free`.
    public var retention: RetentionPolicy?
    /// `--settle`.
    public var settle: TimeSpec = .zero
    /// `--codec copy`.
    public var codecCopy = false
    /// `--mask` or `--mask-image` (refused with `--codec copy`).
    public var masked = false
    /// `--preview` (not off).
    public var preview = false
    /// `--serve`.
    public var serve = false
    /// `--pipeline FILE`.
    public var customPipeline = false

    public init(output: String, devices: [String], stills: StillSettings) {
        self.output = output
        self.devices = devices
        self.stills = stills
    }

    /// Whether more than one camera, or an option of several cameras, is asked for.
    public var isSeveralCameras: Bool {
        devices.count > 1 || outputPerDevice || allOrNothing || layout != nil
    }
}

/// What every movie of a run records with, beyond its plan (the files) and its cameras
/// (what each delivers): the choices of the command line, typed once.
public struct RunSettings: Sendable {
    /// `--max-duration`; nil: until stopped.
    public var maxDuration: TimeSpec?
    /// The container, from OUTPUT's extension.
    public var container: MediaContainer
    /// `--force`.
    public var overwrite = false
    /// `--codec`, `--encoder`, `--quality`, `--bitrate`, `--keyframe-interval`.
    public var encoding: EncodingRequest
    /// Rotation, mirroring and overlays, resolved.
    public var picture: PictureSettings = .unchanged
    /// `--settle`.
    public var settle: TimeSpec = .zero
    /// `--camera-buffers`: the buffers each camera fills; nil: `CameraQueueDepth`'s choice.
    public var cameraBuffers: Int?
    /// `--loop`: a movie played as a camera starts again at its end.
    public var loop = false
    /// `camrec react`: a movie played as a camera plays its sound on the default output too.
    public var playsAloud = false
    /// `--timelapse`; nil: every frame.
    public var timelapse: TimeLapse?
    /// `--reconnect`; nil: a lost camera ends its movie.
    public var reconnect: ReconnectSettings?
    /// `--recover-partials`.
    public var recoverPartials = false
    /// `--on-motion`; nil: motion triggers nothing.
    public var motion: MotionSettings?
    /// `--on-sound`; nil: sound triggers nothing.
    public var soundTrigger: SoundTriggerSettings?
    /// `--motion-mask PNG`, loaded at the size motion is looked for at.
    public var motionMask: String?
    /// `--text`, `--text-every`; nil: no text is read.
    public var text: RecordingTextSettings?
    /// `--preview`, asked for; ``RunSetup/showPreviews(_:)`` keeps it only where a window opened.
    public var preview: PreviewSettings?
    /// `--serve`.
    public var serve: ServeSettings?
    /// The recording pipeline's template (`--pipeline FILE`); a canvas uses `compose`.
    public var template: PipelineTemplate = .record

    /// Settings for movies in `container`, encoded as `encoding` asks.
    public init(maxDuration: TimeSpec?, container: MediaContainer, encoding: EncodingRequest) {
        self.maxDuration = maxDuration
        self.container = container
        self.encoding = encoding
    }

    /// What asks for decoded frames, one phrase each: storing a camera's stream as it
    /// comes is impossible with any of them. `composes`: the cameras go onto a canvas.
    public func needsDecoding(composes: Bool) -> [String] {
        var reasons: [String] = []
        if composes { reasons.append("--layout composes the cameras' pictures") }
        if picture.changesPicture { reasons.append("--rotate, --flip, --mirror or an overlay changes the picture") }
        if !picture.mask.isEmpty { reasons.append("--mask and --mask-image black out parts of the picture") }
        if settle.nanoseconds > 0 { reasons.append("--settle measures the picture") }
        if text != nil { reasons.append("--text and --text-every read the picture at the encoder's input") }
        if let timelapse { reasons.append("--timelapse \(timelapse.interval.description) keeps one frame in many and retimes it") }
        return reasons
    }
}

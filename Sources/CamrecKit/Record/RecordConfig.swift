/// Everything a recording needs, already validated: the CLI builds it, `Recorder` runs it.
public struct RecordConfig: Sendable {
    /// The default frame size for the test pattern.
    public static let defaultTestSize = FrameSize(width: 1280, height: 720)
    /// The default frame rate for the test pattern.
    public static let defaultTestRate = FrameRateValue(numerator: 30, denominator: 1)

    /// Where frames come from.
    public var source: VideoSource
    /// Frame size the movie is recorded at.
    public var size: FrameSize
    /// Frame rate the movie is recorded at.
    public var rate: FrameRateValue
    /// Stop by itself after this much video; nil records until stopped.
    public var maxDuration: TimeSpec?
    /// The final output path.
    public var outputPath: String
    /// The container, from the output's extension.
    public var container: MediaContainer
    /// Replace an existing output.
    public var overwrite: Bool
    /// Encoder settings.
    public var encoder: EncoderSettings
    /// Stills taken while recording.
    public var stills: StillSettings
    /// Several movies instead of one (`--segment`); nil for one movie at `outputPath`.
    public var segments: SegmentSettings?
    /// Wait for a lost camera to come back (`--reconnect`); nil ends the run.
    public var reconnect: ReconnectSettings?
    /// `--settle`: the longest wait for a stable picture before the first recorded frame.
    public var settle: TimeSpec = .zero
    /// `--camera-buffers`: the buffers each camera fills; nil: `CameraQueueDepth`'s choice.
    public var cameraBuffers: Int?
    /// `--timelapse`: one frame kept every interval of capture time, played back at `rate`;
    /// nil records every frame. `maxDuration` and the segments' length are capture time then.
    public var timelapse: TimeLapse?
    /// The camera controls set for the run (`--set`, `--flash`), for the `started` line.
    public var controls: [AppliedControl] = []
    /// Called with a camera's index among the run's cameras (0-based: 0 for one camera; a
    /// canvas's camera in its cell) and its path when it is back after `--reconnect`: a
    /// camera plugged in again has its power-on controls, so camrec's are set again.
    /// Returns warnings.
    public var cameraBack: (@Sendable (_ camera: Int, _ path: String) -> [String])?
    /// Rotation, mirroring and overlays, for the movie and its stills.
    public var picture: PictureSettings = .unchanged
    /// The movie's sound (`--audio`); nil for a silent movie.
    public var audio: AudioSettings?
    /// Event clips (`--pre-roll`, `--post-roll`, `--max-clip`); nil: triggers make no clips.
    public var clips: ClipSettings?
    /// `--standby`: no continuous movie, only event clips (the encoder's output goes to a
    /// fakesink besides the clips).
    public var standby = false
    /// `--recover-partials`: at start, the unfinished movies an earlier run of the same
    /// series left beside OUTPUT are recovered (``StalePartials/recoverSeries(_:output:naming:report:)``).
    public var recoverPartials = false
    /// `--text`, `--text-every`: text read from the frames and the stills; nil: none.
    public var text: RecordingTextSettings?
    /// `--on-motion`: motion in the picture triggers clips; nil: it does not.
    public var motion: MotionSettings?
    /// `--on-sound`: loud sound triggers clips; nil: it does not.
    public var soundTrigger: SoundTriggerSettings?
    /// Several cameras with `--on-motion` or `--on-sound`: where this camera's motion
    /// detections (and the run's loud sounds) go (the capture time, ns on the pipelines'
    /// clock, and the post-roll for this trigger, nil: the clips' own): the run triggers a
    /// clip on every camera and returns this camera's clip number. Nil: the camera's own clips.
    public var runTrigger: (@Sendable (UInt64, TimeSpec?) -> Int?)?
    /// Several cameras in one run: this camera's place at the barrier that starts all
    /// their movies at one instant (`MultiCameraRecorder`); nil for a run of one camera.
    public var startBarrier: StartBarrier.Member?
    /// Several cameras with `--segment`, after a reconnect: where the camera's segment grid
    /// began (the clock time of its first recorded frame), so that the new pipeline cuts
    /// where the other cameras do; nil: the grid starts at the pipeline's first frame.
    public var segmentGrid: UInt64?
    /// `--preview`: a branch for the preview window (`PreviewWindow`); nil: none.
    public var preview: PreviewSettings?
    /// `--serve`: a branch of the encoded stream for the RTSP server (`LiveStreamServer`); nil: none.
    public var serve: ServeSettings?
    /// `--layout`: several cameras composed onto one canvas (`size`), one movie, with
    /// `pipelines/compose.pipeline`; nil: `source` is the one camera, named "src".
    public var composition: Composition?

    /// `--schedule`: the window of the wall clock this movie records (its frames captured
    /// before the start are held back, and it ends at the end); nil: no schedule.
    public var window: RecordingWindow?

    /// The rate at which the gate's frames step: a time-lapse's one per interval, else `rate`.
    /// `--max-duration` counts frames at it.
    var gateRate: FrameRateValue { timelapse?.captureRate ?? rate }

    public init(
        source: VideoSource, size: FrameSize, rate: FrameRateValue, maxDuration: TimeSpec?,
        outputPath: String, container: MediaContainer, overwrite: Bool, encoder: EncoderSettings,
        stills: StillSettings? = nil
    ) {
        self.source = source
        self.size = size
        self.rate = rate
        self.maxDuration = maxDuration
        self.outputPath = outputPath
        self.container = container
        self.overwrite = overwrite
        self.encoder = encoder
        let format = StillFormat.jpeg(quality: StillFormat.defaultQuality)
        self.stills = stills ?? StillSettings(
            format: format, naming: .beside(moviePath: outputPath, format: format), every: nil)
    }
}

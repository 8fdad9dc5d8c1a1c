import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One `camrec preview`: the camera in a window, nothing recorded. The window opens before
/// the camera is looked for (without a display nothing is touched); the camera is chosen
/// and set up as a recording's is, so the window shows what camrec would record.
public struct PreviewJob {
    /// The camera, size and rate.
    public var camera: CameraRequest
    /// `--set`, `--flash`, `--keep-controls`.
    public var controls: ControlRequest
    /// Rotation, mirroring and overlays, the overlay image unread.
    public var picture: PictureRequest
    /// Where the key s and SIGUSR1 put stills.
    public var stills: StillSettings

    /// A preview of `camera` with `controls` and `picture`, its stills named by `stills`.
    public init(camera: CameraRequest, controls: ControlRequest, picture: PictureRequest, stills: StillSettings) {
        self.camera = camera
        self.controls = controls
        self.picture = picture
        self.stills = stills
    }

    /// Shows the camera until the window is closed, q, or a stop signal; the exit status is
    /// the result's.
    public func run(console: Console) throws(CamrecError) -> ExitStatus {
        let picture = try self.picture.resolve()
        try stills.naming.checkDestination()
        // The window's pipeline starts threads: they must block the signals that the watcher
        // below takes, or a stop signal delivered to one of them would kill camrec.
        SignalWatcher.block(SignalWatcher.recordingSignals)
        // The window opens before the camera: without a display, nothing is touched.
        let window: PreviewWindow
        do {
            window = try PreviewWindow.open(environment: ProcessInfo.processInfo.environment)
        } catch {
            throw CamrecError(.usage, "camrec preview needs \(error.needs): run it in a desktop session (or ssh -X)")
        }
        defer { window.close() }
        let resolution = try camera.resolve()
        try picture.mask.check(frame: picture.orientation.outputSize(resolution.size))
        let controls = try PreparedControls.prepare(self.controls, source: resolution.source)
        var config = PreviewConfig(source: resolution.source, size: resolution.size, rate: resolution.rate, stills: stills)
        config.picture = picture
        config.stills.tags = resolution.stillTags()
        let printer = RecordingPrinter(console: console)
        for warning in resolution.warnings { printer.show(.warning(warning)) }
        let applied = try controls?.apply()
        for warning in applied?.warnings ?? [] { printer.show(.warning(warning)) }
        defer { for warning in controls?.finish() ?? [] { printer.show(.warning(warning)) } }
        let preview = LivePreview(config: config, window: window)
        SignalWatcher.startBatched(SignalWatcher.recordingSignals) { signals in
            for received in signals where received == SIGUSR1 { preview.requestStill(.signal) }
            if signals.contains(where: { $0 != SIGUSR1 && $0 != SIGUSR2 }) { preview.requestStop(.signal) }
        }
        let keys = KeyboardControl(onStill: { preview.requestStill(.key) }, onStop: { preview.requestStop(.control) })
        defer { keys.restore() }
        // The same keys in the window.
        window.onKey { key in
            switch key.lowercased() {
            case "s": preview.requestStill(.key)
            case "q", "escape": preview.requestStop(.control)
            default: break
            }
        }
        let from = resolution.source.deviceName == "test" ? "the test pattern" : resolution.source.deviceName
        console.say("camrec: preview of \(from) at \(resolution.size) \(resolution.rate) fps in a window (\(window.sink)); "
            + "nothing is recorded: s takes a still; q, Ctrl-C or closing the window ends it")
        let result = try preview.run { event in printer.showWithoutMovie(event) }
        printer.show(result)
        return result.exitStatus
    }
}

extension PreviewJob {
    /// Where a preview's stills go, from `--stills`, `--still-format` and `--still-quality`
    /// as given (nil: not given): by default preview-still-0001.jpg, … in the current folder.
    /// Every refusal is a usage error.
    public static func stills(pattern: String?, format: String?, quality: String?) throws(CamrecError) -> StillSettings {
        try StillSettings.parse(pattern: pattern, format: format, quality: quality, every: nil, moviePath: "preview.mp4")
    }
}

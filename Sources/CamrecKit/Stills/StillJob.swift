#if canImport(Glibc)
import Glibc
#endif

/// One `camrec still`: a photo, or a series, without a movie. The destination is checked
/// before the camera is looked for; the first photo waits for the exposure to settle.
public struct StillJob {
    /// The camera, size and rate.
    public var camera: CameraRequest
    /// How many photos (`--count`).
    public var count = 1
    /// Time between photos of a series (`--interval`).
    public var interval: TimeSpec = .seconds(1)
    /// The longest wait for the brightness to settle before the first photo (`--settle`).
    public var settle: TimeSpec = .seconds(3)
    /// OUTPUT: the photo, or a series' pattern (with `%`) or its first name.
    public var output: String
    /// JPEG (with its quality) or PNG.
    public var format: StillFormat
    /// `--force`: replace OUTPUT (a single photo).
    public var force = false
    /// `--set`, `--flash`, `--keep-controls`.
    public var controls = ControlRequest()
    /// Rotation, mirroring and overlays, the overlay image unread.
    public var picture: PictureRequest
    /// `--location`: where the photos are taken (their EXIF GPS tags); nil: not given.
    public var location: GeoLocation?
    /// `--text`: the languages to recognise each photo's text in (nil: no recognition).
    public var textLanguages: [String]?

    /// Photos from `camera` into `output` as `format`, with `picture`.
    public init(camera: CameraRequest, output: String, format: StillFormat, picture: PictureRequest) {
        self.camera = camera
        self.output = output
        self.format = format
        self.picture = picture
    }

    /// Takes the photos, showing each on `console`; the exit status is the result's.
    public func run(console: Console) throws(CamrecError) -> ExitStatus {
        // libtesseract and its models first: a missing one stops before the camera is opened.
        let text = try textLanguages.map { (languages) throws(CamrecError) in try StillText(languages: languages, replace: force) }
        let (config, warnings) = try makeConfig()
        let controls = try PreparedControls.prepare(self.controls, source: config.source)
        SignalWatcher.block(SignalWatcher.recordingSignals)
        let camera = StillCamera(config: config)
        SignalWatcher.start(SignalWatcher.recordingSignals) { signal in
            if signal != SIGUSR1, signal != SIGUSR2 { camera.requestStop() }
        }
        let printer = RecordingPrinter(console: console)
        for warning in warnings + (try controls?.apply().warnings ?? []) { printer.show(.warning(warning)) }
        defer { for warning in controls?.finish() ?? [] { printer.show(.warning(warning)) } }
        var result = try camera.run { event in printer.showWithoutMovie(event) }
        if let text { result = text.annotate(result, console: console) { printer.show(.warning($0)) } }
        printer.show(result)
        return result.exitStatus
    }

    /// The photos to take, and warnings about the camera chosen.
    /// Checks the destination and finds the camera (errors other than usage ones).
    private func makeConfig() throws(CamrecError) -> (StillConfig, warnings: [String]) {
        let picture = try self.picture.resolve()
        let target: StillOutput
        if count == 1 && !output.contains("%") {
            try StillNaming.checkFolder(of: output)
            try OutputFile.checkDestination(output, overwrite: force)
            target = .file(path: output, overwrite: force)
        } else {
            let (stem, ext) = OutputFile.split(output)
            let pattern = output.contains("%") ? output : stem + "-%04d" + ext
            let naming = try StillNaming.parse(pattern, moviePath: output, format: format)
            try naming.checkDestination()
            target = .series(naming)
        }
        let resolution = try camera.resolve()
        try picture.mask.check(frame: picture.orientation.outputSize(resolution.size))
        var config = StillConfig(source: resolution.source, size: resolution.size, rate: resolution.rate, format: format,
                                 output: target, count: count, interval: interval, settle: settle)
        config.picture = picture
        config.tags = resolution.stillTags(location: location)
        return (config, resolution.warnings)
    }
}

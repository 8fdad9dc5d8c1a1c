/// A run ready to start: every pipeline's configuration, made from its plan, its cameras
/// and its settings in one place for every topology (one camera, several in movies of
/// their own, a canvas), so that a feature added here works with all of them.
public struct RunSetup: Sendable {
    /// How the cameras become movies (the plan's).
    public let topology: RecordingPlan.Topology
    /// Each camera's configuration, in `--device` order. Without a canvas each records its
    /// own movie; with one, each holds what is the camera's own (its source, format,
    /// stills and controls) and the canvas records.
    public private(set) var cameras: [RecordConfig]
    /// The canvas's movie (`--layout`); nil without.
    public private(set) var canvas: RecordConfig?
    /// The template the pipelines are built from.
    public let template: PipelineTemplate
    /// What the user should know before the run starts, one line each.
    public let warnings: [String]

    /// The configurations that become pipelines: the canvas's, or each camera's.
    public var recorded: [RecordConfig] { canvas.map { [$0] } ?? cameras }

    /// Finds the sound source, given the first camera's device path (nil: the test
    /// pattern), for `--audio camera`; nil: a silent run.
    public typealias SoundLookup = (_ cameraPath: String?) throws(CamrecError) -> AudioSettings?

    /// The run `plan` makes with `cameras` (resolved, in `--device` order; `devices` as
    /// given, for messages) and `settings`. Sound goes with the first camera's movie (or
    /// the canvas). Refuses (exit 64) the same camera twice, cameras at different rates,
    /// and with several cameras and `--codec auto` a camera whose H.264 would be stored as
    /// it comes (`--codec copy` asks for it: each movie then starts at its camera's first
    /// keyframe at or after the common start).
    public static func make(plan: RecordingPlan, cameras: [CameraResolver.Resolution], devices: [String],
                            settings: RunSettings, sound: SoundLookup) throws(CamrecError) -> RunSetup {
        try checkCameras(cameras, devices: devices)
        var canvasLayout: (layout: CanvasLayout, size: FrameSize, allOrNothing: Bool)?
        if case .canvas(let layout, let size, let allOrNothing) = plan.topology { canvasLayout = (layout, size, allOrNothing) }
        let several = cameras.count > 1
        let needsDecoding = settings.needsDecoding(composes: canvasLayout != nil)
        var configs: [RecordConfig] = []
        var warnings = plan.warnings
        for (index, camera) in cameras.enumerated() {
            let name = several ? "camera \(index + 1) (\(devices[index])): " : ""
            let encoding = try EncoderPicking.plan(settings.encoding, for: camera, maxDuration: settings.maxDuration,
                                                   container: settings.container, needsDecoding: needsDecoding)
            // A camera's own H.264 can only start at its next keyframe, out of step with the
            // others: done when asked for (--codec copy), not chosen for the user (auto).
            if several, settings.encoding.codec != .copy, encoding.settings.isPassthrough, encoding.settings.codec == .h264 {
                throw CamrecError(.usage, name.dropLast(2) + " delivers H.264, which --codec auto would store as it comes, starting at its next keyframe: give --codec h264 to start all cameras together, or --codec copy to store each as it comes")
            }
            // With a canvas, a camera writes only its own stills; the canvas's are the movie's.
            let outputs = canvasLayout == nil ? plan.movies[index] : nil
            var source = camera.source
            if case .movie(var movie) = source {
                movie.loop = settings.loop
                movie.playsAloud = settings.playsAloud
                source = .movie(movie)
            }
            var config = RecordConfig(
                source: source, size: camera.size, rate: camera.rate, maxDuration: settings.maxDuration,
                outputPath: outputs?.movie ?? plan.movies[0].movie, container: settings.container,
                overwrite: settings.overwrite, encoder: encoding.settings,
                stills: outputs?.stills ?? plan.cameraStills[index])
            config.stills.tags = camera.stillTags(location: config.stills.tags.location)
            config.segments = outputs?.segments
            config.reconnect = settings.reconnect
            config.recoverPartials = settings.recoverPartials
            if index == 0 {
                var path: String?
                if case .camera(let device, _) = camera.source { path = device }
                config.audio = try sound(path)
            }
            config.picture = settings.picture
            config.settle = settings.settle
            config.cameraBuffers = settings.cameraBuffers
            // --timelapse: each camera's frames are kept on its grid (a canvas's, on the canvas).
            if let timelapse = settings.timelapse {
                var cameraRate = camera.rate
                if let format = camera.source.format { cameraRate = format.rate }
                do {
                    try timelapse.check(cameraRate: cameraRate)
                } catch {
                    throw CamrecError(.usage, name + error.message)
                }
                config.timelapse = timelapse
            }
            config.serve = settings.serve
            config.preview = settings.preview
            // A canvas's text is read on the canvas.
            config.text = canvasLayout == nil ? settings.text : nil
            try addClips(to: &config, outputs?.clips, settings: settings, standby: plan.standby,
                         motionSize: settings.picture.orientation.outputSize(camera.size))
            configs.append(config)
            // A canvas encodes the canvas, not each camera.
            warnings += (camera.warnings + (canvasLayout == nil ? encoding.warnings : [])).map { name + $0 }
        }
        var canvas: RecordConfig?
        if let canvasLayout {
            let made = try canvasConfig(canvasLayout, outputs: plan.movies[0], cameras: configs, settings: settings,
                                        standby: plan.standby)
            canvas = made.config
            warnings += made.warnings
        }
        return RunSetup(topology: plan.topology, cameras: configs, canvas: canvas,
                        template: canvas == nil ? settings.template : .compose, warnings: warnings)
    }

    /// Each camera once, all at one frame rate.
    static func checkCameras(_ cameras: [CameraResolver.Resolution], devices: [String]) throws(CamrecError) {
        for (index, camera) in cameras.enumerated() {
            if let same = cameras[..<index].firstIndex(where: { $0.source.deviceName == camera.source.deviceName }) {
                throw CamrecError(.usage, "--device \(devices[index]) is camera \(same + 1) (\(devices[same])) again: give each camera once")
            }
            if index > 0, camera.rate != cameras[0].rate {
                throw CamrecError(.usage, "camera \(index + 1) (\(devices[index])) records at \(camera.rate) fps, camera 1 at \(cameras[0].rate): give --fps a rate both can do")
            }
        }
    }

    /// A movie's clip triggers, motion (looked for at `motionSize`) and standby; its clips'
    /// names are the plan's.
    static func addClips(to config: inout RecordConfig, _ clips: ClipSettings?, settings: RunSettings, standby: Bool,
                         motionSize: FrameSize) throws(CamrecError) {
        config.clips = clips
        config.motion = settings.motion
        // Only a movie that records the sound hears it (several cameras: the run's sound is one camera's).
        config.soundTrigger = config.audio == nil ? nil : settings.soundTrigger
        if let mask = settings.motionMask {
            config.motion?.mask = try MotionMask.load(mask, size: motionSize)
        }
        if standby {
            // No movie is written: OUTPUT only names the clips, so an existing file is no obstacle.
            config.standby = true
            config.overwrite = true
        }
    }

    /// The canvas's movie, from each camera's configuration (`cameras`, in order): the
    /// canvas is its frame size, encoded at it; the sound is the first camera's.
    static func canvasConfig(_ canvas: (layout: CanvasLayout, size: FrameSize, allOrNothing: Bool),
                             outputs: RecordingPlan.MovieOutputs, cameras: [RecordConfig], settings: RunSettings,
                             standby: Bool) throws(CamrecError) -> (config: RecordConfig, warnings: [String]) {
        var sources: [(path: String, format: CameraFormat)] = []
        for (index, camera) in cameras.enumerated() {
            guard let format = camera.source.format else {
                throw CamrecError(.usage, "--layout composes cameras: camera \(index + 1) is the test pattern (--device test): give a camera or a movie (--device file:PATH)")
            }
            sources.append((camera.source.deviceName, format))
        }
        let first = cameras[0]
        var composition = Composition(layout: canvas.layout, canvas: canvas.size, cameras: sources, rate: first.rate,
                                      orientation: settings.picture.orientation, mask: settings.picture.mask)
        composition.setMovies(cameras.map(\.source.movie))
        composition.allOrNothing = canvas.allOrNothing
        // Each camera's own stills are named as they would be without --layout (the plan's cameraStills).
        composition.cameraStillNaming = cameras.map(\.stills.naming)
        composition.cameraStillTags = cameras.map(\.stills.tags)
        let request = settings.encoding
        let encoding = try EncodingPlanner.plan(
            request,
            context: .init(source: first.source, rate: first.rate, container: settings.container,
                           needsDecoding: settings.needsDecoding(composes: true))
        ) { codec throws(CamrecError) in
            try EncoderPicking.pick(request, codec: codec, size: canvas.size, rate: first.rate)
        }
        var config = RecordConfig(
            source: first.source, size: canvas.size, rate: first.rate, maxDuration: settings.maxDuration,
            outputPath: outputs.movie, container: settings.container, overwrite: settings.overwrite,
            encoder: encoding.settings, stills: outputs.stills)
        // The canvas's stills show every camera: their names, in order.
        config.stills.tags.camera = cameras.compactMap(\.stills.tags.camera).joined(separator: " + ")
        config.audio = first.audio
        // Each camera is turned and masked in its own branch (so its own stills are masked
        // too); the overlays are drawn on the canvas.
        config.picture = settings.picture
        config.picture.orientation = .identity
        config.picture.mask = .none
        // --settle: the canvas starts once every camera's picture on it is stable.
        config.settle = settings.settle
        config.cameraBuffers = settings.cameraBuffers
        config.timelapse = settings.timelapse
        // Event clips are cut from the canvas's encoded stream; motion is looked for on the canvas.
        try addClips(to: &config, outputs.clips, settings: settings, standby: standby, motionSize: canvas.size)
        // --segment and retention: the canvas's own series; --reconnect brings a lost camera
        // back into its cell, in the same movie.
        config.segments = outputs.segments
        config.recoverPartials = settings.recoverPartials
        config.reconnect = settings.reconnect
        config.preview = settings.preview
        config.serve = settings.serve
        config.text = settings.text
        config.composition = composition
        config.startBarrier = composition.canvasMember
        return (config, encoding.warnings)
    }

    /// The preview windows that opened (`--preview`), one per camera's movie or one for
    /// the canvas: a movie without a window (none opened: no display) has no preview branch.
    public mutating func showPreviews(_ windows: Int) {
        if canvas != nil {
            if windows == 0 { canvas?.preview = nil }
            return
        }
        for index in cameras.indices where index >= windows { cameras[index].preview = nil }
    }

    /// Camera `index`'s controls, as set (`--set`, `--flash`): the started line lists them
    /// (a canvas's, the first camera's). `keyframePeriod`: the camera makes the keyframes of
    /// a stream stored as it comes, every that many frames, through the control named.
    public mutating func setControls(_ controls: [AppliedControl], camera index: Int, keyframePeriod: Int? = nil) {
        cameras[index].controls = controls
        if index == 0 { canvas?.controls = controls }
        if let keyframePeriod, let set = controls.first(where: { $0.keyframePeriod == keyframePeriod }) {
            cameras[index].encoder.cameraKeyframePeriod = keyframePeriod
            cameras[index].encoder.reason += "; the camera makes a keyframe every \(keyframePeriod) frames (\(set.name))"
        }
    }

    /// What is done when camera `index` is back after `--reconnect` at `path` (its power-on
    /// controls: camrec's are set again); returns warnings. A canvas's say which camera.
    public mutating func onCameraBack(_ reapply: @escaping @Sendable (_ camera: Int, _ path: String) -> [String]) {
        for index in cameras.indices {
            cameras[index].cameraBack = { _, path in reapply(index, path) }
        }
        canvas?.cameraBack = { camera, path in
            reapply(camera, path).map { "camera \(camera + 1) (\(path)): " + $0 }
        }
    }

    /// The run for one window of `--schedule`: every movie records `window` (its first
    /// frame at the start, its last before the end).
    public func windowed(_ window: RecordingWindow) -> RunSetup {
        var setup = self
        for index in setup.cameras.indices { setup.cameras[index].window = window }
        setup.canvas?.window = window
        return setup
    }

    /// The setup of the standby between a schedule's windows (`--between-windows standby`):
    /// every movie of `windowed(window)` makes no movie, only its event clips.
    public func standby(_ window: RecordingWindow) -> RunSetup {
        var setup = windowed(window)
        // A canvas is the one movie of its cameras.
        if var canvas = setup.canvas {
            Self.makeStandby(&canvas)
            setup.canvas = canvas
        } else {
            for index in setup.cameras.indices { Self.makeStandby(&setup.cameras[index]) }
        }
        return setup
    }

    private static func makeStandby(_ config: inout RecordConfig) {
        // No movie is written: OUTPUT only names the clips, and nothing is cut into segments.
        config.standby = true
        config.overwrite = true
        config.segments = nil
    }

    /// The `gst-launch-1.0` lines the run would start (`--print-pipeline`), one per pipeline.
    public func commandLines() throws(CamrecError) -> [String] {
        var lines: [String] = []
        for config in recorded {
            do {
                lines.append(try RecordPipeline(config: config, template: template).commandLine())
            } catch {
                throw CamrecError(.usage, error.message)
            }
        }
        return lines
    }
}

import FoundationEssentials
import ArgumentParsing
import CamrecKit
#if canImport(Glibc)
import Glibc
#endif

/// `camrec --device A --device B … OUTPUT`: several cameras in one run, each into its own
/// movie (NAME-1.EXT, NAME-2.EXT, …), all started at the same instant (`MultiCameraRecorder`).
enum MultiCameraRecording {
    /// The help's paragraph on several cameras.
    static let discussion = """
        Several cameras: give --device once per camera; each is recorded into its
        own movie, NAME-1.EXT, NAME-2.EXT, … in --device order (--output-per-device:
        OUTPUT is a pattern with {index} and {device}), all started at the
        same instant of one clock (the first frames of all movies captured within
        one frame interval) at the same --fps, each with its exact --max-duration.
        Sound (--audio) goes with the first movie. SIGUSR1 takes a still from every
        camera. A camera that cannot start stops the run with its own exit code,
        recording nothing. A camera lost mid-run ends its own movie and the
        others go on (--all-or-nothing: the whole run stops, exit 79).
        --segment, --keep/--keep-size/--min-free and --reconnect apply to each
        camera's own series, named as for one camera with NAME-1.EXT, NAME-2.EXT
        (or each camera's --output-per-device name) as OUTPUT: m.mp4 gives
        m-1-0001.mp4, m-1-0002.mp4, …, m-2-0001.mp4, …; all cameras are cut at
        the same instants, also a camera back after --reconnect; --all-or-nothing
        stops the run only when a camera is given up (--reconnect-timeout).
        Event clips: one trigger (ctl clip, SIGUSR2, key c) makes a clip per camera
        (NAME-1-clip-0001.EXT, …; --clips fills in {index}/{device} or adds -1, -2),
        each from its own pre-roll, all of the same instant; motion on any camera
        (--on-motion) makes a clip on every camera. --control: one socket; status
        lists every camera (cameras), still, clip, set and stop go to every camera.
        --set and --flash apply to every camera. --stills PATTERN: {index} and
        {device} filled in, or -1, -2 added before the extension.
        --settle: each camera settles in its own time (a settled line names it),
        then all movies start together. --serve: one server, a path per camera
        (rtsp://127.0.0.1:PORT/camera1, /camera2, …; the started line's cameras
        give each serve_url). --preview: a window per camera (the keys s, c and q
        work in each; --preview-stops: closing any stops every camera). With
        --layout the canvas is shown and served (at /live), and clips, --control,
        --set and --stills work as for one camera. Not yet: --settle with
        --layout. Refused: --codec copy (a camera's own H.264 starts only at its
        own keyframe, which a webcam cannot be asked for at an instant, so the
        movies could not start together: give --codec h264).
        """

    /// What a run of several cameras cannot do yet, one phrase per option.
    static func unsupported(_ options: RecordOptions) -> [String] {
        var found: [String] = []
        if options.layout.layout != nil, options.settle.nanoseconds > 0 { found.append("--settle with --layout") }
        // A camera's own H.264 can start a movie only at its own keyframe, and a webcam cannot
        // be asked for one at an instant: the movies could not start together (docs/multicam.md).
        if options.encoding.codec == .copy {
            found.append("--codec copy (a camera's own H.264 starts a movie only at its own keyframe, so the movies could not start together: give --codec h264)")
        }
        return found
    }

    /// The record command's options for several cameras.
    static let specs = [
        OptionSpec(["--all-or-nothing"], help: "several cameras: a camera lost mid-run stops the whole run (every movie finalised, exit 79) instead of the others going on without it"),
        OptionSpec(["--output-per-device"], help: "several cameras: OUTPUT is a pattern in which {index} (1, 2, … in --device order) and {device} (the camera's node, e.g. video0) are filled in for each camera's movie, e.g. lab-{device}.mp4 (default: NAME-1.EXT, NAME-2.EXT, …)"),
    ]

    /// The movie of camera `index` (1-based) at `device`: NAME-1.EXT, NAME-2.EXT, …, or
    /// OUTPUT with its fields filled in (`pattern`).
    static func moviePath(_ output: String, index: Int, device: String, pattern: Bool) -> String {
        guard pattern else {
            let (stem, ext) = OutputFile.split(output)
            return stem + "-\(index)" + ext
        }
        return output.replacing("{index}", with: "\(index)").replacing("{device}", with: PathName.last(device))
    }

    /// Camera `index`'s (1-based) stills: beside its own movie (NAME-1-still-0001.jpg), in
    /// the `--stills` folder under its movie's name, or the `--stills` pattern made its own
    /// as movies are named: `{index}` and `{device}` filled in, or without them `-1`, `-2`,
    /// … before the extension.
    static func stillSettings(_ options: RecordOptions, index: Int, device: String,
                              moviePath: String) throws(CamrecError) -> StillSettings {
        var stills = options.stills
        guard let text = options.stillsPattern else {
            stills.naming = .beside(moviePath: moviePath, format: stills.format)
            return stills
        }
        let fields = text.contains("{index}") || text.contains("{device}")
        // A folder takes each camera's stills under its own movie's name.
        let own = text.contains("%") || fields ? Self.moviePath(text, index: index, device: device, pattern: fields) : text
        let quality = if case .jpeg(let quality) = stills.format { quality } else { StillFormat.defaultQuality }
        return try StillSettings.resolve(pattern: own, format: stills.format, quality: quality, every: stills.every,
                                         moviePath: moviePath)
    }

    /// Camera `index`'s (1-based) event clips: beside its own movie (NAME-1-clip-0001.EXT),
    /// or the `--clips` pattern made its own as movies are named: `{index}` and `{device}`
    /// filled in, or without them `-1`, `-2`, … before the extension.
    static func clipSettings(_ options: RecordOptions, index: Int, device: String) throws(CamrecError) -> ClipSettings? {
        guard var settings = options.clips.settings else { return nil }
        if let text = options.clips.patternText {
            let own = moviePath(text, index: index, device: device, pattern: text.contains("{index}") || text.contains("{device}"))
            do {
                settings.pattern = try SegmentNaming(output: own, utc: options.clips.utc)
            } catch {
                throw CamrecError(.usage, "--clips: " + error.message)
            }
        }
        return settings
    }

    /// Camera `index`'s (1-based) event clips, motion and standby, from its own pre-roll,
    /// named after its own movie; refuses clip names that an `earlier` camera's take.
    static func addClips(to config: inout RecordConfig, _ options: RecordOptions, index: Int,
                         earlier: [RecordConfig]) throws(CamrecError) {
        config.clips = try clipSettings(options, index: index, device: config.source.deviceName)
        if let clips = config.clips {
            let first = clips.naming(moviePath: config.outputPath).path(counter: 1, date: Date())
            if let taken = earlier.firstIndex(where: { $0.clips?.naming(moviePath: $0.outputPath).path(counter: 1, date: Date()) == first }) {
                throw CamrecError(.usage, "--clips: cameras \(taken + 1) and \(index) would write the same clips: put {index} or {device} in the pattern")
            }
        }
        config.motion = options.clips.motion
        if let mask = options.clips.motionMask {
            config.motion?.mask = try MotionMask.load(mask, size: config.picture.orientation.outputSize(config.size))
        }
        if options.clips.standby {
            // No movie: OUTPUT only names the clips.
            config.standby = true
            config.overwrite = true
        }
    }

    /// Refuses an `--output-per-device` OUTPUT that would name every camera's movie alike.
    static func checkPattern(_ output: String) throws(CamrecError) {
        guard output.contains("{index}") || output.contains("{device}") else {
            throw CamrecError(.usage, "--output-per-device: \(output) has neither {index} nor {device}, so every camera would write the same file: give a pattern such as lab-{device}.mp4")
        }
    }

    static func record(_ options: RecordOptions, console: Console) throws(CamrecError) -> ExitStatus {
        let devices = options.camera.devices
        if options.outputPerDevice {
            guard devices.count > 1 else {
                throw CamrecError(.usage, "--output-per-device names the movies of several cameras: give --device once per camera, or leave it out and name the movie as OUTPUT")
            }
            try checkPattern(options.output)
        }
        if options.allOrNothing, devices.count < 2 {
            throw CamrecError(.usage, "--all-or-nothing is about several cameras: give --device once per camera, or leave it out")
        }
        let refused = unsupported(options)
        if !refused.isEmpty {
            throw CamrecError(.usage, "not yet with several cameras: " + refused.joined(separator: ", ")
                + ": leave it out, or record one camera per camrec")
        }
        if let twice = devices.first(where: { device in devices.count { $0 == device } > 1 }) {
            throw CamrecError(.usage, "--device \(twice) is given twice: give each camera once")
        }
        let picture = try options.picture.resolve()
        let layout = options.layout.layout
        if layout != nil { try ComposedRecording.check(options, picture: picture) }
        var paths: [String] = []
        let encodingRequest = options.encoding.request(keyframeInterval: options.keyframeInterval?.seconds
            ?? EncoderSettings.defaultKeyframeInterval(segmented: options.unattended.segments != nil))
        let needsDecoding = layout != nil ? ["--layout composes the cameras' pictures"]
            : picture.isActive ? ["--rotate, --flip, --mirror or an overlay changes the picture"] : []
            + (options.settle.nanoseconds > 0 ? ["--settle measures the picture"] : [])
        var audio: AudioSettings?
        if options.audio.request != .camera {
            audio = try options.audio.settings(container: options.container, camera: nil)
        }
        var configs: [RecordConfig] = []
        var warnings: [String] = []
        // Each camera's default controls (keeping its frame rate in low light, as for one
        // camera), checked before anything starts.
        var controls: [PreparedControls?] = []
        for (index, device) in devices.enumerated() {
            var choice = options.camera
            choice.device = device
            let resolution = try choice.resolve(
                prefer: EncodingPlanner.preferredFamilies(encodingRequest, needsDecoding: needsDecoding))
            if let same = configs.firstIndex(where: { $0.source.deviceName == resolution.source.deviceName }) {
                throw CamrecError(.usage, "--device \(device) is camera \(same + 1) (\(devices[same])) again: give each camera once")
            }
            if let first = configs.first, resolution.rate != first.rate {
                throw CamrecError(.usage, "camera \(index + 1) (\(device)) records at \(resolution.rate) fps, camera 1 at \(first.rate): give --fps a rate both can do")
            }
            let encoding = try EncoderPicking.plan(encodingRequest, for: resolution, maxDuration: options.maxDuration,
                                                   container: options.container, needsDecoding: needsDecoding)
            // A camera's own H.264 could only start at its next keyframe, out of step.
            if encoding.settings.isPassthrough, encoding.settings.codec == .h264 {
                throw CamrecError(.usage, "camera \(index + 1) (\(device)) delivers H.264, which --codec auto stores as it comes, starting at its next keyframe: give --codec h264 to start all cameras together")
            }
            let path = moviePath(options.output, index: index + 1, device: resolution.source.deviceName,
                                 pattern: options.outputPerDevice)
            if paths.contains(path) {
                throw CamrecError(.usage, "--output-per-device: two cameras would both write \(path): use {index} in the pattern")
            }
            paths.append(path)
            let segments = try series(options, moviePath: path)
            let stills = try stillSettings(options, index: index + 1, device: resolution.source.deviceName,
                                           moviePath: segments?.naming.stillBase ?? paths[index])
            if let taken = configs.firstIndex(where: { $0.stills.naming.path(1) == stills.naming.path(1) }) {
                throw CamrecError(.usage, "--stills: cameras \(taken + 1) and \(index + 1) would write the same stills: put {index} or {device} in the pattern")
            }
            var config = RecordConfig(
                source: resolution.source, size: resolution.size, rate: resolution.rate,
                maxDuration: options.maxDuration, outputPath: paths[index], container: options.container,
                overwrite: options.force, encoder: encoding.settings, stills: stills)
            // --segment, --reconnect: the camera's own series.
            config.segments = segments
            config.reconnect = options.unattended.reconnect
            // The sound goes with the first camera's movie.
            if index == 0 {
                if options.audio.request == .camera, case .camera(let camera, _) = resolution.source {
                    audio = try options.audio.settings(container: options.container, camera: camera)
                }
                config.audio = audio
            }
            config.picture = picture
            // --settle: each camera settles, then all start together (the start barrier).
            config.settle = options.settle
            config.serve = options.serve.settings
            try addClips(to: &config, options, index: index + 1, earlier: configs)
            configs.append(config)
            do throws(CamrecError) {
                controls.append(options.printPipeline ? nil : try PreparedControls.prepare(options.controls, source: resolution.source))
            } catch {
                throw CamrecError(error.kind, error.message.contains(device) ? error.message : "camera \(index + 1) (\(device)): " + error.message)
            }
            let name = "camera \(index + 1) (\(device)): "
            // --layout encodes the canvas, not each camera.
            warnings += (resolution.warnings + (layout == nil ? encoding.warnings : [])).map { name + $0 }
        }
        // --layout: one movie of all the cameras, at OUTPUT.
        var composed: RecordConfig?
        if let layout {
            let (config, composedWarnings) = try ComposedRecording.config(options, layout: layout, cameras: configs,
                                                                          encodingRequest: encodingRequest)
            composed = config
            paths = [options.output]
            warnings += composedWarnings
        }
        try checkSeries(configs.compactMap(\.segments?.naming))
        if !options.printPipeline {
            for (index, path) in paths.enumerated() {
                // A segmented camera's first movie name (its series never replaces a file).
                if let naming = (composed ?? configs[index]).segments?.naming {
                    try OutputFile.checkDestination(naming.path(counter: 1, date: Date()), overwrite: true)
                } else if !options.clips.standby {
                    // Standby writes no movie: OUTPUT only names the clips.
                    try OutputFile.checkDestination(path, overwrite: options.force)
                }
            }
            // A --clips folder that cannot take files is found now, not at the first trigger.
            for config in composed.map({ [$0] }) ?? configs where options.clips.patternText != nil {
                if let naming = config.clips?.naming(moviePath: config.outputPath) {
                    try OutputFile.checkDestination(naming.path(counter: 1, date: Date()), overwrite: true)
                }
            }
        }
        warnings += options.serve.warnings
        if options.unattended.segments != nil, options.force {
            warnings.append("--force does nothing with --segment: movies of a segmented run never replace a file (a taken name gets -2)")
        }
        if options.printPipeline {
            do {
                if let composed {
                    print(try RecordPipeline(config: composed, template: .compose).commandLine())
                    return .success
                }
                for config in configs { print(try RecordPipeline(config: config, template: options.template).commandLine()) }
            } catch {
                throw CamrecError(.usage, error.message)
            }
            return .success
        }
        let printer = RecordingPrinter(console: console)
        for warning in warnings { printer.show(.warning(warning)) }
        // --preview: a window per camera, opened before the cameras start (--layout shows the canvas).
        if layout == nil, options.preview.mode != .off { SignalWatcher.block(SignalWatcher.recordingSignals) }
        let previews = layout == nil ? try LiveOutputs.openPreviews(options, cameras: configs.count, printer: printer, console: console) : []
        defer { for window in previews { window.close() } }
        for index in previews.indices { configs[index].preview = options.preview.settings }
        // Put back what camrec changed (once: `finish` forgets what it restored), before the
        // result line, or on the way out of a failure (also a later camera's failed write).
        let restore = {
            for (index, prepared) in controls.enumerated() {
                for warning in prepared?.finish() ?? [] { printer.show(.warning("camera \(index + 1) (\(devices[index])): " + warning)) }
            }
        }
        defer { restore() }
        for (index, prepared) in controls.enumerated() {
            let applied: (warnings: [String], controls: [AppliedControl])?
            do throws(CamrecError) {
                applied = try prepared?.apply()
            } catch {
                throw CamrecError(error.kind, error.message.contains(devices[index]) ? error.message
                                  : "camera \(index + 1) (\(devices[index])): " + error.message)
            }
            guard let applied else { continue }
            for warning in applied.warnings { printer.show(.warning("camera \(index + 1) (\(devices[index])): " + warning)) }
            configs[index].controls = applied.controls
        }
        if var composed {
            composed.controls = configs[0].controls
            // The control socket drives the canvas; `set` goes to every camera, as without --layout.
            let result = try ComposedRecording.run(
                composed, options: options,
                setHandler: { [controls] text in PreparedControls.setReply(text, on: controls, devices: devices) },
                printer: printer, console: console)
            restore()
            printer.show(result)
            return result.exitStatus
        }
        // --reconnect: a camera plugged in again has its power-on controls: camrec's go back on.
        for (index, prepared) in controls.enumerated() {
            if let prepared { configs[index].cameraBack = { path in prepared.camera.reapply(at: path) } }
        }
        SignalWatcher.block(SignalWatcher.recordingSignals)
        // --serve: one server, a mount per camera, listening before the cameras' pipelines start.
        let servers = try LiveOutputs.startServers(for: configs, console: console)
        defer { for server in servers { server.close() } }
        let run = MultiCameraRecorder(configs: configs, template: options.template, allOrNothing: options.allOrNothing,
                                      servers: servers, previews: previews)
        // One control socket for the run: every command goes to every camera.
        let driven = try RunControls(run: run, controlPath: options.controlPath,
                                     setHandler: { [controls] text in PreparedControls.setReply(text, on: controls, devices: devices) },
                                     previews: previews, console: console)
        defer { driven.end() }
        let result = try run.run { event in printer.show(event) }
        restore()
        printer.show(result)
        return result.exitStatus
    }

    /// Camera `moviePath`'s series with `--segment` (or `--reconnect`): named as one
    /// camera's run with `moviePath` as OUTPUT would be (NAME-1.EXT gives NAME-1-0001.EXT,
    /// …; a pattern's time fields and counter as for one camera), with the run's retention,
    /// which thus counts this camera's series only. Nil without segments.
    static func series(_ options: RecordOptions, moviePath: String) throws(CamrecError) -> SegmentSettings? {
        guard var segments = options.unattended.segments else { return nil }
        segments.naming = try SegmentNaming(output: moviePath, utc: segments.naming.utc)
        return segments
    }

    /// Refuses series of which one would take another camera's movies for its own (its
    /// counter, retention and `--keep` would then mix them), e.g. `lab-{index}%04d.mp4`,
    /// where camera 1's `lab-1` and a counter also read camera 11's names.
    static func checkSeries(_ namings: [SegmentNaming], now: Date = Date()) throws(CamrecError) {
        for (one, naming) in namings.enumerated() {
            for (other, theirs) in namings.enumerated() where other != one && theirs.folder == naming.folder {
                for counter in [1, 1000] where naming.match(PathName.last(theirs.path(counter: counter, date: now))) != nil {
                    throw CamrecError(.usage, "--segment: camera \(one + 1)'s movies would also match camera \(other + 1)'s names (\(PathName.last(theirs.path(counter: counter, date: now)))): separate {index} or {device} from the counter and time fields, e.g. lab-{index}-%04d.mp4")
                }
            }
        }
    }
}

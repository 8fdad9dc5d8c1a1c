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

    /// The record command's options for several cameras.
    static let specs = [
        OptionSpec(["--all-or-nothing"], help: "several cameras: a camera lost mid-run stops the whole run (every movie finalised, exit 79) instead of the others going on without it"),
        OptionSpec(["--output-per-device"], help: "several cameras: OUTPUT is a pattern in which {index} (1, 2, … in --device order) and {device} (the camera's node, e.g. video0) are filled in for each camera's movie, e.g. lab-{device}.mp4 (default: NAME-1.EXT, NAME-2.EXT, …)"),
    ]

    /// Camera `index`'s (1-based) clip triggers, motion and standby; its clips' names are
    /// the plan's.
    static func addClips(to config: inout RecordConfig, _ options: RecordOptions, clips: ClipSettings?) throws(CamrecError) {
        config.clips = clips
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

    static func record(_ options: RecordOptions, request: RecordingRequest, picture: PictureSettings,
                       console: Console) throws(CamrecError) -> ExitStatus {
        // What no camera could change is refused before any camera is looked for.
        try RecordingPlanner.check(request)
        let devices = options.camera.devices
        let layout = options.layout.layout
        let encodingRequest = options.encoding.request(keyframeInterval: options.keyframeInterval?.seconds
            ?? EncoderSettings.defaultKeyframeInterval(segmented: options.unattended.segments != nil))
        var needsDecoding = layout != nil ? ["--layout composes the cameras' pictures"]
            : picture.isActive ? ["--rotate, --flip, --mirror or an overlay changes the picture"] : []
        if options.settle.nanoseconds > 0 { needsDecoding.append("--settle measures the picture") }
        var audio: AudioSettings?
        if options.audio.request != .camera {
            audio = try options.audio.settings(container: options.container, camera: nil)
        }
        var resolutions: [CameraResolver.Resolution] = []
        for (index, device) in devices.enumerated() {
            var choice = options.camera
            choice.device = device
            let resolution = try choice.resolve(
                prefer: EncodingPlanner.preferredFamilies(encodingRequest, needsDecoding: needsDecoding))
            if let same = resolutions.firstIndex(where: { $0.source.deviceName == resolution.source.deviceName }) {
                throw CamrecError(.usage, "--device \(device) is camera \(same + 1) (\(devices[same])) again: give each camera once")
            }
            if let first = resolutions.first, resolution.rate != first.rate {
                throw CamrecError(.usage, "camera \(index + 1) (\(device)) records at \(resolution.rate) fps, camera 1 at \(first.rate): give --fps a rate both can do")
            }
            resolutions.append(resolution)
        }
        // Every file's name, from the cameras' paths ({device}), checked against the others.
        let plan = try RecordingPlanner.plan(request, devicePaths: resolutions.map(\.source.deviceName))
        var configs: [RecordConfig] = []
        var warnings: [String] = plan.warnings
        // Each camera's default controls (keeping its frame rate in low light, as for one
        // camera), checked before anything starts.
        var controls: [PreparedControls?] = []
        for (index, resolution) in resolutions.enumerated() {
            let device = devices[index]
            let encoding = try EncoderPicking.plan(encodingRequest, for: resolution, maxDuration: options.maxDuration,
                                                   container: options.container, needsDecoding: needsDecoding)
            // A camera's own H.264 could only start at its next keyframe, out of step.
            if encoding.settings.isPassthrough, encoding.settings.codec == .h264 {
                throw CamrecError(.usage, "camera \(index + 1) (\(device)) delivers H.264, which --codec auto stores as it comes, starting at its next keyframe: give --codec h264 to start all cameras together")
            }
            // With a canvas, a camera writes only its own stills; the canvas's are the movie's.
            let outputs = layout == nil ? plan.movies[index] : nil
            var config = RecordConfig(
                source: resolution.source, size: resolution.size, rate: resolution.rate,
                maxDuration: options.maxDuration, outputPath: outputs?.movie ?? options.output,
                container: options.container, overwrite: options.force, encoder: encoding.settings,
                stills: outputs?.stills ?? plan.cameraStills[index])
            // --segment, --reconnect: the camera's own series.
            config.segments = outputs?.segments
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
            try addClips(to: &config, options, clips: outputs?.clips)
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
            let (config, composedWarnings) = try ComposedRecording.config(options, layout: layout, outputs: plan.movies[0],
                                                                          cameras: configs, encodingRequest: encodingRequest)
            composed = config
            warnings += composedWarnings
        }
        if !options.printPipeline { try plan.checkDestinations() }
        warnings += options.serve.warnings
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
            // --reconnect: a camera back in its cell has its power-on controls: camrec's go back on.
            composed.cameraBack = { [controls] camera, path in
                let warnings = controls.indices.contains(camera) ? controls[camera]?.camera.reapply(at: path) ?? [] : []
                return warnings.map { "camera \(camera + 1) (\(path)): " + $0 }
            }
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
            if let prepared { configs[index].cameraBack = { _, path in prepared.camera.reapply(at: path) } }
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
}

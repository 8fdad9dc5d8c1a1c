import FoundationEssentials
import CamrecKit
#if canImport(Glibc)
import Glibc
#endif

/// `camrec --device A --device B --layout L … OUTPUT`: several cameras composed onto one
/// canvas, one movie at OUTPUT (`Composition`, `pipelines/compose.pipeline`).
enum ComposedRecording {
    /// The help's paragraph on --layout.
    static let discussion = """
        One composed movie: --layout stacked|side-by-side|grid|pip composes the
        cameras onto one canvas (--canvas WxH, default 1080x1920) recorded as one
        movie at OUTPUT, each camera scaled to fit its cell keeping its aspect
        ratio, black around it. The movie has --fps frames a second, each made of
        every camera's newest frame; it starts once every camera is on the canvas
        and has exactly --max-duration of frames. The started line and the result
        give each camera's rectangle (layout.cameras: x, y, width, height,
        device); stills (SIGUSR1) are the composed frame, with one of each
        camera. A camera lost mid-run leaves its cell black and the movie goes on
        with the others (exit 79 at the end); --all-or-nothing ends the movie
        there instead, and with --reconnect the camera comes back into its cell
        (its --set controls set again).
        --segment cuts the canvas's own series (retention as for one camera);
        clips, --preview, --serve, --control and --set work as for one camera.
        """

    /// The composed movie's configuration, from each camera's (`cameras`, in order):
    /// the canvas is the movie's frame size, encoded at it; the sound is the first camera's.
    static func config(_ options: RecordOptions, layout: CanvasLayout, outputs: RecordingPlan.MovieOutputs,
                       cameras: [RecordConfig], encodingRequest: EncodingRequest) throws(CamrecError) -> (RecordConfig, [String]) {
        var sources: [(path: String, format: CameraFormat)] = []
        for (index, camera) in cameras.enumerated() {
            guard case .camera(let path, let format) = camera.source else {
                throw CamrecError(.usage, "--layout composes cameras: camera \(index + 1) is the test pattern (--device test): give a camera")
            }
            sources.append((path, format))
        }
        let first = cameras[0]
        let canvas = options.layout.canvas
        var composition = Composition(layout: layout, canvas: canvas, cameras: sources, rate: first.rate)
        composition.allOrNothing = options.allOrNothing
        // Each camera's own stills are named as they would be without --layout (beside
        // both-still-0001.jpg, the composed one: both-1-still-0001.jpg; with --stills
        // PATTERN, each camera's own version of it: the plan's cameraStills).
        composition.cameraStillNaming = cameras.map(\.stills.naming)
        let encoding = try EncodingPlanner.plan(
            encodingRequest,
            context: .init(source: first.source, rate: first.rate, container: options.container,
                           needsDecoding: ["--layout composes the cameras' pictures"])
        ) { codec throws(CamrecError) in
            try EncoderPicking.pick(encodingRequest, codec: codec, size: canvas, rate: first.rate)
        }
        var config = RecordConfig(
            source: first.source, size: canvas, rate: first.rate, maxDuration: options.maxDuration,
            outputPath: options.output, container: options.container, overwrite: options.force,
            encoder: encoding.settings, stills: outputs.stills)
        config.audio = first.audio
        // Event clips are cut from the canvas's encoded stream, named after OUTPUT; motion
        // is looked for on the canvas.
        config.clips = outputs.clips
        config.motion = options.clips.motion
        if let mask = options.clips.motionMask {
            config.motion?.mask = try MotionMask.load(mask, size: canvas)
        }
        config.standby = options.clips.standby
        // --segment and retention: the canvas's own series, named from OUTPUT as one
        // camera's; --reconnect brings a lost camera back into its cell, in the same series.
        config.segments = outputs.segments
        config.recoverPartials = options.unattended.recoverPartials
        config.preview = options.preview.mode != .off ? options.preview.settings : nil
        config.serve = options.serve.settings
        // --reconnect: a lost camera comes back into its cell, in the same movie.
        config.reconnect = options.unattended.reconnect
        config.composition = composition
        config.startBarrier = composition.canvasMember
        return (config, encoding.warnings)
    }

    /// Records the composed movie until it stops; the started line and the result carry
    /// the layout.
    static func run(_ composed: RecordConfig, options: RecordOptions, setHandler: ControlServer.SetHandler?,
                    printer: RecordingPrinter, console: Console) throws(CamrecError) -> RecordingResult {
        var config = composed
        let report = config.composition?.report
        SignalWatcher.block(SignalWatcher.recordingSignals)
        // The window and the live stream show the canvas.
        let preview = try LiveOutputs.openPreview(options, printer: printer, console: console)
        defer { preview?.close() }
        if preview == nil { config.preview = nil }
        let server = try LiveOutputs.startServer(for: config, console: console)
        defer { server?.close() }
        let recorder = Recorder(config: config, template: .compose, preview: preview, server: server)
        let driven = try RunControls(run: recorder, controlPath: options.controlPath, setHandler: setHandler,
                                     preview: preview, console: console)
        defer { driven.end() }
        // The started line, the result and every still (the composed frame) carry the layout.
        var result = try recorder.run { event in
            switch event {
            case .started(var start):
                start.layout = report
                printer.show(.started(start))
            case .still(var file):
                // The composed still carries the layout; each camera's, its device and rectangle.
                if file.device == nil { file.layout = report }
                printer.show(.still(file))
            default:
                printer.show(event)
            }
        }
        result.layout = report
        for index in result.files.indices where result.files[index].kind == "still" && result.files[index].device == nil {
            result.files[index].layout = report
        }
        return result
    }
}

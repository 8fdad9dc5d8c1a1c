import GStreamer

/// The named elements of a recording's pipeline that the session drives, looked up once
/// when the session is made. A template that lacks one the request needs fails here,
/// before anything runs, with one error naming the element and what it is for.
struct RecordingElements {
    /// The camera ("src"); nil for a canvas, whose cameras are `canvasCameras`.
    let camera: Element?
    /// `--layout`: the cameras' sources ("camera1", "camera2", …).
    let canvasCameras: [Element]
    /// The muxer ("mux", a splitmuxsink) of a segmented run; nil without `--segment`.
    let muxer: Element?
    /// The encoder's output ("encoder"), where a segment's first frame is made a keyframe;
    /// nil for passthrough, which has no encoder.
    let encoderOutput: Pad?
    /// The appsink stills are taken from ("stills").
    let stills: AppSink
    /// `--layout` with stills of each camera: each camera's appsink ("still1", …).
    let cameraStills: [AppSink]
    /// Event clips: the appsinks of their frames ("clipfeed") and sound ("clipsound").
    let clipFeed: AppSink?
    let clipSound: AppSink?
    /// `--preview`: the window's appsink ("preview").
    let preview: AppSink?
    /// `--serve`: the RTSP server's appsinks ("serve", and "servesound" with sound).
    let serve: AppSink?
    let serveSound: AppSink?

    /// Looks up what `config` needs in `pipeline`; `preview` and `serve` say whether a
    /// window and a server were made for this session.
    init(in pipeline: Pipeline, config: RecordConfig, preview: Bool, serve: Bool) throws(CamrecError) {
        camera = try? pipeline.element(named: "src")
        let cameras = config.composition?.cameras.indices ?? 0..<0
        canvasCameras = cameras.compactMap { try? pipeline.element(named: "camera\($0 + 1)") }
        muxer = config.segments == nil ? nil
            : try Self.need("mux", "{output} (a splitmuxsink named 'mux' for --segment)") { try pipeline.element(named: "mux") }
        // Passthrough has no encoder: a segment starts at the camera's next keyframe.
        if config.encoder.isPassthrough {
            encoderOutput = nil
        } else if config.segments != nil {
            encoderOutput = try Self.need("encoder", "its encoder named 'encoder' for --segment") {
                try pipeline.element(named: "encoder").staticPad("src")
            }
        } else {
            encoderOutput = try? pipeline.element(named: "encoder").staticPad("src")
        }
        stills = try Self.need("stills", "an appsink named 'stills'") { try AppSink(pipeline.element(named: "stills")) }
        if let composition = config.composition, composition.cameraStillNaming.count == composition.cameras.count {
            cameraStills = try Self.need("still1", "appsinks still1, still2, … and a compositor named canvas for each camera's stills") {
                try cameras.map { try AppSink(pipeline.element(named: Composition.stillSinkName($0))) }
            }
        } else {
            cameraStills = []
        }
        if config.clips != nil {
            clipFeed = try Self.need("clipfeed", "{encode} for event clips (--pre-roll, --post-roll)") {
                try AppSink(pipeline.element(named: "clipfeed"))
            }
            clipSound = config.audio == nil ? nil : try Self.need("clipsound", "{audio} with --audio for event clips") {
                try AppSink(pipeline.element(named: "clipsound"))
            }
        } else {
            (clipFeed, clipSound) = (nil, nil)
        }
        self.preview = preview && config.preview != nil
            ? try Self.need(PreviewSettings.sinkName, "{preview} for --preview") { try AppSink(pipeline.element(named: PreviewSettings.sinkName)) }
            : nil
        if serve && config.serve != nil {
            self.serve = try Self.need("serve", "{encode} for --serve") { try AppSink(pipeline.element(named: "serve")) }
            serveSound = config.audio == nil ? nil : try Self.need("servesound", "{audio} with --audio for --serve") {
                try AppSink(pipeline.element(named: "servesound"))
            }
        } else {
            (self.serve, serveSound) = (nil, nil)
        }
    }

    /// Runs `lookup`; its failure is the template's: "the pipeline template needs `what`".
    private static func need<T>(_ name: String, _ what: String, _ lookup: () throws -> T) throws(CamrecError) -> T {
        do {
            return try lookup()
        } catch {
            throw CamrecError(.usage, "the pipeline template needs \(what): no usable element '\(name)' (\(error))")
        }
    }
}

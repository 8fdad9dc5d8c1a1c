import FoundationEssentials
import GStreamer
import Synchronization

/// What `camrec preview` shows.
public struct PreviewConfig: Sendable {
    /// Where frames come from.
    public var source: VideoSource
    /// The frame size the camera runs at.
    public var size: FrameSize
    /// The frame rate the camera runs at.
    public var rate: FrameRateValue
    /// Rotation, mirroring and overlays, in the window and its stills.
    public var picture: PictureSettings = .unchanged
    /// Where the key s and SIGUSR1 put stills, and how they are encoded.
    public var stills: StillSettings

    /// A preview of `source` at `size` and `rate`, its stills as `stills` says.
    public init(source: VideoSource, size: FrameSize, rate: FrameRateValue, stills: StillSettings) {
        self.source = source
        self.size = size
        self.rate = rate
        self.stills = stills
    }
}

/// `camrec preview`: the camera in a `PreviewWindow`, nothing recorded, stills on request.
/// The camera's pipeline (`pipelines/preview.pipeline`) feeds the window as a recording's
/// preview branch does, so what the window shows and costs is what `--preview` shows and
/// costs. It runs until the window is closed, a stop is asked for, or the camera fails.
///
/// `run` blocks; call `requestStop` and `requestStill` from any thread.
public final class LivePreview: Sendable {
    private let config: PreviewConfig
    private let window: PreviewWindow
    private let state = Mutex(State())

    private struct State {
        /// Why to stop, once asked (and a note for the result).
        var stop: (reason: StopReason, message: String?)?
        /// Takes the stills while the camera runs.
        var stills: StillTaker?
    }

    /// A preview of `config` in `window` (opened by the caller, which closes it).
    public init(config: PreviewConfig, window: PreviewWindow) {
        self.config = config
        self.window = window
    }

    /// Ends the preview (`reason` goes into the result).
    public func requestStop(_ reason: StopReason, message: String? = nil) {
        state.withLock { state in
            if state.stop == nil { state.stop = (reason, message) }
        }
    }

    /// Asks for a still of the newest frame; false when the camera is not running.
    @discardableResult
    public func requestStill(_ trigger: StillTrigger) -> Bool {
        state.withLock { $0.stills }?.request(trigger) ?? false
    }

    /// Shows the camera until stopped; returns the stills taken.
    public func run(events: @escaping @Sendable (RecordingEvent) -> Void) throws(CamrecError) -> RecordingResult {
        let pipeline: Pipeline
        let frameSink: AppSink
        let stillSink: AppSink
        let frameGuard: (FrameGuard, ProbeToken)?
        var overlayToken: ProbeToken?
        var camera: Element?
        do {
            pipeline = try Pipeline.withBuiltIns(try Self.description(config))
            camera = try? pipeline.element(named: "src")
            frameGuard = try FrameGuard.install(for: config.source, in: pipeline) {}
            frameSink = try AppSink(pipeline.element(named: PreviewSettings.sinkName))
            stillSink = try AppSink(pipeline.element(named: "stills"))
            overlayToken = try OverlayTextProbe.install(config.picture.text, in: pipeline, device: config.source.deviceName,
                                                         rate: config.rate)
        } catch let error as CamrecError {
            throw error
        } catch let error as GStreamerError {
            throw FailureMapping.camrecError(for: error, camera: camera)
        } catch {
            throw CamrecError(.failure, "\(error)")
        }
        let shown = window.show(framesOf: frameSink) { PreviewStatus(label: "PREVIEW") }
        defer {
            shown.remove()
            frameGuard?.1.remove()
            overlayToken?.remove()
            _ = try? pipeline.setState(.null)
        }
        // Closing the window is how a desktop user ends it, as q is on the terminal.
        // Weak: the window may outlive the preview (the caller closes it).
        window.onClose { [weak self] reason in self?.requestStop(.control, message: reason) }
        do {
            try pipeline.setStateThrowingPostedError(.playing)
        } catch {
            throw FailureMapping.camrecError(for: error, camera: camera)
        }
        let stills = StillTaker(sink: stillSink, settings: config.stills, gate: nil, events: events)
        state.withLock { $0.stills = stills }
        let finishStills = { [self] () -> [ResultFile] in
            state.withLock { $0.stills = nil }
            return stills.finish()
        }
        let bus = pipeline.bus
        while true {
            if let stop = state.withLock({ $0.stop }) {
                return RecordingResult(reason: stop.reason, files: finishStills(), droppedFrames: 0, message: stop.message)
            }
            switch bus?.pop(timeoutNanoseconds: 100_000_000) {
            case .error(let failure)?:
                _ = finishStills()
                throw FailureMapping.camrecError(for: failure, camera: camera)
            case .warning(let failure)?:
                events(.warning("\(failure.source.name): \(failure.message)"))
            case .endOfStream?:
                return RecordingResult(reason: .completed, files: finishStills(), droppedFrames: 0,
                                       message: "the camera's stream ended")
            default:
                continue
            }
        }
    }

    /// The camera's pipeline for `config` (`pipelines/preview.pipeline`, filled).
    static func description(_ config: PreviewConfig) throws(CamrecError) -> String {
        let template = PipelineTemplate.preview
        var values = RecordPipeline.sourceValues(source: config.source, size: config.size, rate: config.rate,
                                                 picture: config.picture)
        // What only a movie would decode, only the window decodes here (stills keep a camera's JPEGs).
        values["decode_preview"] = values["decode_record"] ?? ""
        values["decode_record"] = nil
        RecordPipeline.addPicture(config.picture, size: config.size, printed: false, to: &values, template: template,
                                  convertFirst: "videoconvert ! video/x-raw,format=I420")
        do {
            return try template.render(values)
        } catch {
            throw CamrecError(.usage, error.message)
        }
    }
}

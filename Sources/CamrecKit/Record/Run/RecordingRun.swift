/// One recording run, whatever its topology: one camera's movie, several cameras' movies
/// started at one instant (`MultiCameraRecorder`), or several cameras on one canvas. The
/// command line starts it the same way for all three, and drives it through
/// ``ControlledRun`` (signals, keys, the control socket).
///
/// `run` blocks; the requests may come from any thread.
public final class RecordingRun: Sendable {
    private enum Shape: Sendable {
        /// One pipeline: one camera, or a canvas (with its layout, for the lines it prints).
        case one(Recorder, layout: LayoutReport?)
        /// A pipeline per camera, started together.
        case cameras(MultiCameraRecorder)
    }

    private let shape: Shape

    /// The run `setup` describes. `previews` (opened by the caller, which closes them):
    /// a window per camera's movie, or one for the canvas or the one camera; `servers`
    /// (started by the caller, which closes them) likewise, one per pipeline.
    public init(_ setup: RunSetup, previews: [PreviewWindow] = [], servers: [LiveStreamServer] = []) {
        if case .separateMovies(let allOrNothing) = setup.topology {
            shape = .cameras(MultiCameraRecorder(configs: setup.cameras, template: setup.template, allOrNothing: allOrNothing,
                                                 servers: servers, previews: previews))
        } else {
            let config = setup.recorded[0]
            shape = .one(Recorder(config: config, template: setup.template, preview: previews.first, server: servers.first),
                         layout: config.composition?.report)
        }
    }

    /// Records until the limit, a stop request or a failure; returns every file made. A
    /// canvas's started line, stills and result carry its layout.
    public func run(events: @escaping @Sendable (RecordingEvent) -> Void) throws(CamrecError) -> RecordingResult {
        switch shape {
        case .cameras(let recorder):
            return try recorder.run(events: events)
        case .one(let recorder, nil):
            return try recorder.run(events: events)
        case .one(let recorder, let layout?):
            var result = try recorder.run { event in events(Self.event(event, layout: layout)) }
            result.layout = layout
            for index in result.files.indices where result.files[index].kind == "still" && result.files[index].device == nil {
                result.files[index].layout = layout
            }
            return result
        }
    }

    /// A canvas's event with its layout: the started line, and the composed stills (a
    /// camera's own still has its device and rectangle instead).
    private static func event(_ event: RecordingEvent, layout: LayoutReport) -> RecordingEvent {
        switch event {
        case .started(var start):
            start.layout = layout
            return .started(start)
        case .still(var file) where file.device == nil:
            file.layout = layout
            return .still(file)
        default:
            return event
        }
    }
}

extension RecordingRun: ControlledRun {
    public var cameraRecorders: [Recorder] {
        switch shape {
        case .one(let recorder, _): [recorder]
        case .cameras(let recorder): recorder.recorders
        }
    }

    public func requestStop(_ reason: StopReason, requests: Int) {
        switch shape {
        case .one(let recorder, _): recorder.requestStop(reason, requests: requests)
        case .cameras(let recorder): recorder.requestStop(reason, requests: requests)
        }
    }

    public func splitNow() -> Bool {
        switch shape {
        case .one(let recorder, _): recorder.requestSplit()
        case .cameras(let recorder): recorder.requestSplit()
        }
    }

    public func status() -> RecorderStatus? {
        switch shape {
        case .one(let recorder, _): recorder.status()
        case .cameras(let recorder): recorder.status()
        }
    }

    public func clipNow(after: TimeSpec?, still: Bool) -> Result<ClipTrigger, CamrecError>? {
        switch shape {
        case .one(let recorder, _): recorder.requestClip(after: after, still: still)
        case .cameras(let recorder): recorder.requestClip(after: after, still: still)
        }
    }
}

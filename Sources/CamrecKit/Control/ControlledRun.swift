import FoundationEssentials

/// A running recording that signals, the control socket and keys drive: one camera
/// (`Recorder`, also a canvas of several) or several cameras in movies of their own
/// (`MultiCameraRecorder`), where every command goes to every camera. ``ControlAnswers``
/// answers for either.
public protocol ControlledRun: AnyObject, Sendable {
    /// The recorders that take stills, in `--device` order (one for a single camera or a canvas).
    var cameraRecorders: [Recorder] { get }
    /// Asks the run to stop (see `Recorder.requestStop`).
    func requestStop(_ reason: StopReason, requests: Int)
    /// Starts the next movie at the next frame; false when nothing records.
    func splitNow() -> Bool
    /// The run's state; nil before it starts and after it ends.
    func status() -> RecorderStatus?
    /// Asks for an event clip now (see `Recorder.requestClip`); nil when nothing records.
    func clipNow(after: TimeSpec?, still: Bool) -> Result<ClipTrigger, CamrecError>?
    /// Why nothing records now although the run goes on (`--schedule` between windows), as
    /// the replies to the commands that need a recording say it; nil while recording.
    var idleReason: String? { get }
}

extension ControlledRun {
    public var idleReason: String? { nil }
}

extension Recorder: ControlledRun {
    public var cameraRecorders: [Recorder] { [self] }
    public func splitNow() -> Bool { requestSplit() }
    public func clipNow(after: TimeSpec?, still: Bool) -> Result<ClipTrigger, CamrecError>? {
        requestClip(after: after, still: still)
    }
}

extension MultiCameraRecorder: ControlledRun {
    public var cameraRecorders: [Recorder] { recorders }
    public func splitNow() -> Bool { requestSplit() }
    public func clipNow(after: TimeSpec?, still: Bool) -> Result<ClipTrigger, CamrecError>? {
        requestClip(after: after, still: still)
    }
}

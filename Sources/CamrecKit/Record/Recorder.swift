import Foundation
import GStreamer
import Synchronization

/// Runs one recording: builds the pipeline, gates it at the maximum duration, reads the
/// bus on the calling thread, stops cleanly on request and finalises the file.
///
/// `run` blocks; call `requestStop` from any thread (signal watcher, control socket).
public final class Recorder: Sendable {
    /// The configuration it records with.
    public let config: RecordConfig
    private let pipelineBuilder: RecordPipeline
    private let control = RecordingControl()

    public init(config: RecordConfig, template: PipelineTemplate = .record) {
        self.config = config
        pipelineBuilder = RecordPipeline(config: config, template: template)
    }

    /// Asks the recording to stop: the first request finalises the file (EOS), a second
    /// one aborts at once (the fragmented file on disk still plays). `requests` above 1
    /// asks that many times at once (signals that arrived together).
    public func requestStop(_ reason: StopReason, requests: Int = 1) {
        control.requestStop(reason, requests: requests)
    }

    /// Asks for a still from the running recording; false when none is running (not yet
    /// started, or already finishing).
    @discardableResult
    public func requestStill(_ trigger: StillTrigger,
                             completion: (@Sendable (Result<ResultFile, CamrecError>) -> Void)? = nil) -> Bool {
        control.stills?.request(trigger, completion: completion) ?? false
    }

    /// Starts a new movie file at the next frame (`camrec ctl … split`); false when no
    /// recording runs.
    public func requestSplit() -> Bool {
        control.requestSplit()
    }

    /// The running recording's state; nil before it starts and after it ends.
    public func status() -> RecorderStatus? {
        control.status()
    }

    /// Records until the limit, a stop request, or a failure; returns every file made.
    public func run(events: @escaping @Sendable (RecordingEvent) -> Void) throws(CamrecError) -> RecordingResult {
        let plan = try OutputPlan(config: config)
        let session: RecordingSession
        do {
            session = try RecordingSession(config: config, pipeline: pipelineBuilder, control: control, plan: plan)
        } catch {
            plan.discardOpen()
            throw error
        }
        return try session.run(events: events)
    }
}

import Foundation
import GStreamer
import Synchronization

/// Runs one recording: builds the pipeline, gates it at the maximum duration, reads the
/// bus on the calling thread, stops cleanly on request and finalises the file.
///
/// `run` blocks; call `requestStop` from any thread (signal watcher, control socket).
public final class Recorder: Sendable {
    private struct Control {
        var pipeline: Pipeline?
        var stills: StillTaker?
        var status: (@Sendable () -> RecorderStatus)?
        var requestedStop: StopReason?
        var stopRequests = 0
    }

    /// Application messages our own code posts to wake the bus loop.
    private enum Wake {
        static let limit = "camrec/limit"
        static let stop = "camrec/stop"
        static let corruptFrame = "camrec/corrupt-frame"
    }

    /// The configuration it records with.
    public let config: RecordConfig
    private let pipelineBuilder: RecordPipeline
    private let control = Mutex(Control())

    public init(config: RecordConfig, template: PipelineTemplate = .record) {
        self.config = config
        pipelineBuilder = RecordPipeline(config: config, template: template)
    }

    /// Asks the recording to stop: the first request finalises the file (EOS), a second
    /// one aborts at once (the fragmented file on disk still plays). `requests` above 1
    /// asks that many times at once (signals that arrived together).
    public func requestStop(_ reason: StopReason, requests: Int = 1) {
        let bus = control.withLock { control -> Bus? in
            control.stopRequests += max(1, requests)
            if control.requestedStop == nil { control.requestedStop = reason }
            return control.pipeline?.bus
        }
        bus?.postApplicationMessage(Wake.stop)
    }

    /// Asks for a still from the running recording; false when none is running (not yet
    /// started, or already finishing).
    @discardableResult
    public func requestStill(_ trigger: StillTrigger,
                             completion: (@Sendable (Result<ResultFile, CamrecError>) -> Void)? = nil) -> Bool {
        let stills = control.withLock { $0.stills }
        return stills?.request(trigger, completion: completion) ?? false
    }

    /// The running recording's state; nil before it starts and after it ends.
    public func status() -> RecorderStatus? {
        let (status, stills) = control.withLock { ($0.status, $0.stills) }
        return status.map { provider in
            var status = provider()
            status.stills = stills?.files.count ?? 0
            return status
        }
    }

    /// Records until the limit, a stop request, or a failure; returns every file made.
    public func run(events: @escaping @Sendable (RecordingEvent) -> Void) throws(CamrecError) -> RecordingResult {
        let output = try OutputFile.claim(config.outputPath, overwrite: config.overwrite)
        let session: RecordingSession
        do {
            session = try RecordingSession(recorder: self, output: output)
        } catch {
            output.discard()
            throw error
        }
        return try session.run(events: events)
    }

    /// A stop request not yet acted on, and how many arrived.
    func pendingStop() -> (reason: StopReason?, count: Int) {
        control.withLock { ($0.requestedStop, $0.stopRequests) }
    }

    func attach(_ pipeline: Pipeline?, stills: StillTaker?, status: (@Sendable () -> RecorderStatus)?) {
        let pendingRequests = control.withLock { control -> Int in
            control.pipeline = pipeline
            control.stills = stills
            control.status = status
            return control.stopRequests
        }
        // A stop that came before the pipeline existed must still wake the loop.
        if pendingRequests > 0 { pipeline?.bus?.postApplicationMessage(Wake.stop) }
    }

    var pipelineBuilderForSession: RecordPipeline { pipelineBuilder }
    static var limitMessage: String { Wake.limit }
    static var stopMessage: String { Wake.stop }
    static var corruptFrameMessage: String { Wake.corruptFrame }
}

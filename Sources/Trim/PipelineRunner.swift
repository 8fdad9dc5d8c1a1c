import GStreamer

/// Waits on a pipeline's bus from the calling thread (trim runs on its own thread, never
/// on the Swift concurrency pool). Every wait is bounded by progress (``StallWatch``).
enum PipelineRunner {
    /// Blocks until end of stream; throws the first error an element posts, `stalled` when
    /// `progress` (any measure of work done that grows, e.g. buffers seen or bytes written)
    /// stays the same for the stall timeout, and `interrupted` once the trim is cancelled.
    /// `poll` runs about ten times a second (progress reports).
    static func waitForEndOfStream(
        _ pipeline: Pipeline, watch: StallWatch, progress: () -> Int64, poll: () -> Void = {}
    ) throws {
        guard let bus = pipeline.bus else { throw GStreamerError.unavailable("a bus for \(pipeline.name)") }
        var watch = watch
        var seen = progress()
        while true {
            if let message = bus.pop(timeoutNanoseconds: 100_000_000) {
                switch message {
                case .endOfStream: return
                case .error(let failure): throw GStreamerError.element(failure)
                default: break
                }
            }
            let now = progress()
            if now != seen {
                seen = now
                watch.progressed()
            }
            poll()
            try watch.check()
        }
    }

    /// Blocks until `pipeline` reaches PAUSED (a demuxer has read the headers and its first
    /// frames), bounded by `watch`; throws the first error `errors` (watching the pipeline's
    /// bus since before the change began) has seen.
    static func waitForPaused(_ pipeline: Pipeline, watch: StallWatch, errors: ErrorWatch) throws {
        while true {
            try checkForError(errors)
            switch pipeline.waitForStateChange(timeoutNanoseconds: 100_000_000) {
            case .reached: return
            case .stillChanging: try watch.check()
            case .failed:
                try checkForError(errors)
                throw GStreamerError.stateChange(element: pipeline.name, to: .paused)
            }
        }
    }

    /// Throws the first error posted on the bus that `errors` watches. Nothing is taken off
    /// the bus: its reader (``waitForEndOfStream(_:watch:progress:poll:)``) still sees it all.
    static func checkForError(_ errors: ErrorWatch) throws(GStreamerError) {
        if let failure = errors.failure { throw .element(failure) }
    }
}

import GStreamer

/// Waits on a pipeline's bus from the calling thread (trim runs on its own thread, never
/// on the Swift concurrency pool).
enum PipelineRunner {
    /// Blocks until end of stream; throws the first error an element posts.
    static func waitForEndOfStream(_ pipeline: Pipeline) throws(GStreamerError) {
        guard let bus = pipeline.bus else { throw .parse("the pipeline has no bus") }
        while true {
            guard let message = bus.pop(timeoutNanoseconds: 100_000_000) else { continue }
            switch message {
            case .endOfStream: return
            case .error(let failure): throw .element(failure)
            default: continue
            }
        }
    }

    /// Throws the first error waiting on the bus, without blocking.
    static func checkForError(_ pipeline: Pipeline) throws(GStreamerError) {
        if let failure = pipeline.bus?.popError() { throw .element(failure) }
    }
}

import GStreamer
import Synchronization
import Testing

/// A failed state change is explained by the error an element posted about it, and finding
/// that error takes nothing off the bus: the bus's reader still gets every message.
@Suite struct PostedErrorTests {
    /// A pipeline whose source fails on the way to PAUSED (filesrc cannot open its file)
    /// and posts why.
    private func failingPipeline() throws -> Pipeline {
        try Pipeline.parse("filesrc name=reader location=/nonexistent/camrec-posted-error ! fakesink")
    }

    /// The names of the application messages and whether an error follows them, read off
    /// the bus without waiting.
    private func queued(on bus: Bus) -> (applications: [String], errorFrom: String?) {
        var names: [String] = []
        var errorFrom: String?
        while let message = bus.pop(timeoutNanoseconds: 0) {
            switch message {
            case .application(_, let name): names.append(name)
            case .error(let failure): errorFrom = errorFrom ?? failure.source.name
            default: break
            }
        }
        return (names, errorFrom)
    }

    @Test func aFailedStateChangeThrowsTheElementsErrorAndLeavesTheBusAsItWas() throws {
        let pipeline = try failingPipeline()
        defer { _ = try? pipeline.setState(.null) }
        let bus = try #require(pipeline.bus)
        // A message queued before the failure: the reader has not read it yet.
        #expect(pipeline.postApplicationMessage("camrec/before"))
        let thrown: GStreamerError
        do {
            try pipeline.setStateThrowingPostedError(.paused)
            Issue.record("a missing file was opened")
            return
        } catch {
            thrown = error
        }
        guard case .element(let failure) = thrown else {
            Issue.record("the bare \(thrown) was thrown, not the element's error")
            return
        }
        // The element's own text reaches the thrown error.
        #expect(failure.source.name == "reader")
        #expect(failure.isResourceError(.notFound))
        #expect(failure.debug.contains("No such file"))
        #expect(thrown.description.contains("reader: \(failure.message)"))
        // Nothing was taken off the bus: the earlier message, then the error itself.
        let left = queued(on: bus)
        #expect(left.applications == ["camrec/before"], "the message queued before the failure is gone")
        #expect(left.errorFrom == "reader", "the error is still there for the reader")
    }

    @Test func aStateChangeThatSucceedsReturnsAsSetStateDoes() throws {
        let pipeline = try Pipeline.parse("fakesrc num-buffers=1 ! fakesink")
        defer { _ = try? pipeline.setState(.null) }
        #expect(try pipeline.setStateThrowingPostedError(.ready) == .success)
    }

    @Test func aWatchNotesTheFirstErrorAndLeavesEveryMessageQueued() throws {
        let pipeline = try failingPipeline()
        defer { _ = try? pipeline.setState(.null) }
        let bus = try #require(pipeline.bus)
        let told = Mutex<[String]>([])
        let watch = ErrorWatch(errorsOf: pipeline) { failure in told.withLock { $0.append(failure.source.name) } }
        defer { watch.stop() }
        #expect(watch.failure == nil)
        #expect(pipeline.postApplicationMessage("camrec/before"))
        #expect(throws: GStreamerError.self) { try pipeline.setState(.paused) }
        // The first error is filesrc's own (basesrc then posts a second, that it failed to
        // start): `then` hears each, `failure` keeps the first.
        #expect(watch.failure?.source.name == "reader")
        #expect(watch.failure?.debug.contains("No such file") == true)
        let heard = told.withLock { $0 }
        #expect(heard.isEmpty == false && heard.allSatisfy { $0 == "reader" }, "\(heard)")
        let left = queued(on: bus)
        #expect(left.applications == ["camrec/before"])
        #expect(left.errorFrom == "reader")
        // Once stopped, the watch keeps what it saw and hears nothing more.
        watch.stop()
        _ = try? pipeline.setState(.null)
        #expect(throws: GStreamerError.self) { try pipeline.setState(.paused) }
        #expect(told.withLock { $0 } == heard)
        #expect(watch.failure?.debug.contains("No such file") == true)
    }

    @Test func anElementOutsideAPipelineHasAWatchThatSeesNothing() throws {
        let element = try Element.make("fakesink")
        let watch = ErrorWatch(errorsOf: element)
        #expect(watch.failure == nil)
    }
}

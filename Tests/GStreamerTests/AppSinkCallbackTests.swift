import Foundation
import GStreamer
import Synchronization
import Testing

/// AppSink callbacks let a reader block on data instead of polling; the bus's sync messages
/// wake a thread when something is posted, and leave the message for the bus's reader.
@Suite struct AppSinkCallbackTests {
    @Test func callbacksDeliverEverySampleAndTheEnd() throws {
        let pipeline = try Pipeline.parse(
            "videotestsrc num-buffers=5 ! video/x-raw,width=16,height=16 ! appsink name=out sync=false")
        let sink = try AppSink(pipeline.element(named: "out"))
        let times = Mutex<[UInt64]>([])
        let ended = DispatchSemaphore(value: 0)
        let token = sink.setCallbacks(
            newSample: { view in
                if let sample = view.pullSample() { times.withLock { $0.append(sample.timing?.pts ?? 0) } }
                return .ok
            },
            endOfStream: { ended.signal() }
        )
        defer { token.remove() }
        try pipeline.setState(.playing)
        defer { _ = try? pipeline.setState(.null) }
        #expect(ended.wait(timeout: .now() + 10) == .success, "no end of stream")
        let seen = times.withLock { $0 }
        #expect(seen.count == 5)
        #expect(seen == seen.sorted())
        #expect(sink.isEndOfStream)
    }

    @Test func aReaderBlocksUntilTheCallbackSaysASampleIsQueued() throws {
        let fed = try FedPipeline()
        defer { fed.stop() }
        let queued = DispatchSemaphore(value: 0)
        // The callback only announces: the sample stays queued for the reader.
        let token = fed.sink.setCallbacks(newSample: { _ in
            queued.signal()
            return .ok
        })
        defer { token.remove() }
        #expect(fed.sink.pullSample(timeoutNanoseconds: 0) == nil)
        let buffer = try #require(Buffer(bytes: [4, 5]))
        #expect(fed.source.push(buffer) == .ok)
        #expect(queued.wait(timeout: .now() + 5) == .success)
        let sample = try #require(fed.sink.pullSample(timeoutNanoseconds: 0))
        #expect(sample.bytes == [4, 5])
    }

    @Test func removingTheTokenStopsCallbacksAndReleasesThem() throws {
        let fed = try FedPipeline()
        defer { fed.stop() }
        let calls = Mutex(0)
        weak var released: CallbackWitness?
        let token: AppSinkCallbacksToken
        do {
            let witness = CallbackWitness()
            released = witness
            token = fed.sink.setCallbacks(newSample: { _ in
                _ = witness
                calls.withLock { $0 += 1 }
                return .ok
            })
        }
        // roundTrip pulls the sample after the callback announced it.
        _ = try #require(try fed.roundTrip([1], pts: 0))
        // appsink queues the sample before it calls back: the reader may pull it first.
        #expect(Wait.until { calls.withLock { $0 } == 1 })
        #expect(released != nil)
        token.remove()
        #expect(Wait.until { released == nil }, "removing the callbacks released them")
        _ = try #require(try fed.roundTrip([2], pts: 1))
        #expect(calls.withLock { $0 } == 1, "no call after remove()")
        token.remove()  // idempotent
    }

    @Test func newCallbacksReplaceOldOnesWhoseTokenThenDoesNothing() throws {
        let fed = try FedPipeline()
        defer { fed.stop() }
        let first = Mutex(0)
        let second = Mutex(0)
        weak var firstReleased: CallbackWitness?
        let firstToken: AppSinkCallbacksToken
        do {
            let witness = CallbackWitness()
            firstReleased = witness
            firstToken = fed.sink.setCallbacks(newSample: { _ in
                _ = witness
                first.withLock { $0 += 1 }
                return .ok
            })
        }
        let secondToken = fed.sink.setCallbacks(newSample: { _ in
            second.withLock { $0 += 1 }
            return .ok
        })
        defer { secondToken.remove() }
        firstToken.remove()  // the first set is gone already: this must not remove the second
        #expect(Wait.until { firstReleased == nil })
        _ = try #require(try fed.roundTrip([1], pts: 0))
        #expect(Wait.until { second.withLock { $0 } == 1 })
        #expect(first.withLock { $0 } == 0)
    }

    @Test func syncMessagesWakeAThreadAndStayOnTheBus() throws {
        let pipeline = try Pipeline.parse("fakesrc ! fakesink")
        let bus = try #require(pipeline.bus)
        let seen = Mutex<[String]>([])
        let errors = Mutex(0)
        let token = bus.onSyncMessage("application") { message in
            if case .application(_, let name) = message { seen.withLock { $0.append(name) } }
        }
        let errorToken = bus.onSyncMessage("error") { _ in errors.withLock { $0 += 1 } }
        defer { errorToken.disconnect() }
        // Posting calls the handler on this thread, before anyone pops the message.
        #expect(pipeline.postApplicationMessage("camrec/first"))
        #expect(seen.withLock { $0 } == ["camrec/first"])
        token.disconnect()
        #expect(pipeline.postApplicationMessage("camrec/second"))
        #expect(seen.withLock { $0 } == ["camrec/first"], "no call after disconnect()")
        #expect(errors.withLock { $0 } == 0, "the error handler sees only errors")
        // Both messages are still queued for the bus's reader.
        var names: [String] = []
        while let message = bus.pop(timeoutNanoseconds: 0) {
            if case .application(_, let name) = message { names.append(name) }
        }
        #expect(names == ["camrec/first", "camrec/second"])
    }

    @Test func anErrorPostedByAnElementReachesASyncHandler() throws {
        let pipeline = try Pipeline.parse("filesrc name=reader location=/nonexistent/camrec-test ! fakesink")
        let bus = try #require(pipeline.bus)
        let sources = Mutex<[String]>([])
        let token = bus.onSyncMessage("error") { message in
            if case .error(let failure) = message { sources.withLock { $0.append(failure.source.name) } }
        }
        defer { token.disconnect() }
        #expect(throws: GStreamerError.self) { try pipeline.setState(.playing) }
        defer { _ = try? pipeline.setState(.null) }
        #expect(sources.withLock { $0.first } == "reader")
        var queuedError: String?
        while queuedError == nil, let message = bus.pop(timeoutNanoseconds: 0) {
            if case .error(let failure) = message { queuedError = failure.source.name }
        }
        #expect(queuedError == "reader", "the error is still there for the reader")
    }
}

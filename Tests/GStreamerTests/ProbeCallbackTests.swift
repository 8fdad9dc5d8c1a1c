import GStreamer
import Synchronization
import Testing

/// Something a callback captures, watched with a weak reference: it is released with the
/// callback's box.
final class CallbackWitness: Sendable {}

/// An `appsrc ! appsink` pipeline that we feed and read one buffer at a time, so that
/// every callback has run by the time the buffer is read (no sleeping).
struct FedPipeline {
    let pipeline: Pipeline
    let source: AppSrc
    let sink: AppSink

    init(extra: String = "") throws {
        pipeline = try Pipeline.parse("appsrc name=in format=time \(extra) ! appsink name=out sync=false")
        source = try AppSrc(pipeline.element(named: "in"))
        sink = try AppSink(pipeline.element(named: "out"))
        try pipeline.setState(.playing)
    }

    /// Pushes a buffer of `bytes` stamped `pts` and returns what reached the appsink.
    func roundTrip(_ bytes: [UInt8], pts: UInt64) throws -> Sample? {
        guard var buffer = WritableBuffer(bytes: bytes) else { throw OutOfMemory() }
        buffer.pts = pts
        #expect(source.push(buffer.finished()) == .ok)
        return sink.pullSample(timeoutNanoseconds: 5_000_000_000)
    }

    func stop() { _ = try? pipeline.setState(.null) }
}

/// One pad-probe API: a borrowed view of the buffer or event, and a decision that passes,
/// drops, removes or replaces it.
@Suite struct ProbeCallbackTests {
    @Test func aProbeDropsBuffers() throws {
        let pipeline = try Pipeline.parse("videotestsrc num-buffers=10 ! video/x-raw,width=16,height=16 ! appsink name=out sync=false")
        let sink = try AppSink(pipeline.element(named: "out"))
        let seen = Mutex(0)
        let token = try sink.staticPad("sink").addProbe(.buffer) { info in
            guard info.buffer != nil else { return .pass }
            let index = seen.withLock { count -> Int in
                defer { count += 1 }
                return count
            }
            return index.isMultiple(of: 2) ? .pass : .drop
        }
        defer { token.remove() }
        try pipeline.setState(.playing)
        defer { _ = try? pipeline.setState(.null) }
        var received: [UInt64] = []
        while let sample = sink.pullSample(timeoutNanoseconds: 5_000_000_000) {
            received.append(sample.timing?.pts ?? 0)
        }
        #expect(sink.isEndOfStream)
        #expect(seen.withLock { $0 } == 10)
        #expect(received.count == 5)
        #expect(received == received.sorted())
    }

    @Test func aProbeReadsABorrowedBufferWithoutTakingAReference() throws {
        let fed = try FedPipeline()
        defer { fed.stop() }
        let observed = Mutex<(pts: UInt64?, size: Int, first: UInt8?, keyframe: Bool, counts: [Int])>((nil, 0, nil, false, []))
        let token = try fed.sink.staticPad("sink").addProbe(.buffer) { info in
            guard let buffer = info.buffer else { return .pass }
            let borrowed = buffer.referenceCount
            let kept = buffer.retained()   // one reference of our own
            let counts = [borrowed, kept.referenceCount]
            observed.withLock {
                $0 = (buffer.pts, buffer.size, buffer.withBytes { $0.first } ?? nil, buffer.isKeyframe, counts)
            }
            return .pass
        }
        defer { token.remove() }
        let sample = try #require(try fed.roundTrip([7, 8, 9], pts: 40_000_000))
        let seen = observed.withLock { $0 }
        #expect(seen.pts == 40_000_000)
        #expect(seen.size == 3)
        #expect(seen.first == 7)
        #expect(seen.keyframe)
        // The view took no reference; `retained()` took exactly one.
        #expect(seen.counts.count == 2 && seen.counts[1] == seen.counts[0] + 1, "\(seen.counts)")
        #expect(sample.bytes == [7, 8, 9])
    }

    @Test func aProbeReplacesBuffersWithChangedCopies() throws {
        let fed = try FedPipeline()
        defer { fed.stop() }
        let token = try fed.sink.staticPad("sink").addProbe(.buffer) { info in
            guard let buffer = info.buffer, var copy = buffer.writableCopy() else { return .pass }
            copy.pts = (buffer.pts ?? 0) + 1_000_000_000
            _ = copy.withMutableBytes { $0[0] = 0xFF }
            return .replace(copy.finished())
        }
        defer { token.remove() }
        guard var made = WritableBuffer(bytes: [1, 2, 3]) else { throw OutOfMemory() }
        made.pts = 5
        let original = made.finished()
        #expect(fed.source.push(original) == .ok)
        let sample = try #require(fed.sink.pullSample(timeoutNanoseconds: 5_000_000_000))
        #expect(sample.timing?.pts == 1_000_000_005)
        #expect(sample.bytes == [0xFF, 2, 3])
        // The buffer we pushed is untouched: the probe changed its own copy.
        #expect(original.pts == 5)
        #expect(original.bytes == [1, 2, 3])
    }

    @Test func aProbeReplacesEvents() throws {
        let pipeline = try Pipeline.parse("videotestsrc num-buffers=1 name=src ! appsink name=out sync=false")
        let sink = try AppSink(pipeline.element(named: "out"))
        let capsSeen = Mutex<[String]>([])
        let token = try pipeline.element(named: "src").staticPad("src").addProbe(.downstreamEvent) { info in
            guard let event = info.event else { return .pass }
            if let caps = event.caps { capsSeen.withLock { $0.append(caps.mediaType ?? "") } }
            guard event.type == .segment, var segment = event.segment, segment.isTime else { return .pass }
            segment.time = 42_000_000_000
            return Event.segment(segment, seqnum: event.seqnum).map { .replaceEvent($0) } ?? .pass
        }
        defer { token.remove() }
        try pipeline.setState(.playing)
        defer { _ = try? pipeline.setState(.null) }
        _ = try #require(sink.pullSample(timeoutNanoseconds: 5_000_000_000))
        // The appsink received the replacement; the source's own pad keeps the original.
        #expect(try sink.staticPad("sink").segmentTimes?.time == 42_000_000_000)
        #expect(try pipeline.element(named: "src").staticPad("src").segmentTimes?.time == 0)
        #expect(capsSeen.withLock { $0 } == ["video/x-raw"])
    }

    @Test func removingTheTokenStopsCallbacksAndReleasesTheCallback() throws {
        let fed = try FedPipeline()
        defer { fed.stop() }
        let calls = Mutex(0)
        weak var released: CallbackWitness?
        let token: ProbeToken
        do {
            let witness = CallbackWitness()
            released = witness
            token = try fed.sink.staticPad("sink").addProbe(.buffer) { _ in
                _ = witness
                calls.withLock { $0 += 1 }
                return .pass
            }
        }
        _ = try #require(try fed.roundTrip([1], pts: 0))
        #expect(calls.withLock { $0 } == 1)
        #expect(released != nil, "the probe holds its callback")
        token.remove()
        #expect(released == nil, "removing the probe released its callback")
        _ = try #require(try fed.roundTrip([2], pts: 1))
        #expect(calls.withLock { $0 } == 1, "no call after remove()")
        token.remove()  // idempotent
    }

    @Test func droppingTheTokenRemovesTheProbe() throws {
        let fed = try FedPipeline()
        defer { fed.stop() }
        let calls = Mutex(0)
        weak var released: CallbackWitness?
        do {
            let witness = CallbackWitness()
            released = witness
            let token = try fed.sink.staticPad("sink").addProbe(.buffer) { _ in
                _ = witness
                calls.withLock { $0 += 1 }
                return .pass
            }
            _ = try #require(try fed.roundTrip([1], pts: 0))
            _ = token
        }
        #expect(released == nil)
        _ = try #require(try fed.roundTrip([2], pts: 1))
        #expect(calls.withLock { $0 } == 1)
    }

    @Test func aCallbackCanRemoveItsOwnProbe() throws {
        let fed = try FedPipeline()
        defer { fed.stop() }
        let calls = Mutex(0)
        weak var released: CallbackWitness?
        let token: ProbeToken
        do {
            let witness = CallbackWitness()
            released = witness
            token = try fed.sink.staticPad("sink").addProbe(.buffer) { _ in
                _ = witness
                calls.withLock { $0 += 1 }
                return .remove
            }
        }
        _ = try #require(try fed.roundTrip([1], pts: 0))
        _ = try #require(try fed.roundTrip([2], pts: 1))
        #expect(calls.withLock { $0 } == 1)
        #expect(released == nil)
        token.remove()  // nothing left to remove: no effect
    }
}

import CGStreamer
import Foundation
import GStreamer
import Synchronization
import Testing

/// Pad probes through the bindings (`Pad.addProbe`, `Pad.addBufferProbe`, `ProbeToken`):
/// what the callback sees, what its decision does, and that removing it stops the calls
/// and releases the Swift closure. Small real pipelines; every wait is for a condition.
@Suite struct PadProbeTests {
    /// `.drop` keeps a buffer from the peer: every other one dropped on the source's pad,
    /// half of them reach the sink.
    @Test func dropDecisionKeepsTheBufferFromThePeer() throws {
        let pipeline = try Pipeline.parse("videotestsrc num-buffers=10 name=src ! fakesink name=sink")
        let seen = Mutex(0)
        let arrived = Mutex(0)
        let dropper = try pipeline.element(named: "src").staticPad("src").addProbe(.buffer) { data in
            guard case .buffer = data else { return .pass }
            let index = seen.withLock { count in
                defer { count += 1 }
                return count
            }
            return index % 2 == 1 ? .drop : .pass
        }
        let counter = try pipeline.element(named: "sink").staticPad("sink").addProbe(.buffer) { _ in
            arrived.withLock { $0 += 1 }
            return .pass
        }
        let messages = try runToEnd(pipeline)
        dropper.remove()
        counter.remove()
        #expect(messages.contains(.endOfStream))
        #expect(seen.withLock { $0 } == 10)
        #expect(arrived.withLock { $0 } == 5)
    }

    /// `.remove` lets the buffer through and removes the probe: one call, and every buffer
    /// still reaches the sink.
    @Test func removeDecisionRunsTheCallbackOnce() throws {
        let pipeline = try Pipeline.parse("videotestsrc num-buffers=10 name=src ! fakesink name=sink")
        let calls = Mutex(0)
        let arrived = Mutex(0)
        let once = try pipeline.element(named: "src").staticPad("src").addProbe(.buffer) { _ in
            calls.withLock { $0 += 1 }
            return .remove
        }
        let counter = try pipeline.element(named: "sink").staticPad("sink").addProbe(.buffer) { _ in
            arrived.withLock { $0 += 1 }
            return .pass
        }
        let messages = try runToEnd(pipeline)
        #expect(messages.contains(.endOfStream))
        #expect(calls.withLock { $0 } == 1)
        #expect(arrived.withLock { $0 } == 10)
        once.remove()  // already removed by GStreamer: harmless
        counter.remove()
    }

    /// A downstream-event probe sees the segment before the end of stream, and no buffers.
    @Test func eventProbeSeesSegmentThenEndOfStream() throws {
        let pipeline = try Pipeline.parse("videotestsrc num-buffers=3 name=src ! fakesink name=sink")
        let seen = Mutex<[ProbeData]>([])
        let token = try pipeline.element(named: "sink").staticPad("sink").addProbe(.downstreamEvent) { data in
            seen.withLock { $0.append(data) }
            return .pass
        }
        let messages = try runToEnd(pipeline)
        token.remove()
        #expect(messages.contains(.endOfStream))
        let events = seen.withLock { $0 }
        #expect(!events.contains { if case .buffer = $0 { true } else { false } }, "\(events)")
        let segment = try #require(events.firstIndex(of: .segment), "\(events)")
        let end = try #require(events.firstIndex(of: .endOfStream), "\(events)")
        #expect(segment < end)
        #expect(events.last == .endOfStream)
    }

    /// Buffers pushed one at a time through an appsrc, with two probes on the sink's pad:
    /// after `remove()` the first is never called again while the second goes on, and the
    /// first's closure (and what it captured) is released.
    @Test func removedProbeIsNeverCalledAgainAndItsClosureIsReleased() throws {
        let feed = try PushedBuffers()
        let removedCalls = SharedCount()
        let closure: CanaryWatch
        let removed: ProbeToken
        do {
            // Only the closure holds the canary.
            let canary = Canary()
            closure = CanaryWatch(canary)
            removed = feed.sinkPad.addProbe(.buffer) { [canary] _ in
                _ = canary
                removedCalls.add()
                return .pass
            }
        }
        try feed.start()
        try feed.push(1)
        #expect(removedCalls.value == 1)
        removed.remove()
        removed.remove()  // idempotent
        #expect(Wait.until { !closure.isAlive }, "the removed probe's closure is still alive")
        try feed.push(2)
        try feed.push(3)
        #expect(removedCalls.value == 1, "a removed probe was called")
        try feed.finish()
    }

    /// Dropping the last reference to the token removes the probe as `remove()` does.
    @Test func droppedTokenRemovesTheProbe() throws {
        let feed = try PushedBuffers()
        let calls = Mutex(0)
        let closure: CanaryWatch
        do {
            let canary = Canary()
            closure = CanaryWatch(canary)
            let token = feed.sinkPad.addProbe(.buffer) { [canary] _ in
                _ = canary
                calls.withLock { $0 += 1 }
                return .pass
            }
            try feed.start()
            try feed.push(1)
            withExtendedLifetime(token) {}
        }
        #expect(Wait.until { !closure.isAlive }, "the dropped token's closure is still alive")
        try feed.push(2)
        #expect(calls.withLock { $0 } == 1)
        try feed.finish()
    }

    /// `addBufferProbe` hands the callback the buffer itself: its bytes and timing.
    @Test func bufferProbeSeesEachBuffersBytes() throws {
        let pipeline = try Pipeline.parse(
            "videotestsrc num-buffers=4 pattern=white name=src ! video/x-raw,format=GRAY8,width=16,height=8,framerate=30/1"
                + " ! fakesink name=sink")
        let seen = Mutex<[(pts: UInt64?, bytes: [UInt8])]>([])
        let closure: CanaryWatch
        let token: ProbeToken
        do {
            let canary = Canary()
            closure = CanaryWatch(canary)
            token = try pipeline.element(named: "sink").staticPad("sink").addBufferProbe { [canary] buffer in
                _ = canary
                let entry = (pts: buffer.pts, bytes: buffer.bytes)
                seen.withLock { $0.append(entry) }
                return .pass
            }
        }
        let messages = try runToEnd(pipeline)
        #expect(messages.contains(.endOfStream))
        token.remove()
        #expect(Wait.until { !closure.isAlive }, "the buffer probe's closure is still alive")
        let buffers = seen.withLock { $0 }
        #expect(buffers.count == 4)
        #expect(buffers.allSatisfy { $0.bytes.count == 16 * 8 })
        // videotestsrc's white is limited-range white (235) everywhere.
        #expect(buffers.allSatisfy { $0.bytes.allSatisfy { $0 == 235 } })
        #expect(buffers.map(\.pts) == (0..<4).map { UInt64($0) * 1_000_000_000 / 30 })
    }
}

/// `appsrc ! fakesink`: buffers go in one at a time, and `push(_:)` returns once the sink's
/// pad has seen the buffer (a probe added last counts them), so a test knows exactly which
/// buffers passed while its own probe was registered.
final class PushedBuffers {
    let pipeline: Pipeline
    let source: AppSrc
    let sinkPad: Pad
    private let arrived = SharedCount()
    private var counter: ProbeToken?
    private var pushed = 0

    init() throws {
        pipeline = try Pipeline.parse("appsrc name=in format=time ! fakesink name=sink sync=false")
        source = try AppSrc(pipeline.element(named: "in"))
        sinkPad = try pipeline.element(named: "sink").staticPad("sink")
    }

    /// Adds the counting probe (after the test's own: probes run in the order they were
    /// added, so when it has seen a buffer, so have they) and starts the pipeline.
    func start() throws {
        let arrived = self.arrived
        counter = sinkPad.addProbe(.buffer) { _ in
            arrived.add()
            return .pass
        }
        try pipeline.setState(.playing)
    }

    /// Pushes one buffer (its bytes: `value`) and waits until the sink has it.
    func push(_ value: UInt8) throws {
        let buffer = try #require(Buffer(bytes: [value]))
        buffer.pts = UInt64(pushed) * 1_000_000
        #expect(source.push(buffer) == .ok)
        pushed += 1
        let target = pushed
        try #require(Wait.until { arrived.value >= target }, "buffer \(target) never reached the sink")
    }

    /// Ends the stream and waits for end of stream on the bus, then stops the pipeline.
    func finish() throws {
        #expect(source.endOfStream() == .ok)
        let bus = try #require(pipeline.bus)
        var ended = false
        while let message = bus.pop(timeoutNanoseconds: 60_000_000_000) {
            if message == .endOfStream { ended = true; break }
            if case .error(let failure) = message { Issue.record("\(failure)"); break }
        }
        #expect(ended, "no end of stream within 60 s")
        try pipeline.setState(.null)
        counter?.remove()
    }

    deinit {
        _ = try? pipeline.setState(.null)
    }
}

/// A count that callbacks on streaming threads add to.
final class SharedCount: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

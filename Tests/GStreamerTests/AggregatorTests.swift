import GStreamer
import Synchronization
import Testing

/// An aggregator says which input buffer each output frame is made of: "samples-selected"
/// with `peekNextSample` (what camrec uses to place a camera's still on a canvas).
@Suite struct AggregatorTests {
    @Test func eachOutputFrameNamesTheInputFramesItAggregates() throws {
        // Input 1 at 30 fps, input 2 at 15 fps, the output at 30: output frame k is made of
        // input 1's frame k and input 2's frame k / 2.
        let pipeline = try Pipeline.parse("""
            compositor name=canvas emit-signals=true ! video/x-raw,framerate=30/1 ! fakesink \
            videotestsrc name=fast num-buffers=10 ! video/x-raw,width=32,height=24,framerate=30/1 ! canvas.sink_0 \
            videotestsrc name=slow num-buffers=5 ! video/x-raw,width=32,height=24,framerate=15/1 ! canvas.sink_1
            """)
        let canvas = try pipeline.element(named: "canvas")
        #expect(canvas.isAggregator)
        #expect(!(try pipeline.element(named: "fast")).isAggregator)
        let pads = try [canvas.staticPad("sink_0"), canvas.staticPad("sink_1")]
        let seen = Mutex<[(UInt64, [UInt64?])]>([])
        let token = try canvas.connect("samples-selected") { arguments in
            guard let output = arguments.uint(2) else { return }
            let inputs = pads.map { canvas.peekNextSample($0)?.timing?.pts }
            seen.withLock { $0.append((output, inputs)) }
        }
        defer { token.disconnect() }
        let messages = try runToEnd(pipeline)
        #expect(messages.contains(.endOfStream))
        let frames = seen.withLock { $0 }
        let interval: UInt64 = 1_000_000_000 / 30
        try #require(frames.count == 10, "\(frames)")
        for (k, (output, inputs)) in frames.enumerated() {
            #expect(output / interval == UInt64(k) || (output + 1) / interval == UInt64(k), "output \(k) at \(output)")
            #expect(inputs[0].map { ($0 + interval / 2) / interval } == UInt64(k), "frame \(k): \(inputs)")
            #expect(inputs[1].map { ($0 + interval) / (2 * interval) } == UInt64(k / 2), "frame \(k): \(inputs)")
        }
        // Not an aggregator's pad, or not an aggregator: nil.
        let source = try pipeline.element(named: "fast")
        #expect(source.peekNextSample(pads[0]) == nil)
        #expect(canvas.peekNextSample(try source.staticPad("src")) == nil)
    }
}

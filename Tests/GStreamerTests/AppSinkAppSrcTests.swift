import CGStreamer
import Foundation
import GStreamer
import Testing

/// `AppSink` and `AppSrc`: where camrec's code takes frames out of a pipeline and puts
/// them into another (the stills encoder, trim's re-encoding).
@Suite struct AppSinkAppSrcTests {
    static let timeout: UInt64 = 60_000_000_000

    /// Waits for end of stream (or an error) on the pipeline's bus.
    func waitForEnd(_ pipeline: Pipeline) throws -> Bool {
        let bus = try #require(pipeline.bus)
        while let message = bus.pop(timeoutNanoseconds: Self.timeout) {
            if message == .endOfStream { return true }
            if case .error(let failure) = message {
                Issue.record("\(failure)")
                return false
            }
        }
        Issue.record("no end of stream within 60 s")
        return false
    }

    /// Every sample in order, then nil at end of stream (at once, not after the time-out).
    @Test func appSinkDeliversEverySampleThenEndOfStream() throws {
        let pipeline = try Pipeline.parse(
            "videotestsrc num-buffers=5 ! video/x-raw,format=GRAY8,width=16,height=8,framerate=30/1 ! appsink name=out sync=false")
        let sink = try AppSink(pipeline.element(named: "out"))
        try pipeline.setState(.playing)
        defer { _ = try? pipeline.setState(.null) }
        var times: [UInt64?] = []
        for index in 0..<5 {
            let sample = try #require(sink.pullSample(timeoutNanoseconds: Self.timeout), "sample \(index) never came")
            #expect(sample.bytes.count == 16 * 8)
            times.append(sample.timing?.pts)
        }
        #expect(times == (0..<5).map { UInt64($0) * 1_000_000_000 / 30 })
        #expect(sink.pullSample(timeoutNanoseconds: Self.timeout) == nil)
        #expect(sink.isEndOfStream)
        #expect(try waitForEnd(pipeline))
    }

    /// The preroll sample is the first frame, there while the pipeline is only paused.
    @Test func appSinkPrerollIsTheFirstFrame() throws {
        let pipeline = try Pipeline.parse(
            "videotestsrc num-buffers=3 ! video/x-raw,format=GRAY8,width=16,height=8,framerate=30/1 ! appsink name=out")
        let sink = try AppSink(pipeline.element(named: "out"))
        try pipeline.setState(.paused)
        defer { _ = try? pipeline.setState(.null) }
        let preroll = try #require(sink.pullPreroll(timeoutNanoseconds: Self.timeout))
        #expect(preroll.timing?.pts == 0)
        #expect(preroll.caps?.int("height") == 8)
        #expect(pipeline.waitForStateChange(timeoutNanoseconds: Self.timeout) == .reached(.paused))
    }

    @Test func wrappersRefuseOtherElements() throws {
        let fakesink = try Element.make("fakesink")
        #expect(throws: GStreamerError.self) { try AppSink(fakesink) }
        #expect(throws: GStreamerError.self) { try AppSrc(fakesink) }
    }

    /// Buffers pushed into an appsrc come out of an appsink with their bytes and times, in
    /// order, then end of stream; a push after end of stream is refused.
    @Test func appSrcBuffersComeOutUnchanged() throws {
        let pipeline = try Pipeline.parse("appsrc name=in format=time ! appsink name=out sync=false")
        let source = try AppSrc(pipeline.element(named: "in"))
        let sink = try AppSink(pipeline.element(named: "out"))
        source.setCaps(try Caps("video/x-raw,format=GRAY8,width=4,height=2,framerate=30/1"))
        try pipeline.setState(.playing)
        defer { _ = try? pipeline.setState(.null) }
        let frames: [[UInt8]] = (0..<4).map { index in (0..<8).map { UInt8(index * 10 + $0) } }
        for (index, bytes) in frames.enumerated() {
            guard var made = WritableBuffer(bytes: bytes) else { throw OutOfMemory() }
            made.pts = UInt64(index) * 33_333_333
            made.duration = 33_333_333
            made.isKeyframe = index == 0
            let buffer = made.finished()
            #expect(source.push(buffer) == .ok)
            // The wrapper keeps its own reference: the buffer is still readable.
            #expect(buffer.bytes == bytes)
        }
        #expect(source.endOfStream() == .ok)
        for (index, bytes) in frames.enumerated() {
            let sample = try #require(sink.pullSample(timeoutNanoseconds: Self.timeout), "frame \(index) never came out")
            #expect(sample.bytes == bytes)
            #expect(sample.timing?.pts == UInt64(index) * 33_333_333)
            #expect(sample.timing?.duration == 33_333_333)
            #expect(sample.timing?.isKeyframe == (index == 0))
            #expect(sample.caps?.string("format") == "GRAY8")
        }
        #expect(sink.pullSample(timeoutNanoseconds: Self.timeout) == nil)
        #expect(sink.isEndOfStream)
        #expect(try waitForEnd(pipeline))
        #expect(source.push(try #require(Buffer(bytes: [1]))) == .endOfStream)
    }

    /// A sample taken from one pipeline's appsink is pushed, caps and all, into another's
    /// appsrc: what the stills encoder does with camera frames.
    @Test func sampleFromOnePipelineFeedsAnother() throws {
        let first = try Pipeline.parse(
            "videotestsrc num-buffers=1 pattern=white ! video/x-raw,format=GRAY8,width=16,height=8,framerate=30/1 ! appsink name=out sync=false")
        let taken = try AppSink(first.element(named: "out"))
        try first.setState(.playing)
        defer { _ = try? first.setState(.null) }
        let sample = try #require(taken.pullSample(timeoutNanoseconds: Self.timeout))

        let second = try Pipeline.parse("appsrc name=in format=time ! videoconvert ! video/x-raw,format=RGB ! appsink name=out sync=false")
        let source = try AppSrc(second.element(named: "in"))
        let sink = try AppSink(second.element(named: "out"))
        try second.setState(.playing)
        defer { _ = try? second.setState(.null) }
        #expect(source.push(sample) == .ok)
        #expect(source.endOfStream() == .ok)
        let converted = try #require(sink.pullSample(timeoutNanoseconds: Self.timeout))
        #expect(converted.caps?.string("format") == "RGB")
        #expect(converted.caps?.int("width") == 16)
        // RGB rows are padded to 4 bytes: 16 × 3 = 48 needs none.
        #expect(converted.bytes.count == 16 * 8 * 3)
        // GRAY8 is full range: videotestsrc's white (235) converts to grey 235 in every channel.
        #expect(converted.bytes.allSatisfy { $0 == 235 }, "the frame was converted as pushed")
        #expect(try waitForEnd(second))
    }

    /// `push(_:segmentStart:)` opens a segment at that time, with stream time 0 there.
    @Test func pushWithSegmentStartOpensThatSegment() throws {
        let pipeline = try Pipeline.parse(
            "appsrc name=in format=time handle-segment-change=true ! appsink name=out sync=false")
        let source = try AppSrc(pipeline.element(named: "in"))
        let sink = try AppSink(pipeline.element(named: "out"))
        source.setCaps(try Caps("video/x-raw,format=GRAY8,width=2,height=2,framerate=30/1"))
        try pipeline.setState(.playing)
        defer { _ = try? pipeline.setState(.null) }
        guard var buffer = WritableBuffer(bytes: [1, 2, 3, 4]) else { throw OutOfMemory() }
        buffer.pts = 5_000_000_000
        buffer.dts = 4_900_000_000
        #expect(source.push(buffer.finished(), segmentStart: 5_000_000_000) == .ok)
        let sample = try #require(sink.pullSample(timeoutNanoseconds: Self.timeout))
        #expect(sample.timing?.pts == 5_000_000_000)
        let segment = try #require(try sink.staticPad("sink").segmentTimes)
        #expect(segment.start == 5_000_000_000)
        #expect(segment.time == 0)
        #expect(source.endOfStream() == .ok)
        #expect(try waitForEnd(pipeline))
    }
}

import CGStreamer
import Foundation
import GStreamer
import Synchronization
import Testing

/// Runs a pipeline to end of stream and returns every message seen.
/// `timeoutSeconds` bounds the wait for each message, generously: a loaded machine is slow,
/// never this slow.
func runToEnd(_ pipeline: Pipeline, timeoutSeconds: UInt64 = 60) throws -> [Message] {
    let bus = try #require(pipeline.bus)
    try pipeline.setState(.playing)
    defer { _ = try? pipeline.setState(.null) }
    var messages: [Message] = []
    while true {
        guard let message = bus.pop(timeoutNanoseconds: timeoutSeconds * 1_000_000_000) else {
            Issue.record("no end of stream within \(timeoutSeconds) s")
            return messages
        }
        messages.append(message)
        if case .endOfStream = message { return messages }
        if case .error = message { return messages }
    }
}

@Suite struct PipelineTests {
    @Test func missingElementNamesTheElement() {
        #expect {
            try Pipeline.parse("videotestsrc ! no_such_element_here ! fakesink")
        } throws: { error in
            guard case GStreamerError.missingElement(let name, let hint) = error else { return false }
            return name == "no_such_element_here" && hint.contains("gst-inspect-1.0")
        }
    }

    @Test func syntaxErrorsAreParseErrors() {
        #expect(throws: GStreamerError.self) { try Pipeline.parse("videotestsrc ! ! fakesink") }
    }

    @Test func errorMessagesCarryElementMessageAndDebug() throws {
        let pipeline = try Pipeline.parse("filesrc name=reader location=/nonexistent/camrec-test ! fakesink")
        // filesrc fails on the way to PAUSED: setState throws, and the element's own error
        // waits on the bus.
        #expect(throws: GStreamerError.stateChange(element: pipeline.name, to: .playing)) {
            try pipeline.setState(.playing)
        }
        var failure: ElementFailure?
        while failure == nil, let message = pipeline.bus?.pop(timeoutNanoseconds: 0) {
            if case .error(let posted) = message { failure = posted }
        }
        _ = try? pipeline.setState(.null)
        let found = try #require(failure)
        #expect(found.source.name == "reader")
        #expect(found.message.isEmpty == false)
        #expect(found.debug.contains("No such file"))
        #expect(found.isResourceError(.notFound))
    }

    @Test func propertiesRoundTrip() throws {
        let encoder = try Element.make("x264enc")
        try encoder.set("key-int-max", 60)
        try encoder.set("tune", nick: "zerolatency")  // a flags property: by nick
        #expect(try encoder.property("key-int-max") == "60")
        let tune = try encoder.property("tune")
        #expect(tune == "Zero latency" || tune.contains("zerolatency"), "tune reads back as \(tune)")
        #expect(throws: GStreamerError.self) { try encoder.set("no-such-property", 1) }
    }

    @Test func bufferProbeSeesEveryBufferAndCanDrop() throws {
        let pipeline = try Pipeline.parse("videotestsrc num-buffers=20 name=src ! fakesink name=sink")
        let pad = try pipeline.element(named: "sink").staticPad("sink")
        let seen = Mutex<[UInt64]>([])
        let token = pad.addProbe(.buffer) { info in
            guard let pts = info.buffer?.pts else { return .pass }
            seen.withLock { $0.append(pts) }
            return .pass
        }
        let messages = try runToEnd(pipeline)
        token.remove()
        token.remove()  // idempotent
        #expect(messages.contains(.endOfStream))
        let times = seen.withLock { $0 }
        #expect(times.count == 20)
        #expect(times == times.sorted())
    }

    @Test func appSinkDeliversSamplesWithBytes() throws {
        let pipeline = try Pipeline.parse(
            "videotestsrc num-buffers=2 ! video/x-raw,format=GRAY8,width=16,height=8 ! appsink name=out sync=false")
        let sink = try AppSink(pipeline.element(named: "out"))
        try pipeline.setState(.playing)
        defer { _ = try? pipeline.setState(.null) }
        let sample = try #require(sink.pullSample(timeoutNanoseconds: 30_000_000_000))
        #expect(sample.bytes.count == 16 * 8)
        #expect(sample.caps?.int("width") == 16)
        #expect(sample.timing?.pts == 0)
    }

    @Test func applicationMessagesReachTheBus() throws {
        let pipeline = try Pipeline.parse("fakesrc ! fakesink")
        #expect(pipeline.postApplicationMessage("camrec/test"))
        let bus = try #require(pipeline.bus)
        var found = false
        while let message = bus.pop(timeoutNanoseconds: 30_000_000_000) {
            if case .application(_, "camrec/test") = message { found = true; break }
        }
        #expect(found)
    }
}

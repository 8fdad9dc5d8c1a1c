import GStreamer
import Testing

/// Errors are specific cases, a failed state change leaves the bus to its reader, and
/// messages name their source by object as well as by name.
@Suite struct ErrorCaseTests {
    /// Every message waiting on the bus, without blocking.
    func pending(_ bus: Bus) -> [Message] {
        var messages: [Message] = []
        while let message = bus.pop(timeoutNanoseconds: 0) { messages.append(message) }
        return messages
    }

    @Test func aFailedStateChangeLeavesEveryMessageOnTheBus() throws {
        let pipeline = try Pipeline.parse("filesrc name=reader location=/nonexistent/camrec-test ! fakesink name=sink")
        let reader = try pipeline.element(named: "reader")
        let bus = try #require(pipeline.bus)
        #expect(throws: GStreamerError.stateChange(element: pipeline.name, to: .playing)) {
            try pipeline.setState(.playing)
        }
        defer { _ = try? pipeline.setState(.null) }
        let messages = pending(bus)
        // The state changes that went well before the failure are still there, and so is the error.
        #expect(messages.contains { if case .stateChanged = $0 { true } else { false } })
        let errors = messages.compactMap { message -> ElementFailure? in
            if case .error(let failure) = message { failure } else { nil }
        }
        let failure = try #require(errors.first)
        #expect(errors.allSatisfy { $0.source.is(reader) }, "\(errors)")
        #expect(failure.isResourceError(.notFound))
        // The source is the element itself, not only its name.
        #expect(failure.source.name == "reader")
        #expect(failure.source.is(reader))
        #expect(failure.source.element?.factoryName == "filesrc")
        #expect(!failure.source.is(try pipeline.element(named: "sink")))
        let namesake = try Element.make("filesrc", name: "reader")
        #expect(!failure.source.is(namesake), "another element of the same name is another source")
        #expect(failure.source != MessageSource(name: "reader"))
        #expect(failure.source == MessageSource(name: "reader", object: reader))
    }

    @Test func padLinkFailuresAreLinkErrors() throws {
        let pipeline = try Pipeline.parse("videotestsrc name=a ! fakesink name=b  audiotestsrc name=c ! fakesink name=d  fakesrc name=e")
        let alreadyLinked = try pipeline.element(named: "a").staticPad("src")
        let free = try pipeline.element(named: "d").staticPad("sink")
        #expect(throws: GStreamerError.link(source: "a:src", sink: "d:sink", reason: "a pad is already linked")) {
            try alreadyLinked.link(free)
        }
        // An element in no bin (kept alive: a pad of a finalised element has no parent).
        let outsider = try Element.make("fakesink", name: "outside")
        let outside = try outsider.staticPad("sink")
        let source = try pipeline.element(named: "e").staticPad("src")
        #expect(throws: GStreamerError.link(source: "e:src", sink: "outside:sink", reason: "the pads have no common parent")) {
            try source.link(outside)
        }
    }

    @Test func elementLinkAndAddFailuresHaveTheirOwnCases() throws {
        let pipeline = try Pipeline()
        let audio = try Element.make("audiotestsrc", name: "tone")
        let video = try Element.make("videoconvert", name: "convert")
        try pipeline.add(audio)
        try pipeline.add(video)
        #expect(throws: GStreamerError.link(source: "tone", sink: "convert", reason: "no pads with compatible caps")) {
            try audio.link(video)
        }
        #expect(throws: GStreamerError.add(element: "tone", bin: pipeline.name)) { try pipeline.add(audio) }
    }

    @Test func parseAndMissingElementStayApart() {
        #expect(throws: GStreamerError.self) { try Pipeline.parse("videotestsrc ! ! fakesink") }
        do {
            _ = try Pipeline.parse("videotestsrc ! ! fakesink")
        } catch {
            guard case .parse = error else { Issue.record("expected .parse, got \(error)"); return }
        }
        do {
            _ = try Element.make("camrec_no_such_factory")
        } catch {
            guard case .missingElement("camrec_no_such_factory", _) = error else {
                Issue.record("expected .missingElement, got \(error)")
                return
            }
        }
    }

    @Test func flowErrorsSayWhatWasRefused() throws {
        // An appsrc that was told the stream ended refuses more data.
        let pipeline = try Pipeline.parse("appsrc name=in ! fakesink")
        let source = try AppSrc(pipeline.element(named: "in"))
        let buffer = try #require(Buffer(bytes: [1, 2, 3]))
        source.endOfStream()
        let result = source.push(buffer)
        #expect(result == .endOfStream)
        #expect(GStreamerError.flow(result, context: "the muxer refused a video frame").description
            == "the muxer refused a video frame (end of stream)")
    }
}

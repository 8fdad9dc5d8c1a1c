import GStreamer
import Synchronization
import Testing

/// A branch added to a running compositor and one taken away, as camrec does when a
/// camera of a canvas comes back.
@Suite struct DynamicPipelineTests {
    @Test func aBranchAddedWhilePlayingFeedsANewCompositorPadAndCanBeTakenAway() throws {
        let pipeline = try Pipeline.parse("""
            compositor name=canvas emit-signals=true background=black ! video/x-raw,width=64,height=48,framerate=30/1 \
            ! appsink name=out sync=false max-buffers=1 drop=true \
            videotestsrc is-live=true ! video/x-raw,width=32,height=48,framerate=30/1 ! canvas.sink_0
            """)
        let canvas = try pipeline.element(named: "canvas")
        let out = try AppSink(pipeline.element(named: "out"))
        let added = Mutex<Pad?>(nil)
        let fed = Mutex(0)
        let token = try canvas.connect("samples-selected") { _ in
            guard let pad = added.withLock({ $0 }) else { return }
            if canvas.peekNextSample(pad) != nil { fed.withLock { $0 += 1 } }
        }
        defer { token.disconnect() }
        try pipeline.setState(.playing)
        defer { _ = try? pipeline.setState(.null) }
        #expect(out.pullSample(timeoutNanoseconds: 10_000_000_000) != nil)

        // The new branch: a bin with a ghost pad for its unlinked output.
        let branch = try Bin.parseBin("videotestsrc is-live=true pattern=ball ! video/x-raw,width=32,height=48,framerate=30/1 ! queue")
        try pipeline.add(branch)
        let pad = try canvas.requestPad("sink_%u")
        try pad.set("xpos", 32)
        try branch.staticPad("src").link(pad)
        added.withLock { $0 = pad }
        #expect(branch.syncStateWithParent())
        #expect(Wait.until(timeout: 30) { fed.withLock { $0 } >= 10 }, "the new pad fed \(fed.withLock { $0 }) canvas frames")

        // Taken away: stopped, unlinked, removed, its pad given back; the canvas goes on.
        added.withLock { $0 = nil }
        _ = try branch.setState(.null)
        let source = try branch.staticPad("src")
        #expect(source.peer != nil)
        #expect(source.unlink(pad))
        #expect(source.peer == nil)
        try pipeline.remove(branch)
        canvas.releaseRequestPad(pad)
        #expect(throws: GStreamerError.self) { try canvas.staticPad(pad.name) }
        for _ in 0..<5 { #expect(out.pullSample(timeoutNanoseconds: 10_000_000_000) != nil) }
        #expect(throws: GStreamerError.self) { try pipeline.remove(branch) }
    }

    @Test func aBadBinDescriptionIsAParseError() {
        #expect(throws: GStreamerError.self) { try Bin.parseBin("videotestsrc ! ! fakesink") }
        #expect(throws: GStreamerError.self) { try Bin.parseBin("no_such_element_here") }
    }
}

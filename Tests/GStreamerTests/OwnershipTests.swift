import CGStreamer
import Foundation
import GStreamer
import Testing

/// Watches a GObject with a weak reference: `isAlive` turns false once it is finalised.
///
/// A `GWeakRef`, not `g_object_add_weak_pointer`: the last reference may go on another
/// thread (a streaming thread, or GStreamer's pool finishing an asynchronous state change
/// a moment after `setState(.null)` returned), and only `GWeakRef` is safe across threads.
/// Objects let go of on another thread are finalised a moment later: wait for it with
/// `Wait.until { !watch.isAlive }`, never check once.
final class FinalisationWatch: @unchecked Sendable {
    private let reference = UnsafeMutablePointer<GWeakRef>.allocate(capacity: 1)

    init(_ object: Object) {
        reference.initialize(to: GWeakRef())
        g_weak_ref_init(reference, UnsafeMutableRawPointer(object.objectPointer))
    }

    var isAlive: Bool {
        guard let object = g_weak_ref_get(reference) else { return false }
        g_object_unref(object)
        return true
    }

    deinit {
        g_weak_ref_clear(reference)
        reference.deallocate()
    }
}

@Suite struct OwnershipTests {
    @Test func factoryElementIsSunkAndOwnedOnce() throws {
        let element = try Element.make("fakesink", name: "sink")
        #expect(element.isFloating == false)
        #expect(element.referenceCount == 1)
        #expect(element.name == "sink")
        #expect(element.factoryName == "fakesink")
    }

    @Test func elementIsFinalisedWhenTheLastWrapperGoes() throws {
        var element: Element? = try Element.make("fakesink")
        let watch = try FinalisationWatch(#require(element))
        #expect(watch.isAlive)
        element = nil
        #expect(watch.isAlive == false)
    }

    @Test func getterReferencesAreReleased() throws {
        let pipeline = try Pipeline.parse("videotestsrc name=src ! fakesink name=sink")
        #expect(pipeline.referenceCount == 1)
        let before = try pipeline.element(named: "src").referenceCount
        // The bin holds one reference, our wrapper one more.
        #expect(before == 2)
        do {
            let src = try pipeline.element(named: "src")
            let pad = try src.staticPad("src")
            #expect(pad.referenceCount >= 2)  // the element's and ours
            #expect(src.referenceCount == 2)
        }
        #expect(try pipeline.element(named: "src").referenceCount == 2)
        let bus = try #require(pipeline.bus)
        #expect(bus.referenceCount == 2)  // the pipeline's and ours
    }

    @Test func pipelineAndChildrenAreFinalisedAfterTeardown() throws {
        var pipeline: Pipeline? = try Pipeline.parse("videotestsrc num-buffers=3 name=src ! fakesink")
        let watchPipeline = try FinalisationWatch(#require(pipeline))
        let source = try #require(pipeline).element(named: "src")
        let watchSource = FinalisationWatch(source)
        _ = consume source
        try pipeline?.setState(.playing)
        let bus = try #require(pipeline?.bus)
        var sawEnd = false
        while let message = bus.pop(timeoutNanoseconds: 30_000_000_000) {
            if message == .endOfStream { sawEnd = true; break }
        }
        #expect(sawEnd)
        try pipeline?.setState(.null)
        pipeline = nil
        #expect(Wait.until { !watchPipeline.isAlive }, "the pipeline outlived its last wrapper")
        #expect(Wait.until { !watchSource.isAlive }, "the source outlived its pipeline")
    }

    @Test func capsParseAndReadFields() throws {
        let caps = try Caps("video/x-raw,format=I420,width=640,height=480,framerate=30/1")
        #expect(caps.referenceCount == 1)
        #expect(caps.mediaType == "video/x-raw")
        #expect(caps.int("width") == 640)
        #expect(caps.string("format") == "I420")
        #expect(caps.fraction("framerate")! == (30, 1))
        #expect(throws: GStreamerError.self) { try Caps("not caps at all ((") }
    }
}

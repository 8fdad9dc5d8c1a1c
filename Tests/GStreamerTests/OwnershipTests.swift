import CGStreamer
import Foundation
import GStreamer
import Testing

/// Watches a GObject with a weak pointer: `isAlive` turns false when it is finalised.
final class FinalisationWatch {
    private let slot = UnsafeMutablePointer<gpointer?>.allocate(capacity: 1)

    init(_ object: Object) {
        slot.initialize(to: UnsafeMutableRawPointer(object.objectPointer))
        g_object_add_weak_pointer(slot.pointee?.assumingMemoryBound(to: GObject.self), slot)
    }

    var isAlive: Bool { slot.pointee != nil }

    deinit {
        if let object = slot.pointee {
            g_object_remove_weak_pointer(object.assumingMemoryBound(to: GObject.self), slot)
        }
        slot.deallocate()
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
        while let message = bus.pop(timeoutNanoseconds: 5_000_000_000) {
            if message == .endOfStream { sawEnd = true; break }
        }
        #expect(sawEnd)
        try pipeline?.setState(.null)
        pipeline = nil
        #expect(watchPipeline.isAlive == false)
        #expect(watchSource.isAlive == false)
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

import CGStreamer
import GStreamer
import Testing

/// Wrappers of one kind of element check the object's GType, not its factory name.
@Suite struct TypeCastTests {
    @Test func appSinkAndAppSrcAcceptTheirOwnType() throws {
        let pipeline = try Pipeline.parse("appsrc name=in ! appsink name=out")
        let sink = try AppSink(pipeline.element(named: "out"))
        let source = try AppSrc(pipeline.element(named: "in"))
        #expect(sink.isInstance(of: gst_app_sink_get_type()))
        #expect(sink.isInstance(of: gst_element_get_type()))  // and every type it derives from
        #expect(source.isInstance(of: gst_app_src_get_type()))
        #expect(!source.isInstance(of: gst_app_sink_get_type()))
    }

    @Test func aWrongTypeCastThrowsNamingBothTypes() throws {
        let pipeline = try Pipeline.parse("videotestsrc name=src ! fakesink name=sink")
        let fakesink = try pipeline.element(named: "sink")
        #expect(throws: GStreamerError.wrongType(object: "sink", expected: "GstAppSink", actual: "GstFakeSink")) {
            try AppSink(fakesink)
        }
        #expect(throws: GStreamerError.wrongType(object: "src", expected: "GstAppSrc", actual: "GstVideoTestSrc")) {
            try AppSrc(pipeline.element(named: "src"))
        }
        // The failed cast took no reference: only the bin's and our wrapper's remain.
        #expect(fakesink.referenceCount == 2)
    }

    @Test func aSingleElementDescriptionIsWrappedInAPipeline() throws {
        let pipeline = try Pipeline.parse("fakesink name=alone")
        #expect(pipeline.isInstance(of: gst_pipeline_get_type()))
        #expect(pipeline.referenceCount == 1)
        #expect(try pipeline.element(named: "alone").factoryName == "fakesink")
    }
}

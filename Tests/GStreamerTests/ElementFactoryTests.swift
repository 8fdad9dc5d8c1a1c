import GStreamer
import Testing

/// Element factories: finding one, listing the encoders, their metadata and pad templates,
/// and the references the wrappers hold. Serialized: the reference counts of a factory
/// (openh264enc, which no other suite here uses) must not move under another test's listing.
@Suite(.serialized) struct ElementFactoryTests {
    @Test func x264encsFactoryDescribesItself() throws {
        let factory = try #require(try ElementFactory.find("x264enc"))
        #expect(factory.name == "x264enc")
        #expect(factory.longName == "x264 H.264 Encoder")
        #expect(factory.klass == "Codec/Encoder/Video")
        #expect(factory.klassWords == ["Codec", "Encoder", "Video"])
        #expect(factory.rank == 256)
        #expect(factory.pluginName == "x264")
        #expect(try factory.canIntersect(.source, "video/x-h264"))
        #expect(try !factory.canIntersect(.source, "image/jpeg"))
        #expect(try factory.canIntersect(.sink, "video/x-raw,format=I420"))
        #expect(try !factory.canIntersect(.sink, "video/x-h264"))
        #expect(factory.metadata("no-such-key") == nil)
    }

    @Test func aMissingFactoryIsNil() throws {
        #expect(try ElementFactory.find("nosuchelement") == nil)
    }

    @Test func badCapsTextThrows() throws {
        let factory = try #require(try ElementFactory.find("jpegenc"))
        #expect(throws: GStreamerError.invalidCaps("not caps,,")) { try factory.canIntersect(.source, "not caps,,") }
    }

    @Test func theEncoderListHasVideoAndImageEncodersAndNoDecoders() throws {
        let encoders = try ElementFactory.videoEncoders()
        let names = encoders.map(\.name)
        #expect(names.contains("x264enc") && names.contains("jpegenc"), "\(names)")
        #expect(encoders.allSatisfy { $0.klassWords.contains("Encoder") && !$0.klassWords.contains("Decoder") })
        #expect(!names.contains("videotestsrc") && !names.contains("avdec_h264"))
    }

    @Test func wrappersHoldOneReferenceEachAndTheListReleasesItsOwn() throws {
        let factory = try #require(try ElementFactory.find("openh264enc"))
        let alone = factory.referenceCount
        do {
            let again = try #require(try ElementFactory.find("openh264enc"))
            #expect(again.referenceCount == alone + 1)
            let listed = try ElementFactory.videoEncoders()
            // Our two wrappers and the listed one: the list's own references are gone.
            #expect(listed.contains { $0.name == "openh264enc" })
            #expect(factory.referenceCount == alone + 2)
        }
        #expect(factory.referenceCount == alone)
    }

    @Test func templateCapsAreOwnedByTheirWrappers() throws {
        let factory = try #require(try ElementFactory.find("jpegenc"))
        let caps = factory.templateCaps(.source)
        #expect(caps.count == 1)
        #expect(caps.first?.mediaType == "image/jpeg")
        #expect(caps.allSatisfy { $0.referenceCount >= 1 })
    }

    @Test func loadingAMissingPluginThrows() {
        #expect {
            try Registry.loadPlugin(path: "/nonexistent/libgstnothing.so")
        } throws: { error in
            guard case GStreamerError.unavailable(let text)? = error as? GStreamerError else { return false }
            return text.contains("/nonexistent/libgstnothing.so")
        }
    }
}

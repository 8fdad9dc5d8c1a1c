import GStreamer
import Testing

/// Typed property setters: the value is converted to the property's declared type, and
/// every failure (name, kind, range, nick, writability) is reported as `.property`.
@Suite struct TypedPropertyTests {
    /// The reason of a `.property` error for `name` on `element`, or nil for any other outcome.
    func reason(_ element: String, _ name: String, _ body: () throws(GStreamerError) -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            guard case .property(element, name, let reason) = error else { return nil }
            return reason
        }
    }

    @Test func eachKindOfValueReachesItsProperty() throws {
        let queue = try Element.make("queue", name: "q")
        try queue.set("max-size-buffers", 7)                 // guint
        try queue.set("max-size-time", UInt64(3_000_000_000)) // guint64
        try queue.set("max-size-bytes", 0)                   // guint, from an Int
        try queue.set("leaky", nick: "downstream")           // enum by nick
        #expect(try queue.property("max-size-buffers") == "7")
        #expect(try queue.property("max-size-time") == "3000000000")
        #expect(try queue.property("leaky") == "downstream")

        let sink = try Element.make("appsink")
        try sink.set("sync", false)
        #expect(try sink.property("sync") == "false")

        let source = try Element.make("appsrc")
        try source.set("format", nick: "time")
        try source.set("max-bytes", 0)                       // guint64, from an Int
        #expect(try source.property("format") == "time")

        let filter = try Element.make("capsfilter")
        try filter.set("caps", Caps("video/x-raw,width=32"))
        let caps = try filter.property("caps")
        #expect(caps.contains("video/x-raw") && caps.contains("width") && caps.contains("32"), "read back as \(caps)")

        let file = try Element.make("filesink")
        try file.set("location", "/tmp/camrec-typed-property")
        #expect(try file.property("location") == "/tmp/camrec-typed-property")

        let volume = try Element.make("volume")
        try volume.set("volume", 0.5)                        // gdouble
        try volume.set("volume", 2)                          // an exact integer for a gdouble
        #expect(try volume.property("volume") == "2")

        let encoder = try Element.make("x264enc")
        try encoder.set("tune", nick: "zerolatency+fastdecode")  // flags by nicks
        try encoder.set("option-string", "sps-id=3")
        let parser = try Element.make("h264parse")
        try parser.set("config-interval", -1)                // gint, negative
        #expect(try parser.property("config-interval") == "-1")
    }

    @Test func aStructureProperty() throws {
        let splitter = try Element.make("splitmuxsink")
        let properties = try Structure("properties,fragment-duration=1000")
        #expect(properties.name == "properties")
        try splitter.set("muxer-properties", properties)
        let readBack = try splitter.property("muxer-properties")
        #expect(readBack.contains("fragment-duration") && readBack.contains("1000"), "\(readBack)")
        #expect(throws: GStreamerError.invalidStructure("not a structure ((")) { try Structure("not a structure ((") }
    }

    @Test func aBadNameIsReported() throws {
        let queue = try Element.make("queue", name: "q")
        #expect(reason("q", "no-such-property") { () throws(GStreamerError) in try queue.set("no-such-property", 1) }
            == "no such property")
        #expect(reason("q", "no-such-property") { () throws(GStreamerError) in _ = try queue.property("no-such-property") }
            == "no such property")
    }

    @Test func aValueOfTheWrongKindIsReported() throws {
        let queue = try Element.make("queue", name: "q")
        let asString = reason("q", "max-size-buffers") { () throws(GStreamerError) in try queue.set("max-size-buffers", "7") }
        #expect(asString == "expects a value of type guint, not a string ('7')")
        let asBool = reason("q", "max-size-buffers") { () throws(GStreamerError) in try queue.set("max-size-buffers", true) }
        #expect(asBool == "expects a value of type guint, not a boolean (true)")
        // An enum given as a plain string is refused, naming its nicks.
        let enumAsString = reason("q", "leaky") { () throws(GStreamerError) in try queue.set("leaky", "downstream") }
        #expect(enumAsString?.contains("give a nick") == true, "\(enumAsString ?? "")")
        #expect(enumAsString?.contains("'downstream'") == true)
        let caps = try Caps("video/x-raw")
        #expect(reason("q", "max-size-time") { () throws(GStreamerError) in try queue.set("max-size-time", caps) }
            == "expects a value of type guint64, not caps")
    }

    @Test func aValueOutOfRangeIsReported() throws {
        let queue = try Element.make("queue", name: "q")
        // Beyond the C type (guint) ...
        #expect(reason("q", "max-size-buffers") { () throws(GStreamerError) in try queue.set("max-size-buffers", -1) }
            == "-1 is out of range (0 - 4294967295)")
        #expect(reason("q", "max-size-buffers") { () throws(GStreamerError) in try queue.set("max-size-buffers", 1 << 40) }
            == "1099511627776 is out of range (0 - 4294967295)")
        // ... and beyond the spec's own range, which GObject would have clamped.
        let parser = try Element.make("h264parse", name: "parse")
        #expect(reason("parse", "config-interval") { () throws(GStreamerError) in try parser.set("config-interval", -2) }
            == "-2 is out of range (-1 - 3600)")
        let volume = try Element.make("volume", name: "vol")
        #expect(reason("vol", "volume") { () throws(GStreamerError) in try volume.set("volume", 100.0) }
            == "100.0 is out of range (0 - 10)")
        // The refused value left the property as it was.
        #expect(try parser.property("config-interval") == "0")
    }

    @Test func anUnknownNickIsReported() throws {
        let queue = try Element.make("queue", name: "q")
        let unknown = reason("q", "leaky") { () throws(GStreamerError) in try queue.set("leaky", nick: "sideways") }
        #expect(unknown == "'sideways' is not one of 'no', 'upstream' or 'downstream'")
        let encoder = try Element.make("x264enc", name: "enc")
        let badFlag = reason("enc", "tune") { () throws(GStreamerError) in try encoder.set("tune", nick: "zerolatency+warp") }
        #expect(badFlag?.hasPrefix("'zerolatency+warp' is not made of") == true, "\(badFlag ?? "")")
        // A nick for a property that is no enum.
        #expect(reason("q", "max-size-buffers") { () throws(GStreamerError) in try queue.set("max-size-buffers", nick: "many") }
            == "expects a value of type guint, not a nick ('many')")
    }

    @Test func readOnlyPropertiesAreRefused() throws {
        let queue = try Element.make("queue", name: "q")
        #expect(reason("q", "current-level-buffers") { () throws(GStreamerError) in try queue.set("current-level-buffers", 1) }
            == "read-only")
    }
}

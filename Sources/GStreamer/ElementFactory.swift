import CGStreamer
import CGStreamerShim

/// A `GstElementFactory` we hold one reference to: what an installed plugin offers under one
/// name (e.g. "x264enc"), with its metadata, rank and pad templates, without making an element.
public final class ElementFactory: Object, @unchecked Sendable {
    /// The wrapped factory (`GstElementFactory *`, an opaque type to Swift).
    public var factoryPointer: OpaquePointer { OpaquePointer(objectPointer) }

    /// The same object as its base class, `GstPluginFeature *`.
    private var featurePointer: OpaquePointer { OpaquePointer(objectPointer) }

    /// Wraps a `GstElementFactory *` with the given transfer (factories never float).
    public init(_ pointer: OpaquePointer, transfer: Transfer) {
        super.init(UnsafeMutablePointer<GstObject>(pointer), transfer: transfer == .floating ? .full : transfer)
    }

    /// The factory of that name, nil when no installed plugin provides it
    /// (`gst_element_factory_find`, transfer full).
    public static func find(_ name: String) throws(GStreamerError) -> ElementFactory? {
        try Runtime.initialize()
        return gst_element_factory_find(name).map { ElementFactory($0, transfer: .full) }
    }

    /// Every factory that makes video or image encoders (klass with "Encoder" and "Video" or
    /// "Image": Motion JPEG's jpegenc is "Codec/Encoder/Image"), of any rank, in the
    /// registry's order; filter them by their source caps (`canIntersect`). Hardware
    /// encoders are among them; tell them apart by `klass` ("…/Hardware"): the factory-type
    /// filter for hardware ORs its bit with ENCODER and would return hardware decoders too.
    public static func videoEncoders() throws(GStreamerError) -> [ElementFactory] {
        try Runtime.initialize()
        // A new list holding one reference per factory: each wrapper takes its own, then
        // the list and its references go.
        guard let list = camrec_video_encoder_factories() else { return [] }
        defer { gst_plugin_feature_list_free(list) }
        var factories: [ElementFactory] = []
        var node: UnsafeMutablePointer<GList>? = list
        while let current = node {
            if let data = current.pointee.data {
                factories.append(ElementFactory(OpaquePointer(data), transfer: .none))
            }
            node = current.pointee.next
        }
        return factories
    }

    /// One metadata entry (GST_ELEMENT_METADATA_*: "long-name", "klass", "description",
    /// "author"), nil when the factory has none.
    public func metadata(_ key: String) -> String? {
        // Borrowed from the factory: copied at once.
        gst_element_factory_get_metadata(factoryPointer, key).map { String(cString: $0) }
    }

    /// The klass, e.g. "Codec/Encoder/Video" or "Codec/Encoder/Video/Hardware".
    public var klass: String { metadata("klass") ?? "" }

    /// The long name, e.g. "x264 H.264 Encoder".
    public var longName: String { metadata("long-name") ?? "" }

    /// The klass's words ("Codec", "Encoder", "Video", "Hardware").
    public var klassWords: [String] { klass.split(separator: "/").map(String.init) }

    /// The rank GStreamer's autoplugging orders by (NONE 0, MARGINAL 64, SECONDARY 128,
    /// PRIMARY 256, sometimes with an offset).
    public var rank: Int { Int(gst_plugin_feature_get_rank(featurePointer)) }

    /// The name of the plugin that provides it, e.g. "x264" (nil for a statically
    /// registered element without a plugin).
    public var pluginName: String? {
        // Borrowed from the feature: copied at once.
        gst_plugin_feature_get_plugin_name(featurePointer).map { String(cString: $0) }
    }

    /// The caps of each static pad template in `direction` (each parsed into caps we own).
    public func templateCaps(_ direction: PadDirection) -> [Caps] {
        var result: [Caps] = []
        // The list and the templates belong to the factory.
        var node = gst_element_factory_get_static_pad_templates(factoryPointer)
        while let current = node {
            if let data = current.pointee.data {
                let template = data.assumingMemoryBound(to: GstStaticPadTemplate.self)
                if template.pointee.direction == direction.gstDirection,
                   let caps = gst_static_pad_template_get_caps(template) {
                    result.append(Caps(caps, transfer: .full))
                }
            }
            node = current.pointee.next.map { UnsafePointer($0) }
        }
        return result
    }

    /// Whether one of its static pad templates in `direction` can produce (or take) caps that
    /// intersect `caps`, e.g. `canIntersect(.source, "video/x-h264")` for an H.264 encoder.
    public func canIntersect(_ direction: PadDirection, _ caps: String) throws(GStreamerError) -> Bool {
        let wanted = try Caps(caps)
        return templateCaps(direction).contains { gst_caps_can_intersect($0.capsPointer, wanted.capsPointer) != 0 }
    }
}

/// Which way data flows through a pad.
public enum PadDirection: Sendable, Equatable {
    /// Data leaves the element here (GST_PAD_SRC).
    case source
    /// Data enters the element here (GST_PAD_SINK).
    case sink

    var gstDirection: GstPadDirection {
        switch self {
        case .source: GST_PAD_SRC
        case .sink: GST_PAD_SINK
        }
    }
}

/// GStreamer's registry of plugins.
public enum Registry {
    /// Loads the plugin library at `path` into this process's registry, so that its elements
    /// can be made from here on (`gst_plugin_load_file`; the plugin stays loaded for the
    /// process's life). Throws `.unavailable` with GStreamer's reason when it cannot load.
    public static func loadPlugin(path: String) throws(GStreamerError) {
        try Runtime.initialize()
        var error: UnsafeMutablePointer<GError>?
        guard let plugin = gst_plugin_load_file(path, &error) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown reason"
            if let error { g_error_free(error) }
            throw .unavailable("the plugin \(path): \(reason)")
        }
        // transfer full: the registry keeps its own reference.
        gst_object_unref(UnsafeMutableRawPointer(plugin))
    }
}

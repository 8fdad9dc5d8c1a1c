import CGStreamer

/// Who posted a bus message: its name, for people, and the object itself, to compare
/// with an element we hold (`failure.source.is(camera)`), which a name cannot do reliably
/// (bins may hold several elements of one name).
///
/// Holds a reference to the object (taken when the message was parsed) for as long as the
/// value lives; keep messages briefly.
public struct MessageSource: Sendable, Equatable, CustomStringConvertible {
    /// The object's name, e.g. "src"; empty when the message has no source.
    public let name: String
    /// The object that posted the message (an element, a pad, the bus), nil when the
    /// message has none (an application message posted on the bus itself).
    public let object: Object?

    /// A source known by `name`, and by `object` when given.
    public init(name: String, object: Object? = nil) {
        self.name = name
        self.object = object
    }

    /// Whether the message comes from `candidate` itself (the same GStreamer object, not
    /// only one of the same name).
    public func `is`(_ candidate: Object) -> Bool {
        object?.objectPointer == candidate.objectPointer
    }

    /// The source as an element, when it is one (checked by GType); takes a reference.
    public var element: Element? {
        guard let object, object.isInstance(of: gst_element_get_type()) else { return nil }
        return Element(UnsafeMutableRawPointer(object.objectPointer).assumingMemoryBound(to: GstElement.self),
                       transfer: .none)
    }

    /// The name.
    public var description: String { name }

    /// Same name and the same object (or no object on both sides).
    public static func == (lhs: MessageSource, rhs: MessageSource) -> Bool {
        lhs.name == rhs.name && lhs.object?.objectPointer == rhs.object?.objectPointer
    }
}

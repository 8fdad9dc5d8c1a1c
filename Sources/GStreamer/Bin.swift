import CGStreamer

/// A `GstBin`: an element that holds others.
public class Bin: Element, @unchecked Sendable {
    /// The wrapped bin.
    public var binPointer: UnsafeMutablePointer<GstBin> {
        UnsafeMutableRawPointer(objectPointer).assumingMemoryBound(to: GstBin.self)
    }

    /// The child (searched recursively) named `name` (transfer full, released by the wrapper).
    public func element(named name: String) throws(GStreamerError) -> Element {
        guard let child = gst_bin_get_by_name(binPointer, name) else { throw .noSuchElement(name) }
        return Element(child, transfer: .full)
    }

    /// Adds an element; the bin takes its own reference, the wrapper keeps ours.
    public func add(_ element: Element) throws(GStreamerError) {
        guard gst_bin_add(binPointer, element.elementPointer) != 0 else {
            throw .add(element: element.name, bin: name)
        }
    }
}

extension Element {
    /// The element named `name` inside this one (searched recursively) when this element is
    /// a bin, such as splitmuxsink's "muxer"; nil when it is not a bin or holds no such element.
    public func child(named name: String) -> Element? {
        let instance = UnsafeMutableRawPointer(objectPointer).assumingMemoryBound(to: GTypeInstance.self)
        guard g_type_check_instance_is_a(instance, gst_bin_get_type()) != 0 else { return nil }
        let bin = UnsafeMutableRawPointer(objectPointer).assumingMemoryBound(to: GstBin.self)
        guard let child = gst_bin_get_by_name(bin, name) else { return nil }
        return Element(child, transfer: .full)
    }
}

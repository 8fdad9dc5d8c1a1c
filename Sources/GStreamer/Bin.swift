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

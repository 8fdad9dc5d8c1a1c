import CGStreamer
import CGStreamerShim

// Changing a running pipeline: a branch built apart, added, linked and started; an old
// one stopped, unlinked and removed.

extension Bin {
    /// A new bin of the elements in `description` (gst-launch-1.0 syntax), with a ghost
    /// pad for each pad left unlinked inside it, to be added to a running pipeline. A
    /// missing plugin throws `.missingElement`, bad syntax `.parse`.
    public static func parseBin(_ description: String) throws(GStreamerError) -> Bin {
        try Runtime.initialize()
        var error: UnsafeMutablePointer<GError>?
        let pointer = gst_parse_bin_from_description(description, 1, &error)
        if let error {
            let message = String(cString: error.pointee.message)
            let missing = error.pointee.domain == gst_parse_error_quark() && error.pointee.code == GST_PARSE_ERROR_NO_SUCH_ELEMENT.rawValue
            g_error_free(error)
            if let pointer { gst_object_unref(UnsafeMutableRawPointer(pointer)) }
            throw missing ? .missingElement(message, hint: "run gst-inspect-1.0 to see which plugins are installed") : .parse(message)
        }
        guard let pointer else { throw .parse("empty bin") }
        return Bin(pointer, transfer: .floating)
    }

    /// Removes `element`, which should be in the NULL state (the bin drops its reference;
    /// the wrapper keeps its own).
    public func remove(_ element: Element) throws(GStreamerError) {
        guard gst_bin_remove(binPointer, element.elementPointer) != 0 else {
            throw .add(element: element.name, bin: name)
        }
    }
}

extension Element {
    /// Gives back a pad got with `requestPad` (a compositor's input, a tee's output).
    public func releaseRequestPad(_ pad: Pad) {
        gst_element_release_request_pad(elementPointer, pad.padPointer)
    }
}

extension Pad {
    /// Unlinks this source pad from `sink`; false when they were not linked.
    @discardableResult
    public func unlink(_ sink: Pad) -> Bool {
        gst_pad_unlink(padPointer, sink.padPointer) != 0
    }
}

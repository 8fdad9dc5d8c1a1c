import CGStreamer

extension Element {
    /// Requests a new pad from a template such as "audio_%u" (muxers, tees); transfer full,
    /// released by the `Pad`. The element keeps the pad until it is disposed.
    public func requestPad(_ templateName: String) throws(GStreamerError) -> Pad {
        guard let pad = gst_element_request_pad_simple(elementPointer, templateName) else {
            throw .noSuchPad(element: name, pad: templateName)
        }
        return Pad(pad, transfer: .full)
    }
}

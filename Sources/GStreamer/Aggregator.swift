import CGStreamer
import CGStreamerShim

extension Element {
    /// Whether this element is a `GstAggregator` (compositor, audiomixer, …).
    public var isAggregator: Bool { isInstance(of: gst_aggregator_get_type()) }

    /// For an aggregator, in a handler of its "samples-selected" signal (emitted, with
    /// `emit-signals=true`, once per output buffer on the aggregating thread): the sample
    /// it is about to aggregate from its sink `pad`, nil when that pad has none (no data
    /// yet, or at EOS) or when this is not an aggregator. Outside that handler the answer
    /// is whatever the pad holds at that moment.
    public func peekNextSample(_ pad: Pad) -> Sample? {
        guard isAggregator, pad.isInstance(of: gst_aggregator_pad_get_type()) else { return nil }
        let aggregator = UnsafeMutableRawPointer(elementPointer).assumingMemoryBound(to: GstAggregator.self)
        let aggregatorPad = UnsafeMutableRawPointer(pad.padPointer).assumingMemoryBound(to: GstAggregatorPad.self)
        guard let sample = gst_aggregator_peek_next_sample(aggregator, aggregatorPad) else { return nil }
        return Sample(sample, transfer: .full)
    }
}

import CGStreamer

extension AppSrc {
    /// Pushes a sample: its buffer, with its caps (the appsrc takes its own references;
    /// `sample` stays usable). Used to feed frames taken from an `AppSink` to an encoder.
    @discardableResult
    public func push(_ sample: Sample) -> FlowResult {
        FlowResult(gst_app_src_push_sample(sourcePointer, sample.samplePointer))
    }
}

import CGStreamer

extension Element {
    /// Calls `callback` with each pad the element creates while running (demuxers,
    /// decodebin, tees). Runs on a streaming thread: link and return, never block.
    public func onPadAdded(_ callback: @escaping @Sendable (Pad) -> Void) -> SignalToken {
        // Every element has "pad-added".
        connectClosure("pad-added") { arguments in
            if let pad = arguments.pad(1) { callback(pad) }
            return .none
        }
    }

    /// splitmuxsink's "format-location-full": `callback` gets the fragment's number and
    /// its first sample, and returns the file name for the fragment (nil: splitmuxsink's
    /// own `location` pattern). Runs on a streaming thread: return quickly, never block.
    /// Throws `.signal` for an element that has no such signal (not a splitmuxsink).
    public func onFormatLocationFull(
        _ callback: @escaping @Sendable (_ fragment: UInt64, _ firstSample: Sample?) -> String?
    ) throws(GStreamerError) -> SignalToken {
        try connectReturning("format-location-full") { arguments in
            .string(callback(arguments.uint(1) ?? 0, arguments.sample(2)))
        }
    }
}

extension Element {
    /// splitmuxsink's "muxer-added": `callback` gets each muxer it makes (with
    /// `async-finalize`, a new one for every file, before the file's "format-location-full").
    /// Runs on a streaming thread: return quickly, never block. Throws `.signal` for an
    /// element that has no such signal (not a splitmuxsink).
    public func onMuxerAdded(_ callback: @escaping @Sendable (Element) -> Void) throws(GStreamerError) -> SignalToken {
        try connect("muxer-added") { arguments in
            if let muxer = arguments.element(1) { callback(muxer) }
        }
    }
}

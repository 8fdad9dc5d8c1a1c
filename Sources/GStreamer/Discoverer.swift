import CGStreamer

/// What GStreamer's discoverer (`GstDiscoverer`, as `gst-discoverer-1.0` uses it) finds in
/// a media file: its streams, each with its caps, or why it could not read it. A value:
/// nothing of GStreamer's is held once ``MediaDiscovery/discover(uri:timeoutNanoseconds:)``
/// returns.
public struct DiscoveredMedia: Sendable, Equatable {
    /// How the discovery ended.
    public enum Outcome: Sendable, Equatable {
        /// Every stream was found and can be decoded.
        case readable
        /// The file could not be read as media: GStreamer's message, e.g. "Could not
        /// determine type of stream."
        case unreadable(String)
        /// It took longer than the timeout.
        case timedOut
        /// Decoders or demuxers are missing: each one's installer detail, e.g.
        /// "gstreamer|1.0|camrec|H.265 decoder|decoder-video/x-h265, …".
        case missingPlugins([String])
    }

    /// A video stream.
    public struct Video: Sendable, Equatable {
        /// Its caps before decoding, e.g. "video/x-h264, …".
        public var caps: String
        /// Picture width in pixels (as stored, before the pixel aspect ratio).
        public var width: Int
        /// Picture height in pixels.
        public var height: Int
        /// Frame rate's numerator; 0 when the file does not say (variable rate).
        public var rateNumerator: Int
        /// Frame rate's denominator.
        public var rateDenominator: Int
        /// Whether it is a still picture (a JPEG or PNG file), not a movie.
        public var isImage: Bool

        public init(caps: String, width: Int, height: Int, rateNumerator: Int, rateDenominator: Int, isImage: Bool) {
            self.caps = caps
            self.width = width
            self.height = height
            self.rateNumerator = rateNumerator
            self.rateDenominator = rateDenominator
            self.isImage = isImage
        }
    }

    /// How the discovery ended.
    public var outcome: Outcome
    /// The video streams, in the file's order.
    public var videos: [Video]
    /// The sound streams' caps, in the file's order.
    public var sounds: [String]
    /// The file's duration in nanoseconds, when it says.
    public var duration: UInt64?

    public init(outcome: Outcome, videos: [Video] = [], sounds: [String] = [], duration: UInt64? = nil) {
        self.outcome = outcome
        self.videos = videos
        self.sounds = sounds
        self.duration = duration
    }
}

/// Runs GStreamer's discoverer on one file.
public enum MediaDiscovery {
    /// Discovers `uri` (e.g. "file:///tmp/a.mp4"), giving up after `timeoutNanoseconds`.
    /// Blocks; safe from any thread. Throws only when GStreamer cannot start a discoverer.
    public static func discover(uri: String, timeoutNanoseconds: UInt64) throws(GStreamerError) -> DiscoveredMedia {
        try Runtime.initialize()
        var error: UnsafeMutablePointer<GError>?
        guard let discoverer = gst_discoverer_new(GstClockTime(timeoutNanoseconds), &error) else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "gst_discoverer_new failed"
            if let error { g_error_free(error) }
            throw .initialization("cannot start GStreamer's discoverer: \(message)")
        }
        defer { gst_object_unref(UnsafeMutableRawPointer(discoverer)) }
        let info = gst_discoverer_discover_uri(discoverer, uri, &error)
        let message = error.map { String(cString: $0.pointee.message) }
        if let error { g_error_free(error) }
        guard let info else { return DiscoveredMedia(outcome: .unreadable(message ?? "not readable")) }
        defer { gst_object_unref(UnsafeMutableRawPointer(info)) }
        var media = DiscoveredMedia(outcome: .readable)
        let duration = UInt64(gst_discoverer_info_get_duration(info))
        media.duration = duration == UInt64.max || duration == 0 ? nil : duration
        media.videos = streams(gst_discoverer_info_get_video_streams(info)) { stream, caps in
            DiscoveredMedia.Video(caps: caps,
                                  width: Int(gst_discoverer_video_info_get_width(stream)),
                                  height: Int(gst_discoverer_video_info_get_height(stream)),
                                  rateNumerator: Int(gst_discoverer_video_info_get_framerate_num(stream)),
                                  rateDenominator: Int(gst_discoverer_video_info_get_framerate_denom(stream)),
                                  isImage: gst_discoverer_video_info_is_image(stream) != 0)
        }
        media.sounds = streams(gst_discoverer_info_get_audio_streams(info)) { _, caps in caps }
        switch gst_discoverer_info_get_result(info) {
        case GST_DISCOVERER_OK:
            break
        case GST_DISCOVERER_TIMEOUT:
            media.outcome = .timedOut
        case GST_DISCOVERER_MISSING_PLUGINS:
            var details: [String] = []
            if var entry = gst_discoverer_info_get_missing_elements_installer_details(info) {
                while let text = entry.pointee {
                    details.append(String(cString: text))
                    entry += 1
                }
            }
            media.outcome = .missingPlugins(details)
        default:
            media.outcome = .unreadable(message ?? "not a media file GStreamer can read")
        }
        return media
    }

    /// Each stream of `list` (transfer full: freed here) made into a value by `body`,
    /// given the stream and its caps' text.
    private static func streams<Value>(_ list: UnsafeMutablePointer<GList>?,
                                       _ body: (OpaquePointer, String) -> Value) -> [Value] {
        defer { if let list { gst_discoverer_stream_info_list_free(list) } }
        var values: [Value] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data {
                let stream = OpaquePointer(data)
                var text = ""
                if let caps = gst_discoverer_stream_info_get_caps(stream) {
                    text = Caps(caps, transfer: .full).description
                }
                values.append(body(stream, text))
            }
            node = current.pointee.next
        }
        return values
    }
}

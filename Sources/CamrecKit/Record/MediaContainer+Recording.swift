/// How a recording writes MP4, MOV or MKV: the muxer's properties and sinks (which
/// containers it records, and their muxers, are in CamrecCore's MediaContainer+Writing).
extension MediaContainer {
    /// The muxer with its properties, in pipeline syntax.
    ///
    /// MP4 and MOV are written as "hybrid" fragmented files: a moov up front and a
    /// fragment every half second, so a killed recording loses at most about half a second (a power cut also loses what was not flushed yet: see `DurabilityFlusher`); a clean
    /// EOS rewrites them into an ordinary MP4. Matroska is readable when cut off as it is;
    /// `offset-to-zero` makes its first frame start at 0, as MP4's does (not at the
    /// pipeline's latency, a few tens of milliseconds).
    public var muxer: String {
        muxerFactory + muxerProperties.map { " " + $0 }.joined()
    }

    /// The muxer's properties, as `name=value` (for splitmuxsink's `muxer-properties` too).
    public var muxerProperties: [String] {
        switch self {
        case .mp4, .mov: ["fragment-duration=500", "fragment-mode=first-moov-then-finalise"]
        case .matroska, .webm: ["offset-to-zero=true"]
        case .avi: []
        }
    }

    /// The muxing sink of a segmented recording, in pipeline syntax: splitmuxsink with this
    /// muxer. splitmuxsink holds back one GOP (it must see the next keyframe to know where
    /// a file may end), so a crash loses up to a keyframe interval more than with one
    /// movie. Its `muxer-properties` structure cannot name enum
    /// values (`fragment-mode`), so they are given as numbers there: 1 is
    /// first-moov-then-finalise.
    public var splitMuxer: String {
        let properties = muxerProperties.map {
            $0.replacing("=first-moov-then-finalise", with: "=1")
        }
        return "splitmuxsink async-finalize=true muxer-factory=\(muxerFactory) "
            + "muxer-properties=\"properties,\(properties.joined(separator: ","))\" "
            + "sink-properties=\"properties,buffer-mode=2\""
    }

    /// The movie's file sink's properties, after `filesink name=sink`: every buffer is
    /// written as it comes (in splitmuxsink's `sink-properties`, unbuffered is 2). filesink
    /// otherwise holds up to 64 KB in its own memory, which a kill loses: at a webcam's
    /// bitrates the first half second of a movie, and the last of a segment being finalised.
    public static let fileSinkProperties = "buffer-mode=unbuffered"

}

import MediaValues

/// One compressed video frame of an input: its times (nanoseconds on the demuxer's buffer
/// timeline in a ``FrameIndex``; an MP4 track's ticks where ``MP4TrimWriter`` lays out its
/// sample tables) and its flags.
public struct VideoFrame: Sendable, Equatable {
    /// Presentation time.
    public var pts: Int64
    /// Decoding time (equal to `pts` when the stream has no reordering or no DTS).
    public var dts: Int64
    /// Duration (an estimate when the container does not store one).
    public var duration: Int64
    /// Whether the frame is a sync sample (keyframe).
    public var isKeyframe: Bool
    /// Whether a stream may switch to this frame from other coded data: an IDR picture for
    /// H.264 (an open-GOP I-frame is a keyframe but not this), any keyframe otherwise.
    public var isIDR: Bool

    /// Creates a frame.
    public init(pts: Int64, dts: Int64? = nil, duration: Int64, isKeyframe: Bool, isIDR: Bool? = nil) {
        self.pts = pts
        self.dts = dts ?? pts
        self.duration = duration
        self.isKeyframe = isKeyframe
        self.isIDR = isIDR ?? isKeyframe
    }
}

/// One compressed audio packet (times in nanoseconds on the demuxer's buffer timeline).
public struct AudioPacket: Sendable, Equatable {
    /// Presentation time.
    public var pts: Int64
    /// Duration (0 when unknown).
    public var duration: Int64
}

/// What a trim knows about its input (``TrimInput/index``), from the sample tables or a
/// demux-only pass: every video frame and audio packet with its times and flags, the
/// streams' caps, and how buffer times map to presentation times.
public struct FrameIndex: Sendable {
    /// The container.
    public var container: MediaContainer
    /// Video frames in decode order.
    public var video: [VideoFrame]
    /// The video caps as the demuxer gave them (e.g. "video/x-h264, stream-format=avc, ...").
    public var videoCaps: String
    /// The video media type, e.g. "video/x-h264".
    public var videoMediaType: String
    /// The decoder configuration record (`codec_data`), when the container has one.
    public var codecData: [UInt8]?
    /// The first sound track's packets in order (empty when there is no audio, and in a
    /// window index: its writer reads the audio as it goes). The `audio…` fields describe
    /// that track; ``streams`` lists every one.
    public var audio: [AudioPacket]
    /// The first sound track's media type, e.g. "audio/mpeg"; nil without audio.
    public var audioMediaType: String?
    /// The audio caps as the demuxer gave them; nil without audio.
    public var audioCaps: String?
    /// Like ``presentationOffset``, for the audio track (its own edit list).
    public var audioPresentationOffset: Int64
    /// Buffer time minus presentation time (the demuxer's segment start minus its stream
    /// time): how an input's edit list shifts its timeline.
    public var presentationOffset: Int64
    /// Every stream the demuxer gave besides the video that is cut (all sound tracks, the
    /// first included; subtitles; others), in the order of its pads. Empty for an index
    /// read from sample tables (``MP4Input`` keeps the tracks themselves).
    public var streams: [DemuxedStream] = []
    /// The end of the whole video on the presentation timeline when ``video`` lists only a
    /// window of it and the container's last frames gave its end (``MatroskaBlockIndex``).
    public var wholeVideoEnd: Int64?

    /// The end of the last video frame on the presentation timeline.
    public var videoEnd: Int64 {
        if let wholeVideoEnd { return wholeVideoEnd }
        return (video.map { $0.pts + $0.duration }.max() ?? 0) - presentationOffset
    }
}

/// A stream of a demuxed input other than the video trim cuts.
public struct DemuxedStream: Sendable, Equatable {
    /// The demuxer's pad name ("audio_1", "subtitle_0"): the same in every pass over a file.
    public var padName: String
    /// What it holds.
    public var kind: TrimTrack.Kind
    /// Its caps as the demuxer gave them.
    public var caps: String
    /// Its media type.
    public var mediaType: String
    /// Buffer time minus presentation time (its own edit list).
    public var presentationOffset: Int64

    /// The kind of stream a media type is.
    static func kind(of mediaType: String) -> TrimTrack.Kind {
        if mediaType.hasPrefix("audio/") { return .audio }
        if mediaType.hasPrefix("video/") || mediaType.hasPrefix("image/") { return .video }
        if mediaType.hasPrefix("text/") || mediaType.hasPrefix("subpicture/") || mediaType.hasPrefix("subtitle/")
            || ["application/x-ass", "application/x-ssa", "application/x-usf", "application/x-subtitle-vtt"].contains(mediaType) {
            return .subtitle
        }
        return .data
    }
}

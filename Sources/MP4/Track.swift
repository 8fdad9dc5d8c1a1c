/// One entry of a track's edit list, mapping part of the track's media onto the movie timeline.
public struct Edit: Sendable, Equatable {
    /// Length on the movie timeline (movie timescale).
    public var segmentDuration: UInt64
    /// Where the segment starts in the media (media timescale); -1 for an empty edit (a gap).
    public var mediaTime: Int64
    /// The integer part of the playback rate (1 for normal play).
    public var rate: Int16

    /// Creates an edit at normal rate.
    public init(segmentDuration: UInt64, mediaTime: Int64, rate: Int16 = 1) {
        self.segmentDuration = segmentDuration
        self.mediaTime = mediaTime
        self.rate = rate
    }

    /// Whether this edit is a gap.
    public var isEmpty: Bool { mediaTime == -1 }
}

/// One sample (a video frame or an audio packet) as the sample table describes it.
public struct Sample: Sendable, Equatable {
    /// Where its bytes start in the file.
    public var offset: UInt64
    /// Its size in bytes.
    public var size: UInt32
    /// Decoding time (media timescale).
    public var decodeTime: Int64
    /// Duration (media timescale).
    public var duration: UInt32
    /// Presentation time minus decoding time (media timescale).
    public var compositionOffset: Int32
    /// Whether it is a sync sample (a keyframe).
    public var isSync: Bool

    /// Presentation time (media timescale).
    public var presentationTime: Int64 { decodeTime + Int64(compositionOffset) }
}

/// A track's header fields a copy keeps (`tkhd`): flags and everything after the
/// duration (layer, volume, display matrix, width, height).
public struct TrackHeader: Sendable, Equatable {
    /// The flags (enabled, in movie, in preview).
    public var flags: UInt32
    /// The 60 bytes after the duration: reserved, layer, alternate group, volume, reserved,
    /// matrix (36 bytes, which carries rotation), width and height (16.16).
    public var tail: [UInt8]

    /// The display matrix (36 bytes).
    public var matrix: [UInt8] { Array(tail[16..<52]) }
}

/// One track of a movie, with its sample table expanded into ``Sample`` values.
public struct Track: Sendable {
    /// The track id.
    public var id: UInt32
    /// The handler type: "vide", "soun", ...
    public var handler: String
    /// The media timescale (ticks per second).
    public var timescale: UInt32
    /// The packed ISO-639-2 language code of `mdhd`.
    public var language: UInt16
    /// The header fields a copy keeps.
    public var header: TrackHeader
    /// The `hdlr` box, whole.
    public var handlerBox: [UInt8]
    /// The media information header box (`vmhd`, `smhd`, ...), whole.
    public var mediaHeaderBox: [UInt8]
    /// The sample description (the one `stsd` entry), whole: e.g. an `avc1` box.
    public var sampleEntry: [UInt8]
    /// The edit list; nil when the track has none (its media starts at time 0).
    public var edits: [Edit]?
    /// The samples, in decoding order.
    public var samples: [Sample]
    /// The track's `udta` box, whole (tags such as the encoder), kept by a copy.
    public var userData: [UInt8]? = nil

    /// The sample entry's type, e.g. "avc1", "mp4a".
    public var format: String {
        sampleEntry.count >= 8 ? String(decoding: sampleEntry[4..<8], as: UTF8.self) : ""
    }

    /// Whether it is a video track.
    public var isVideo: Bool { handler == "vide" }

    /// Whether it is an audio track.
    public var isAudio: Bool { handler == "soun" }
}

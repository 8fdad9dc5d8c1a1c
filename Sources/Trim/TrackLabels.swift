import GStreamer
import MediaValues

/// What a track says about itself besides its samples, as a trim keeps it: its language,
/// its name, and whether players pick it by themselves (default) or must show it (forced).
/// Read from the input (a Matroska input's own track headers, ``MatroskaTrackLabels``;
/// otherwise what its demuxer tags its pad with), given to the output's muxer as stream
/// tags, and set exactly in a Matroska output's track headers afterwards (matroskamux 1.22
/// writes no flags and names every track "Video", "Audio" or "Subtitle").
struct TrackLabels: Sendable, Equatable {
    /// The language to tell the muxer (`GST_TAG_LANGUAGE_CODE`): an ISO 639 code, nil when
    /// the input says none.
    var languageCode: String?
    /// The exact Matroska `Language` element to write (ISO 639-2, "und" included); nil:
    /// keep what the muxer made of ``languageCode`` (an input that is not Matroska).
    var matroskaLanguage: String?
    /// The Matroska `LanguageBCP47` element of a Matroska input, when it has one.
    var languageBCP47: String?
    /// The track's name; nil when it has none.
    var name: String?
    /// Whether players may pick the track by themselves (Matroska `FlagDefault`).
    var isDefault = true
    /// Whether players must show it (Matroska `FlagForced`).
    var isForced = false

    /// The labels a demuxer's pad carries: its stream tags, and its STREAM_START flags (a
    /// stream marked `unselect`, such as a disabled MP4 track, is no default). Forced is not
    /// carried by GStreamer. A pad without a language (qtdemux tags none for "und") gets
    /// "und" in a Matroska output, whose default would be "eng".
    init(pad: Pad?) {
        let tags = pad?.streamTags ?? StreamTags()
        languageCode = tags.languageCode
        matroskaLanguage = tags.languageCode == nil ? "und" : nil
        name = tags.title
        isDefault = !(pad?.streamStart?.isUnselected ?? false)
    }

    init(
        languageCode: String? = nil, matroskaLanguage: String? = nil, languageBCP47: String? = nil, name: String? = nil,
        isDefault: Bool = true, isForced: Bool = false
    ) {
        self.languageCode = languageCode
        self.matroskaLanguage = matroskaLanguage
        self.languageBCP47 = languageBCP47
        self.name = name
        self.isDefault = isDefault
        self.isForced = isForced
    }

    /// The stream tags to give the output's muxer: the language always; the name only to
    /// matroskamux (which writes it as the track's name), not to MP4's muxers.
    func streamTags(for container: MediaContainer) -> StreamTags {
        StreamTags(languageCode: languageCode, title: container == .matroska ? name : nil)
    }

    /// The Matroska track number in a matroskademux stream id ("…/002:1234567890"), if it is one.
    static func matroskaTrackNumber(streamID: String) -> UInt64? {
        guard let last = streamID.split(separator: "/").last, let colon = last.firstIndex(of: ":") else { return nil }
        return UInt64(last[..<colon])
    }
}

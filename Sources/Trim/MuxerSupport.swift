import GStreamer
import MediaValues

/// What GStreamer 1.22's muxers (`mp4mux`, `qtmux`, `matroskamux`) accept on their sink
/// pads, by media type (the pad templates, as `gst-inspect-1.0` lists them), so that trim
/// refuses a stream a muxer cannot write before it writes anything, and names it. camrec's
/// own MP4 writer copies any sample description and needs none of this.
enum MuxerSupport {
    /// The kind of muxer pad a stream goes to.
    enum PadKind: String, Sendable {
        case video, audio, subtitle

        /// The muxer's request-pad template.
        var template: String { "\(rawValue)_%u" }
    }

    /// Whether `container`'s muxer takes a `kind` stream with these caps.
    static func accepts(_ container: MediaContainer, _ kind: PadKind, caps: Caps) -> Bool {
        guard let mediaType = caps.mediaType else { return false }
        return accepts(container, kind, mediaType: mediaType, mpegVersion: caps.int("mpegversion"), format: caps.string("format"))
    }

    /// Whether `container`'s muxer takes a `kind` stream of `mediaType` (with its
    /// `mpegversion` and, for raw audio and text, `format`).
    static func accepts(
        _ container: MediaContainer, _ kind: PadKind, mediaType: String, mpegVersion: Int? = nil, format: String? = nil
    ) -> Bool {
        let key = mediaType == "video/mpeg" || mediaType == "audio/mpeg" ? "\(mediaType):\(mpegVersion ?? 0)" : mediaType
        switch (container, kind) {
        case (.avi, _):
            // camrec writes no AVI (an AVI input is written as Matroska).
            return false
        case (.webm, _):
            // Written by matroskamux, as Matroska (trim marks the doctype afterwards).
            return accepts(.matroska, kind, mediaType: mediaType, mpegVersion: mpegVersion, format: format)
        case (_, .subtitle) where mediaType == "text/x-raw":
            // mp4mux and qtmux write tx3g from UTF-8 text; matroskamux also takes Pango markup
            // only as UTF-8 (the writer turns markup back into plain text first).
            return format == nil || format == "utf8" || format == "pango-markup"
        case (.matroska, .subtitle):
            return ["subtitle/x-kate", "application/x-ssa", "application/x-ass", "application/x-usf", "subpicture/x-dvd"]
                .contains(mediaType)
        case (_, .subtitle):
            return false
        case (.mp4, .video):
            return ["video/mpeg:4", "video/x-divx", "video/x-h264", "video/x-h265", "video/x-av1", "video/x-vp9"]
                .contains(key)
        case (.mov, .video):
            return [
                "video/mpeg:4", "video/x-divx", "video/x-prores", "video/x-cineform", "video/x-h263", "video/x-h264",
                "video/x-h265", "video/x-svq", "video/x-dv", "image/jpeg", "image/png", "video/x-vp8", "video/x-vp9",
                "video/x-dirac", "video/x-av1",
            ].contains(key)
        case (.matroska, .video):
            return [
                "video/mpeg:1", "video/mpeg:2", "video/mpeg:4", "video/x-h264", "video/x-h265", "video/x-divx",
                "video/x-huffyuv", "video/x-dv", "video/x-h263", "video/x-msmpeg", "image/jpeg", "video/x-theora",
                "video/x-dirac", "video/x-pn-realvideo", "video/x-vp8", "video/x-vp9", "video/x-prores", "video/x-wmv",
                "video/x-av1", "video/x-ffv",
            ].contains(key)
        case (.mp4, .audio):
            return ["audio/mpeg:1", "audio/mpeg:4", "audio/x-ac3", "audio/x-alac", "audio/x-opus"].contains(key)
        case (.mov, .audio):
            return [
                "audio/x-raw", "audio/mpeg:1", "audio/mpeg:4", "audio/x-ac3", "audio/x-adpcm", "audio/x-alaw",
                "audio/x-mulaw", "audio/AMR", "audio/AMR-WB", "audio/x-alac", "audio/x-opus",
            ].contains(key)
        case (.matroska, .audio):
            return [
                "audio/mpeg:1", "audio/mpeg:2", "audio/mpeg:4", "audio/x-ac3", "audio/x-eac3", "audio/x-dts",
                "audio/x-vorbis", "audio/x-flac", "audio/x-opus", "audio/x-speex", "audio/x-raw", "audio/x-tta",
                "audio/x-pn-realaudio", "audio/x-wma", "audio/x-alaw", "audio/x-mulaw", "audio/x-adpcm", "audio/G722",
            ].contains(key)
        }
    }
}

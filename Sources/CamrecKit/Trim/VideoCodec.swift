/// How trim handles one video codec: the parser that frames it, the caps of its
/// Annex B form, and the decoder to re-encode it.
struct VideoCodec: Sendable, Equatable {
    /// The media type, e.g. "video/x-h264".
    var mediaType: String
    /// A short name for messages ("H.264").
    var displayName: String
    /// The parser after the demuxer and before the muxer (nil: none needed).
    var parser: String?
    /// The caps the reader asks its parser for (Annex B, whole access units), if any.
    var readerCaps: String?
    /// The decoder used when re-encoding.
    var decoder: String?
    /// Whether trim can cut it frame-accurately (decode and re-encode to the same codec).
    var smartCut: Bool

    static let h264 = VideoCodec(
        mediaType: "video/x-h264", displayName: "H.264", parser: "h264parse",
        readerCaps: "video/x-h264,stream-format=byte-stream,alignment=au", decoder: "avdec_h264", smartCut: true
    )

    /// The codec of a media type; nil when trim cannot handle it at all.
    static func forMediaType(_ mediaType: String) -> VideoCodec? {
        switch mediaType {
        case "video/x-h264":
            return .h264
        case "video/x-h265":
            return VideoCodec(
                mediaType: mediaType, displayName: "HEVC", parser: "h265parse",
                readerCaps: "video/x-h265,stream-format=byte-stream,alignment=au", decoder: "avdec_h265", smartCut: false
            )
        case "image/jpeg":
            return VideoCodec(
                mediaType: mediaType, displayName: "MJPEG", parser: nil, readerCaps: nil, decoder: "jpegdec",
                smartCut: false
            )
        default:
            return nil
        }
    }
}

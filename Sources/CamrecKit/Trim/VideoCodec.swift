import GStreamer

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

    /// MPEG-4 Part 2 (ASP: DivX, Xvid, ffmpeg's `mpeg4`): cut at keyframes, or re-encoded
    /// to H.264. Its configuration (VOL header) is sent in-band before every keyframe, so a
    /// copy that starts on one decodes.
    static let mpeg4Part2 = VideoCodec(
        mediaType: "video/mpeg", displayName: "MPEG-4 Part 2", parser: "mpeg4videoparse",
        readerCaps: "video/mpeg,mpegversion=4,systemstream=false", decoder: "avdec_mpeg4", smartCut: false
    )

    /// The codecs trim handles, for messages.
    static let supportedNames = "H.264, HEVC, MPEG-4 Part 2 or MJPEG"

    /// The codec of an indexed movie's video.
    ///
    /// - Throws: invalid input naming the codec when trim cannot handle it.
    static func forIndex(_ index: FrameIndex, name: String) throws(CamrecError) -> VideoCodec {
        let caps = try? Caps(index.videoCaps)
        if let codec = forMediaType(index.videoMediaType, mpegVersion: caps?.int("mpegversion")) { return codec }
        let format = caps?.string("format").map { " \($0)" } ?? ""
        let version = caps?.int("mpegversion").map { " version \($0)" } ?? ""
        throw .invalidInput(
            "cannot trim \(name): its video codec (\(index.videoMediaType)\(version)\(format)) is not one trim handles"
                + " (\(supportedNames)); the \(index.container.fileExtension.uppercased()) container itself is fine"
        )
    }

    /// The codec of a media type (and, for "video/mpeg", its version); nil when trim cannot
    /// handle it at all.
    static func forMediaType(_ mediaType: String, mpegVersion: Int? = nil) -> VideoCodec? {
        switch mediaType {
        case "video/mpeg" where mpegVersion == 4:
            return .mpeg4Part2
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

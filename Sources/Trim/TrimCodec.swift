import GStreamer

/// How trim handles one video codec: the parsers that frame it, the decoder and encoder
/// that re-encode the edges of a cut in it, and how an edge joins the copied frames.
///
/// Every codec a muxer can carry is cut: frame-accurately where an encoder for the codec
/// exists here (H.264, MPEG-4 Part 2, MPEG-1/2, VP8, VP9, AV1), at keyframes otherwise
/// (HEVC, anything else), and exactly by copying alone when every frame is a keyframe
/// (MJPEG, ProRes, …).
struct TrimCodec: Sendable, Equatable {
    /// The media type, e.g. "video/x-h264".
    var mediaType: String
    /// A short name for messages ("H.264").
    var displayName: String
    /// The parser after the demuxer when reading, and before the decoder (nil: none needed).
    var parser: String?
    /// Whether the reader's parser is told to repeat the configuration before every
    /// keyframe (`config-interval=-1`), so that a copy starting on any keyframe decodes.
    var repeatsConfiguration = false
    /// The caps the reader asks its parser for, if any.
    var readerCaps: String?
    /// The parser before the muxer, if the muxer needs one (it builds the decoder
    /// configuration of H.264 and HEVC, and VP9's profile fields for mp4mux).
    var muxerParser: String?
    /// The decoder used when re-encoding.
    var decoder: String?
    /// The encoder of the same codec for the edges of a cut; nil when there is none here.
    var edgeEncoder: EdgeEncoder?
    /// Why the edges cannot be re-encoded in this codec here (when ``edgeEncoder`` is nil).
    var noEncoderReason: String?
    /// How the decoder configuration travels in the stream, for joining edges and copies.
    var configuration: InBandConfiguration = .none

    /// The encoders trim re-encodes edges with.
    enum EdgeEncoder: Sendable, Equatable {
        case x264, mpeg4, mpeg1, mpeg2, vp8, vp9, av1
    }

    /// How a stream carries its decoder configuration.
    enum InBandConfiguration: Sendable, Equatable {
        /// None (VP8, VP9, MJPEG …): every keyframe is complete in itself.
        case none
        /// H.264 SPS/PPS: in the sample description (`avcC`) under their own ids; the
        /// re-encoded parts get other ids.
        case h264ParameterSets
        /// Start-code headers before the first picture (MPEG-4 Part 2 VOS/VO/VOL, MPEG-1/2
        /// sequence header): `codec_data` holds them; a frame whose first start code is not
        /// one of `configurationCodes` lacks them.
        case startCodeHeaders(configurationCodes: [UInt8])
        /// An AV1 sequence header OBU (in `av1C` after its 4 bytes, and in keyframes).
        case av1SequenceHeader
    }

    /// Whether trim can cut it frame-accurately (decode and re-encode to the same codec).
    var smartCut: Bool { edgeEncoder != nil }

    static let h264 = TrimCodec(
        mediaType: "video/x-h264", displayName: "H.264", parser: "h264parse", repeatsConfiguration: true,
        readerCaps: "video/x-h264,stream-format=byte-stream,alignment=au", muxerParser: "h264parse",
        decoder: "avdec_h264", edgeEncoder: .x264, configuration: .h264ParameterSets
    )

    /// MPEG-4 Part 2 (ASP: DivX, Xvid, ffmpeg's `mpeg4`). Its configuration (VOS/VOL
    /// headers) sits in `codec_data`; the reader's parser repeats it before every keyframe.
    static let mpeg4Part2 = TrimCodec(
        mediaType: "video/mpeg", displayName: "MPEG-4 Part 2", parser: "mpeg4videoparse", repeatsConfiguration: true,
        readerCaps: "video/mpeg,mpegversion=4,systemstream=false", decoder: "avdec_mpeg4", edgeEncoder: .mpeg4,
        configuration: .startCodeHeaders(configurationCodes: [0xB0, 0xB5] + Array(0x00...0x2F))
    )

    static let hevc = TrimCodec(
        mediaType: "video/x-h265", displayName: "HEVC", parser: "h265parse", repeatsConfiguration: true,
        readerCaps: "video/x-h265,stream-format=byte-stream,alignment=au", muxerParser: "h265parse",
        decoder: "avdec_h265",
        noEncoderReason: "x265enc cannot give its parameter sets ids apart from the source's (HEVC has no"
            + " second decoder configuration for the re-encoded edges)"
    )

    static let vp9 = TrimCodec(
        mediaType: "video/x-vp9", displayName: "VP9", muxerParser: "vp9parse", decoder: "vp9dec", edgeEncoder: .vp9
    )

    static let vp8 = TrimCodec(mediaType: "video/x-vp8", displayName: "VP8", decoder: "vp8dec", edgeEncoder: .vp8)

    static let av1 = TrimCodec(
        mediaType: "video/x-av1", displayName: "AV1", decoder: "av1dec", edgeEncoder: .av1,
        configuration: .av1SequenceHeader
    )

    static func mpegVideo(version: Int) -> TrimCodec {
        TrimCodec(
            mediaType: "video/mpeg", displayName: "MPEG-\(version) video", parser: "mpegvideoparse",
            decoder: "avdec_mpeg2video", edgeEncoder: version == 1 ? .mpeg1 : .mpeg2,
            configuration: .startCodeHeaders(configurationCodes: [0xB3])
        )
    }

    /// MJPEG, decoded by libav's decoder: it gives each picture in its own chroma (a 4:2:2
    /// JPEG as Y42B), where `jpegdec` gives 4:2:2 as I420, so that `--mode reencode` keeps
    /// the source's chroma.
    static let mjpeg = TrimCodec(
        mediaType: "image/jpeg", displayName: "MJPEG", decoder: "avdec_mjpeg",
        noEncoderReason: "MJPEG edges are not re-encoded (every MJPEG frame is a keyframe)"
    )

    /// The codec of an indexed movie's video: a known codec, or one trim can only copy.
    static func forIndex(_ index: FrameIndex) -> TrimCodec {
        let caps = try? Caps(index.videoCaps)
        return forMediaType(index.videoMediaType, caps: caps)
    }

    /// The codec of a media type with these caps (for "video/mpeg", their `mpegversion`).
    static func forMediaType(_ mediaType: String, caps: Caps? = nil) -> TrimCodec {
        switch mediaType {
        case "video/x-h264": return .h264
        case "video/x-h265": return .hevc
        case "video/x-vp9": return .vp9
        case "video/x-vp8": return .vp8
        case "video/x-av1": return .av1
        case "image/jpeg": return .mjpeg
        case "video/mpeg":
            switch caps?.int("mpegversion") {
            case 4: return .mpeg4Part2
            case 1: return .mpegVideo(version: 1)
            case 2: return .mpegVideo(version: 2)
            default: return copyOnly(mediaType, name: "MPEG video")
            }
        case "video/x-xvid", "video/x-divx":
            guard mediaType == "video/x-xvid" || (caps?.int("divxversion") ?? 5) >= 4 else {
                return copyOnly(mediaType, name: "DivX \(caps?.int("divxversion") ?? 3)")
            }
            var codec = TrimCodec.mpeg4Part2
            codec.mediaType = mediaType
            codec.parser = nil
            codec.repeatsConfiguration = false
            codec.readerCaps = nil
            return codec
        default:
            return copyOnly(mediaType, name: mediaType.split(separator: "/").last.map { String($0) } ?? mediaType)
        }
    }

    /// A codec trim can copy but not re-encode (nor parse).
    static func copyOnly(_ mediaType: String, name: String) -> TrimCodec {
        let short = name.hasPrefix("x-") ? String(name.dropFirst(2)) : name
        return TrimCodec(
            mediaType: mediaType, displayName: short.uppercased() == short ? short : short.capitalized,
            noEncoderReason: "no encoder for it is installed here"
        )
    }
}

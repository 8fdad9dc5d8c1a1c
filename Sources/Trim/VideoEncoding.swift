import GStreamer

/// How a trim's re-encoder makes frames: the raw format decoded frames are converted to and
/// the encoder with its settings. For the edges of a cut it is chosen from the source so
/// that the new frames fit in its stream: the same codec, bit depth and chroma, and for
/// H.264 a profile and level no higher than the source's (held to that level's bit rate and
/// buffer), so the source's sample description stays true for every frame.
struct VideoEncoding: Sendable, Equatable {
    /// How x264 (or another encoder) trades speed for size.
    enum Effort: Sendable, Equatable {
        /// The few seconds at the edges of a smart cut, where time matters more than bytes:
        /// fast settings at high constant quality (x264 `ultrafast` at CRF 25: about 50 dB
        /// luma PSNR against the source, at up to twice its bitrate for those seconds).
        case edges
        /// A whole movie (`--mode reencode`): x264 `veryfast` at CRF 18.
        case whole

        /// Decoder threads: one for the edges (head and tail encode at once, each decoding
        /// and encoding on its own thread: more threads only cost context switches on two
        /// cores, measured 0.72 s against 0.9 s for a 720p cut); libav's default otherwise.
        var decoderThreads: String {
            self == .edges ? " max-threads=1" : ""
        }
    }

    /// Caps the decoded frames are converted to (`videoconvert`) before the encoder; nil:
    /// they go in as decoded, and a format the encoder cannot take fails (the caller then
    /// cuts at keyframes instead: never a silent change of bit depth or chroma).
    var rawCaps: String?
    /// The encoder element and its settings, in gst-launch syntax.
    var encoder: String
    /// x264 options (its `option-string`), the parameter-set id added per part.
    var x264Options: [String] = []
    /// The caps the encoder's output is fixed to.
    var outputCaps: String
    /// The codec it writes.
    var codec: TrimCodec

    /// The encoder's part of a pipeline description, with `parameterSetID` for H.264.
    func launchText(parameterSetID: Int) -> String {
        guard codec.edgeEncoder == .x264 else { return "\(encoder) ! \(outputCaps)" }
        let options = (["sps-id=\(parameterSetID)"] + x264Options).joined(separator: ":")
        return "\(encoder) option-string=\"\(options)\" ! \(outputCaps)"
    }

    /// Why a re-encode in the source's format cannot be made here.
    struct Unavailable: Error, Sendable, Equatable {
        let reason: String
    }

    // MARK: The edges of a cut

    /// The encoding for the edges of a cut of a `codec` stream with these caps (and, for
    /// H.264, this `codec_data`).
    static func edges(of codec: TrimCodec, caps: Caps?, codecData: [UInt8]?) throws(Unavailable) -> VideoEncoding {
        guard let kind = codec.edgeEncoder else {
            throw Unavailable(reason: codec.noEncoderReason ?? "no \(codec.displayName) encoder is installed here")
        }
        switch kind {
        case .x264:
            let format = codecData.flatMap(H264Format.init(avcC:)) ?? caps.flatMap(H264Format.init(caps:))
            return try h264Edges(matching: format)
        case .mpeg4:
            // ffmpeg's MPEG-4 encoder at a fine constant quantizer, no B-frames; it writes its
            // VOS/VOL headers before its first frame. MPEG-4 ASP is 8-bit 4:2:0 (I420).
            return VideoEncoding(
                encoder: "avenc_mpeg4 pass=quant quantizer=2 max-bframes=0 gop-size=100000 threads=1",
                outputCaps: "video/mpeg,mpegversion=4,systemstream=false", codec: codec
            )
        case .mpeg1, .mpeg2:
            // mjpegtools' encoder (gst-libav 1.22's avenc_mpeg2video refuses its own time base);
            // its caps always say MPEG-1: the parser reads the version from the stream.
            let format = kind == .mpeg1 ? 0 : 3
            let version = kind == .mpeg1 ? 1 : 2
            return VideoEncoding(
                encoder: "mpeg2enc format=\(format) quantisation=2 b-per-refframe=0 max-gop-size=250 ! mpegvideoparse",
                outputCaps: "video/mpeg,mpegversion=\(version),systemstream=false", codec: codec
            )
        case .vp8, .vp9:
            // libvpx in realtime mode at constant quality, without hidden (alt-ref) frames, so
            // every packet is one shown frame; the profile follows the decoded format.
            let element = kind == .vp8 ? "vp8enc" : "vp9enc"
            return VideoEncoding(
                encoder: "\(element) deadline=1 cpu-used=8 lag-in-frames=0 auto-alt-ref=false end-usage=cq"
                    + " cq-level=10 target-bitrate=200000000 min-quantizer=4 max-quantizer=20 keyframe-max-dist=100000"
                    + " threads=1",
                outputCaps: kind == .vp8 ? "video/x-vp8" : "video/x-vp9", codec: codec
            )
        case .av1:
            // Matroska's codec_data is an av1C record (qtdemux gives its OBUs alone: then the
            // encoder's refusal of the decoded format says it).
            if let caps, let av1C = caps.bytes("codec_data"), av1C.count >= 4, av1C[0] == 0x81 {
                // av1C: high_bitdepth and monochrome flags; av1enc here encodes 8-bit colour only.
                if av1C[2] & 0x40 != 0 { throw Unavailable(reason: "av1enc here encodes 8-bit AV1 only") }
                if av1C[2] & 0x10 != 0 { throw Unavailable(reason: "av1enc here encodes no monochrome AV1") }
            }
            return VideoEncoding(
                encoder: "av1enc usage-profile=realtime cpu-used=9 end-usage=q min-quantizer=16 max-quantizer=28"
                    + " lag-in-frames=0 keyframe-max-dist=100000 threads=1",
                outputCaps: "video/x-av1,stream-format=obu-stream,alignment=tu", codec: codec
            )
        }
    }

    /// x264 for the edges of an H.264 stream in `format`: the same chroma and bit depth;
    /// the tools of a profile no higher than the source's (Baseline: CAVLC and 4x4
    /// transforms; Main: CABAC; High: CABAC and 8x8 transforms; High 10/4:2:2/4:4:4
    /// follow from the format); the source's level, with the level's bit rate and buffer
    /// as x264's VBV so that the edges keep to it. Unknown format: x264's own choices.
    static func h264Edges(matching format: H264Format?) throws(Unavailable) -> VideoEncoding {
        let base = "x264enc bframes=0 key-int-max=100000 trellis=false speed-preset=ultrafast pass=qual quantizer=25"
            + " threads=1"
        let output = "video/x-h264,stream-format=byte-stream,alignment=au"
        guard let format else {
            return VideoEncoding(
                rawCaps: "video/x-raw,format=I420", encoder: base + " bitrate=2048000", outputCaps: output, codec: .h264
            )
        }
        let raw = try h264RawFormat(format)
        let highBitDepth = format.bitDepthLuma > 8
        let cabac = format.profile != 66 && format.profile != 88 && format.profile != 44
        let transform8x8 = format.profile >= 100 && format.profile != 44
        // The profile x264 writes with these tools in this format.
        let edgeProfile: Int
        switch (format.chromaFormat, highBitDepth) {
        case (3, _): edgeProfile = 244
        case (2, _): edgeProfile = 122
        case (_, true): edgeProfile = 110
        default: edgeProfile = transform8x8 ? 100 : (cabac ? 77 : 66)
        }
        var encoder = base + " cabac=\(cabac) dct8x8=\(transform8x8)"
        var options: [String] = []
        if let limits = H264Level.limits(levelIDC: format.level, isLevel1b: format.isLevel1b) {
            encoder += limits.x264RateControl(profile: edgeProfile)
            options.append("level=\(format.levelName)")
        } else {
            encoder += " bitrate=2048000"
        }
        return VideoEncoding(
            rawCaps: "video/x-raw,format=\(raw)", encoder: encoder, x264Options: options, outputCaps: output, codec: .h264
        )
    }

    /// The raw format x264 takes for an H.264 format's chroma and bit depth.
    static func h264RawFormat(_ format: H264Format) throws(Unavailable) -> String {
        guard format.bitDepthLuma == format.bitDepthChroma, format.bitDepthLuma == 8 || format.bitDepthLuma == 10 else {
            throw Unavailable(
                reason: "x264enc here encodes 8-bit and 10-bit H.264, not \(format.bitDepthLuma)-bit"
                    + (format.bitDepthLuma == format.bitDepthChroma ? "" : "/\(format.bitDepthChroma)-bit")
            )
        }
        let suffix = format.bitDepthLuma == 10 ? "_10LE" : ""
        switch format.chromaFormat {
        case 1: return "I420" + suffix
        case 2: return (suffix.isEmpty ? "Y42B" : "I422") + suffix
        case 3: return "Y444" + suffix
        default: throw Unavailable(reason: "x264enc here encodes no monochrome (4:0:0) H.264")
        }
    }

    // MARK: A whole re-encode

    /// x264 for `--mode reencode`: every frame re-encoded to H.264 in the decoded chroma and
    /// bit depth (an H.264 source's exactly; others as near as x264 takes them: 4:2:0,
    /// 4:2:2 or 4:4:4, 8 or 10 bits), at `veryfast` CRF 18, declaring the lowest level that
    /// holds the picture size and frame rate (``H264LevelFit``) and held to its bit rate and
    /// buffer. `framesPerSecond` is used when the caps give no frame rate (variable rate).
    static func whole(
        from codec: TrimCodec, caps: Caps?, codecData: [UInt8]?, framesPerSecond: Double? = nil
    ) -> VideoEncoding {
        var raw = "video/x-raw,format=(string){ I420, Y42B, Y444, I420_10LE, I422_10LE, Y444_10LE }"
        // The profile x264 will write, for the level's bit rate factor: High unless the
        // source's exact format says more (a higher factor only allows more).
        var profile = 100
        if codec.edgeEncoder == .x264,
           let format = codecData.flatMap(H264Format.init(avcC:)) ?? caps.flatMap(H264Format.init(caps:)),
           let exact = try? h264RawFormat(format) {
            raw = "video/x-raw,format=\(exact)"
            profile = format.chromaFormat == 3 ? 244 : format.chromaFormat == 2 ? 122 : format.bitDepthLuma > 8 ? 110 : 100
        }
        var encoder = "x264enc bframes=0 key-int-max=100000 trellis=false speed-preset=veryfast pass=qual quantizer=18"
        var options: [String] = []
        let rate = caps?.fraction("framerate").flatMap { $0.numerator > 0 && $0.denominator > 0
            ? Double($0.numerator) / Double($0.denominator) : nil
        } ?? framesPerSecond
        if let width = caps?.int("width"), let height = caps?.int("height"), let rate,
           let level = H264LevelFit.level(width: width, height: height, framesPerSecond: rate),
           let limits = H264Level.limits(levelIDC: level) {
            encoder += limits.x264RateControl(profile: profile)
            options.append("level=\(H264LevelFit.name(level))")
        } else {
            // Size or rate unknown: x264's own level for its default 2 Mbit/s cap.
            encoder += " bitrate=2048"
        }
        return VideoEncoding(
            rawCaps: raw, encoder: encoder, x264Options: options,
            outputCaps: "video/x-h264,stream-format=byte-stream,alignment=au", codec: .h264
        )
    }
}

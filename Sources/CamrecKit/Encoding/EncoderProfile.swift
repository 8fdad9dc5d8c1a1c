/// How one encoder element is told camrec's settings: its bitrate (units differ: kbit/s for
/// most, bit/s for openh264enc and V4L2's controls), its keyframe interval (each names it
/// differently), its rate control, and the raw format it takes.
///
/// Known encoders are mapped by name from their GStreamer 1.22 properties (docs/encoders.md
/// has the table); any other
/// encoder (a vendor's plugin, the tests' fake hardware encoder) is mapped from the
/// properties it has: `bitrate` taken as kbit/s, as GStreamer's encoders almost all do,
/// and the first GOP property found among the common names.
public struct EncoderProfile: Sendable, Equatable {
    /// The element factory, e.g. "x264enc".
    public var factory: String
    /// Its properties for the settings, as `name=value` in pipeline syntax.
    public var properties: [String]
    /// The raw format it is given (`video/x-raw,format=…`): I420 for the software
    /// encoders, NV12 for hardware ones (the format they all take); nil lets the converter
    /// and the encoder agree on one.
    public var inputFormat: String?

    /// The element in pipeline syntax: factory and properties.
    public var element: String {
        ([factory] + properties).joined(separator: " ")
    }

    /// What a profile is made from.
    public struct Settings: Sendable, Equatable {
        /// The codec the encoder makes.
        public var codec: VideoCodec
        /// `--quality`.
        public var quality: Quality
        /// Target bitrate in kbit/s (nil for Motion JPEG, which has no rate control).
        public var bitrate: Int?
        /// Frames from one keyframe to the next.
        public var gop: Int
        /// Whether the bitrate was asked for (`--bitrate`): then it is held to, even where
        /// the picture would need fewer bits (x265's average bitrate mode falls a quarter
        /// short on simple pictures).
        public var bitrateAsked: Bool
        /// The effort `--quality auto` chose (x265enc, x264enc); nil: the quality's own preset.
        public var effort: EncoderEffort?

        public init(codec: VideoCodec, quality: Quality, bitrate: Int?, gop: Int, bitrateAsked: Bool = false,
                    effort: EncoderEffort? = nil) {
            self.codec = codec
            self.quality = quality
            self.bitrate = bitrate
            self.gop = gop
            self.bitrateAsked = bitrateAsked
            self.effort = effort
        }
    }

    /// GOP property names of encoders camrec does not know, in the order tried.
    static let gopProperties = ["key-int-max", "keyframe-period", "gop-size", "iframeinterval", "keyframe-interval"]

    /// The profile of `factory` for `settings`; `hasProperty` answers for encoders camrec
    /// does not know by name (it is not asked about known ones).
    public static func make(factory: String, settings: Settings, hasProperty: (String) -> Bool) -> EncoderProfile {
        let kbps = settings.bitrate ?? 0
        let gop = max(1, settings.gop)
        let q = settings.quality
        switch factory {
        case "x264enc":
            return EncoderProfile(factory: factory, properties: [
                "speed-preset=\(settings.effort?.preset ?? q.x264Preset)", "tune=zerolatency", "key-int-max=\(gop)",
                "bitrate=\(kbps)",
            ], inputFormat: "I420")
        case "x265enc":
            var properties = ["speed-preset=\(settings.effort?.preset ?? q.x265Preset)", "tune=zerolatency",
                              "key-int-max=\(gop)", "bitrate=\(kbps)"]
            var options: [String] = []
            if settings.bitrateAsked {
                options.append("vbv-maxrate=\(kbps):vbv-bufsize=\(kbps):strict-cbr=1")
            }
            // One thread: no pool, so no wavefront rows handed between threads (EncoderEffort).
            if settings.effort?.oneThread == true { options.append("pools=none") }
            if !options.isEmpty {
                properties.append("option-string=\"\(options.joined(separator: ":"))\"")
            }
            return EncoderProfile(factory: factory, properties: properties, inputFormat: "I420")
        case "jpegenc":
            return EncoderProfile(factory: factory, properties: ["quality=\(q.jpegQuality)"], inputFormat: "I420")
        case "openh264enc":
            return EncoderProfile(factory: factory, properties: [
                "rate-control=bitrate", "bitrate=\(kbps * 1000)", "gop-size=\(gop)",
            ], inputFormat: "I420")
        case "v4l2h264enc", "v4l2h265enc":
            // V4L2 memory-to-memory encoders take their settings as controls; the GOP must be
            // set here (keyframe requests are honoured only from 1.22.4), and the headers
            // repeated so that every fragment and segment plays on its own.
            // (the HEVC driver's GOP control is video_gop_size, and it has no repeat control).
            let controls = factory == "v4l2h264enc"
                ? "video_bitrate=\(kbps * 1000),h264_i_frame_period=\(gop),repeat_sequence_header=1"
                : "video_bitrate=\(kbps * 1000),video_gop_size=\(gop)"
            return EncoderProfile(factory: factory, properties: ["extra-controls=\"controls,\(controls)\""], inputFormat: "NV12")
        case "vah264enc", "vah264lpenc", "vah265enc", "vah265lpenc":
            return EncoderProfile(factory: factory, properties: [
                "rate-control=cbr", "bitrate=\(kbps)", "key-int-max=\(gop)",
            ], inputFormat: "NV12")
        case "vaapih264enc", "vaapih265enc":
            return EncoderProfile(factory: factory, properties: [
                "rate-control=cbr", "bitrate=\(kbps)", "keyframe-period=\(gop)",
            ], inputFormat: "NV12")
        case "nvh264enc", "nvh265enc":
            return EncoderProfile(factory: factory, properties: [
                "rc-mode=cbr", "bitrate=\(kbps)", "gop-size=\(gop)", "zerolatency=true",
            ], inputFormat: "NV12")
        case "qsvh264enc", "qsvh265enc":
            return EncoderProfile(factory: factory, properties: [
                "rate-control=cbr", "bitrate=\(kbps)", "gop-size=\(gop)",
            ], inputFormat: "NV12")
        case _ where factory.hasPrefix("avenc_"):
            // libavcodec's encoders (gstreamer1.0-libav): bit/s and gop-size.
            var properties: [String] = []
            if settings.codec.hasRateControl { properties.append("bitrate=\(kbps * 1000)") }
            if settings.codec != .mjpeg { properties.append("gop-size=\(gop)") }
            return EncoderProfile(factory: factory, properties: properties, inputFormat: nil)
        default:
            var properties: [String] = []
            if settings.codec.hasRateControl, hasProperty("bitrate") { properties.append("bitrate=\(kbps)") }
            if let name = gopProperties.first(where: hasProperty) { properties.append("\(name)=\(gop)") }
            return EncoderProfile(factory: factory, properties: properties, inputFormat: nil)
        }
    }
}

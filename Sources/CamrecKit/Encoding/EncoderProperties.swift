/// A bitrate and a keyframe interval in each encoder's own properties: the units and names
/// differ (kbit/s or bit/s; `key-int-max`, `keyframe-period`, `gop-size` or a V4L2 control),
/// and some encoders ignore a bitrate unless their rate control is told to use one. From
/// GStreamer 1.22.0's source (docs/encoders.md has the table).
public enum EncoderProperties {
    /// The property assignments in pipeline syntax for `factory`, e.g. ["bitrate=4000",
    /// "key-int-max=60"]; nil values are left to the encoder. Unknown factories get none.
    public static func assignments(for factory: String, bitrateKbps: Int?, keyframeInterval: Int?) -> [String] {
        let kbps = bitrateKbps.map { max(1, $0) }
        let gop = keyframeInterval.map { max(1, $0) }
        func pairs(_ values: [(String, Int?)]) -> [String] {
            values.compactMap { name, value in value.map { "\(name)=\($0)" } }
        }
        switch factory {
        case "x264enc", "x265enc", "vah264enc", "vah265enc", "vah264lpenc", "vah265lpenc":
            return pairs([("bitrate", kbps), ("key-int-max", gop)])
        case "openh264enc":
            // bit/s; its default rate control ("quality") does not aim at a bitrate.
            return (kbps == nil ? [] : ["rate-control=bitrate"]) + pairs([("bitrate", kbps.map { $0 * 1000 }), ("gop-size", gop)])
        case "vaapih264enc", "vaapih265enc":
            // Its default rate control is a constant quantizer, which ignores the bitrate.
            return (kbps == nil ? [] : ["rate-control=cbr"]) + pairs([("bitrate", kbps), ("keyframe-period", gop)])
        case "nvh264enc", "nvh265enc":
            return (kbps == nil ? [] : ["rc-mode=cbr"]) + pairs([("bitrate", kbps), ("gop-size", gop)])
        case "qsvh264enc", "qsvh265enc":
            return pairs([("bitrate", kbps), ("gop-size", gop)])
        case "v4l2h264enc", "v4l2h265enc":
            // V4L2 controls: bit/s, the keyframe period, and the parameter sets before every
            // keyframe (1.22.0 ignores keyframe requests; the period is the only GOP control).
            let period = factory == "v4l2h264enc" ? "h264_i_frame_period" : "video_gop_size"
            let controls = pairs([("video_bitrate", kbps.map { $0 * 1000 }), (period, gop)])
                + (factory == "v4l2h264enc" ? ["repeat_sequence_header=1"] : [])
            return controls.isEmpty ? [] : ["extra-controls=\"controls," + controls.joined(separator: ",") + "\""]
        case "fakehwh264enc", "brokenhwh264enc":
            // The tests' fake hardware encoders, shaped like vaapi's.
            return pairs([("bitrate", kbps), ("keyframe-period", gop)])
        default:
            return []
        }
    }

    /// The element in pipeline syntax: the factory and its assignments, e.g.
    /// "vaapih264enc rate-control=cbr bitrate=4000 keyframe-period=60". A `describe` for
    /// `EncoderSelection.select`.
    public static func description(of candidate: EncoderCandidate, bitrateKbps: Int?, keyframeInterval: Int?) -> String {
        ([candidate.factory] + assignments(for: candidate.factory, bitrateKbps: bitrateKbps, keyframeInterval: keyframeInterval))
            .joined(separator: " ")
    }
}

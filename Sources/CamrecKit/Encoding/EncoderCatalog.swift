import GStreamer

/// An installed GStreamer element that encodes video to one codec, as camrec considers it
/// when choosing an encoder (`--encoder`) or listing them (`camrec encoders`).
public struct EncoderCandidate: Sendable, Equatable, Codable {
    /// The element factory, e.g. "x264enc", "vah264enc".
    public var factory: String
    /// GStreamer's long name, e.g. "x264 H.264 Encoder".
    public var longName: String
    /// What it encodes to.
    public var codec: VideoCodec
    /// Whether its klass carries the `Hardware` word ("Codec/Encoder/Video/Hardware").
    public var isHardware: Bool
    /// Its GStreamer rank (0 NONE … 256 PRIMARY); it does not order hardware encoders
    /// sensibly (va's are NONE, vaapi's PRIMARY like x264enc), so camrec orders by its own rules.
    public var rank: Int
    /// The plugin that provides it, e.g. "x264" ("" when unknown).
    public var plugin: String

    public init(factory: String, longName: String, codec: VideoCodec, isHardware: Bool, rank: Int, plugin: String) {
        self.factory = factory
        self.longName = longName
        self.codec = codec
        self.isHardware = isHardware
        self.rank = rank
        self.plugin = plugin
    }

    /// "hardware" or "software".
    public var kind: String { isHardware ? "hardware" : "software" }
}

/// The video encoders installed here, per codec, in the order camrec tries them.
public enum EncoderCatalog {
    /// camrec's software encoders per codec, best first: x264enc is the reference (its
    /// presets, tune=zerolatency, a fixed GOP), openh264enc the fallback for H.264.
    public static func softwarePreference(for codec: VideoCodec) -> [String] {
        switch codec {
        case .h264: ["x264enc", "openh264enc"]
        case .h265: ["x265enc"]
        case .mjpeg: ["jpegenc"]
        }
    }

    /// The encoders for `codec` installed here, ordered (see `ordered`). Empty when GStreamer
    /// cannot start (the caller reports that no encoder was found).
    public static func candidates(for codec: VideoCodec) -> [EncoderCandidate] {
        guard let factories = try? ElementFactory.videoEncoders() else { return [] }
        return candidates(from: factories, for: codec)
    }

    /// Every encoder of every codec camrec records (H.264, H.265, Motion JPEG), each codec's
    /// in the order `candidates(for:)` gives. An element that encodes to several codecs
    /// appears once for each.
    public static func allCandidates() -> [EncoderCandidate] {
        guard let factories = try? ElementFactory.videoEncoders() else { return [] }
        return VideoCodec.allCases.flatMap { candidates(from: factories, for: $0) }
    }

    /// Those of `factories` whose source pad template can give `codec`'s caps, ordered.
    private static func candidates(from factories: [ElementFactory], for codec: VideoCodec) -> [EncoderCandidate] {
        let found = factories.compactMap { factory -> EncoderCandidate? in
            guard (try? factory.canIntersect(.source, codec.capsName)) == true else { return nil }
            return EncoderCandidate(factory: factory.name, longName: factory.longName, codec: codec,
                                    isHardware: isHardware(klass: factory.klass), rank: factory.rank,
                                    plugin: factory.pluginName ?? "")
        }
        return ordered(found, for: codec)
    }

    /// Whether a factory's klass marks it as hardware: the `Hardware` word.
    public static func isHardware(klass: String) -> Bool {
        klass.split(separator: "/").contains("Hardware")
    }

    /// The order camrec tries encoders in: hardware first (by rank, highest first, then by
    /// name, so that the order is the same on every run), then software in camrec's
    /// preference (`softwarePreference`), then other software by rank and name.
    public static func ordered(_ candidates: [EncoderCandidate], for codec: VideoCodec) -> [EncoderCandidate] {
        let preference = softwarePreference(for: codec)
        func key(_ candidate: EncoderCandidate) -> (Int, Int, Int, String) {
            let group = candidate.isHardware ? 0 : (preference.contains(candidate.factory) ? 1 : 2)
            let preferred = preference.firstIndex(of: candidate.factory) ?? 0
            return (group, preferred, -candidate.rank, candidate.factory)
        }
        return candidates.sorted { key($0) < key($1) }
    }
}

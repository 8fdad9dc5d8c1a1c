import MP4
import GStreamer

/// The coded format of an H.264 stream as its sequence parameter set declares it: profile,
/// constraint flags, level, chroma format and bit depths. The re-encoded edges of a cut are
/// made in this format (the same chroma and bit depth, a profile and level no higher), so
/// that the source's sample description stays true for every frame.
struct H264Format: Sendable, Equatable {
    /// `profile_idc`: 66 Baseline, 77 Main, 88 Extended, 100 High, 110 High 10,
    /// 122 High 4:2:2, 244 High 4:4:4 Predictive, ...
    var profile: Int
    /// The byte of `constraint_set0_flag` … `constraint_set5_flag` (most significant first).
    var constraints: Int
    /// `level_idc` (ten times the level: 31 is level 3.1; 11 with constraint_set3 in the
    /// Baseline, Main and Extended profiles, or 9, is level 1b).
    var level: Int
    /// `chroma_format_idc`: 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    var chromaFormat: Int
    /// Luma bit depth (8 to 14).
    var bitDepthLuma: Int
    /// Chroma bit depth (8 to 14).
    var bitDepthChroma: Int

    init(profile: Int, constraints: Int = 0, level: Int, chromaFormat: Int = 1, bitDepthLuma: Int = 8, bitDepthChroma: Int = 8) {
        self.profile = profile
        self.constraints = constraints
        self.level = level
        self.chromaFormat = chromaFormat
        self.bitDepthLuma = bitDepthLuma
        self.bitDepthChroma = bitDepthChroma
    }

    /// Reads an SPS NAL unit (its header byte first); nil when it is not one, is cut short
    /// before its bit depths, or declares a chroma format or bit depth H.264 does not have.
    init?(sequenceSet unit: [UInt8]) {
        guard let sps = H264SequenceParameterSet(unit: unit), let format = sps.format, format.chromaFormat <= 3,
              format.bitDepthLuma <= 14, format.bitDepthChroma <= 14
        else { return nil }
        self.init(profile: sps.profile, constraints: sps.constraints, level: sps.level, chromaFormat: format.chromaFormat,
                  bitDepthLuma: format.bitDepthLuma, bitDepthChroma: format.bitDepthChroma)
    }

    /// The format of the first SPS of an `avcC` record (GStreamer's `codec_data`).
    init?(avcC: [UInt8]) {
        guard let unit = H264ParameterSets(avcC: avcC)?.sequenceSets.first else { return nil }
        self.init(sequenceSet: unit)
    }

    /// The format of the stream with these caps: from their `codec_data`, else from the
    /// fields `h264parse` sets (profile, level, chroma-format, bit-depth-luma/-chroma).
    init?(caps: Caps) {
        if let avcC = caps.bytes("codec_data"), let format = H264Format(avcC: avcC) {
            self = format
            return
        }
        guard let profileName = caps.string("profile"), let profile = Self.profileIDC(profileName),
              let levelName = caps.string("level"), let level = Self.levelIDC(levelName)
        else { return nil }
        let chroma = ["4:0:0": 0, "4:2:0": 1, "4:2:2": 2, "4:4:4": 3][caps.string("chroma-format") ?? "4:2:0"] ?? 1
        self.init(
            profile: profile, constraints: levelName == "1b" ? 0x10 : 0, level: level, chromaFormat: chroma,
            bitDepthLuma: caps.int("bit-depth-luma") ?? 8, bitDepthChroma: caps.int("bit-depth-chroma") ?? 8
        )
    }

    /// Whether the level is 1b (level_idc 11 with constraint_set3 below High, or 9).
    var isLevel1b: Bool {
        level == 9 || (level == 11 && profile < 100 && constraints & 0x10 != 0)
    }

    /// The level as x264 and people write it: "1b", "3.1", "4".
    var levelName: String {
        if isLevel1b { return "1b" }
        return level % 10 == 0 ? "\(level / 10)" : "\(level / 10).\(level % 10)"
    }

    /// The profile's name, for messages.
    var profileName: String {
        switch profile {
        case 66: constraints & 0x40 != 0 ? "Constrained Baseline" : "Baseline"
        case 77: "Main"
        case 88: "Extended"
        case 100: "High"
        case 110: "High 10"
        case 122: "High 4:2:2"
        case 244: "High 4:4:4 Predictive"
        case 44: "CAVLC 4:4:4 Intra"
        default: "profile \(profile)"
        }
    }

    /// The chroma format's name.
    var chromaName: String { ["4:0:0", "4:2:0", "4:2:2", "4:4:4"][min(max(chromaFormat, 0), 3)] }

    static func profileIDC(_ name: String) -> Int? {
        [
            "constrained-baseline": 66, "baseline": 66, "main": 77, "extended": 88, "high": 100,
            "high-10": 110, "high-10-intra": 110, "high-4:2:2": 122, "high-4:2:2-intra": 122,
            "high-4:4:4": 244, "high-4:4:4-intra": 244, "cavlc-4:4:4-intra": 44,
        ][name]
    }

    static func levelIDC(_ name: String) -> Int? {
        if name == "1b" { return 11 }
        guard let value = Double(name) else { return nil }
        return Int((value * 10).rounded())
    }
}

/// The limits of an H.264 level that a re-encoder is held to (ITU-T H.264 table A-1):
/// the largest bit rate and coded picture buffer, in units of 1000 bits for the Baseline,
/// Main and Extended profiles (higher profiles scale them: ``bitRateFactor(profile:)``).
struct H264Level: Sendable, Equatable {
    /// MaxBR (kbit/s at factor 1).
    var maxBitRate: Int
    /// MaxCPB (kbit at factor 1).
    var maxBuffer: Int

    /// The limits of `level_idc` (`isLevel1b` for level 1b); nil for an unknown level.
    static func limits(levelIDC: Int, isLevel1b: Bool = false) -> H264Level? {
        if isLevel1b { return H264Level(maxBitRate: 128, maxBuffer: 350) }
        let table: [Int: (Int, Int)] = [
            10: (64, 175), 11: (192, 500), 12: (384, 1000), 13: (768, 2000),
            20: (2000, 2000), 21: (4000, 4000), 22: (4000, 4000),
            30: (10000, 10000), 31: (14000, 14000), 32: (20000, 20000),
            40: (20000, 25000), 41: (50000, 62500), 42: (50000, 62500),
            50: (135_000, 135_000), 51: (240_000, 240_000), 52: (240_000, 240_000),
            60: (240_000, 240_000), 61: (480_000, 480_000), 62: (800_000, 800_000),
        ]
        return table[levelIDC].map { H264Level(maxBitRate: $0.0, maxBuffer: $0.1) }
    }

    /// How a profile scales the level's bit rate and buffer (cpbBrVclFactor / 1000):
    /// High 1.25, High 10 3, High 4:2:2 and 4:4:4 4.
    static func bitRateFactor(profile: Int) -> Double {
        switch profile {
        case 100: 1.25
        case 110: 3
        case 122, 244, 44: 4
        default: 1
        }
    }

    /// x264enc's rate control held to this level for `profile`: its bit rate (kbit/s) and
    /// VBV buffer (ms), as properties to add to the encoder's description.
    func x264RateControl(profile: Int) -> String {
        let bitRate = min(2_048_000, max(1, Int(Double(maxBitRate) * Self.bitRateFactor(profile: profile))))
        let buffer = min(10_000, max(1, maxBuffer * 1000 / maxBitRate))
        return " bitrate=\(bitRate) vbv-buf-capacity=\(buffer)"
    }
}

/// An H.264 sequence parameter set (ISO 14496-10 7.3.2.1.1, E.1.1), read once for every
/// user: recover's sample entry (``AVCSequenceParameters``: picture size and frame rate),
/// trim's coded format (profile, level, chroma, bit depths), the parameter-set ids it must
/// avoid, the range a source declares, and where the VUI's signal fields lie so that they
/// can be rewritten bit for bit.
///
/// The fields are read in order and kept as far as the unit goes: a unit cut short keeps
/// what came before the cut, and the later parts are nil.
public struct H264SequenceParameterSet: Sendable {
    /// The profiles whose SPS carries chroma format and bit depths (the others are 4:2:0, 8-bit).
    public static let profilesWithFormat: Set<Int> = [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]

    /// `profile_idc`.
    public var profile: Int
    /// The byte of `constraint_set0_flag` … `constraint_set5_flag` (most significant first).
    public var constraints: Int
    /// `level_idc`.
    public var level: Int
    /// `seq_parameter_set_id`.
    public var id: Int

    /// Chroma format and bit depths (the defaults for profiles that do not write them).
    public struct Format: Sendable, Equatable {
        /// `chroma_format_idc` as written (0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4).
        public var chromaFormat = 1
        /// Bit depths (8 plus what the SPS writes).
        public var bitDepthLuma = 8
        public var bitDepthChroma = 8
    }
    /// Nil when the unit ends before its bit depths.
    public var format: Format?

    /// The coded picture's size in macroblocks and its cropping.
    public struct Picture: Sendable, Equatable {
        public var widthInMacroblocks: Int
        /// `pic_height_in_map_units_minus1` + 1.
        public var heightInMapUnits: Int
        public var frameMacroblocksOnly: Bool
        /// Left, right, top, bottom, in cropping units.
        public var crop: [Int]
    }
    /// Nil when the unit ends before the end of its cropping fields.
    public var picture: Picture?

    /// `vui_parameters_present_flag`; nil when the unit ends before it.
    public var hasVUI: Bool?

    /// The video usability information's signal fields, where they lie, and its timing.
    public struct VUI: Sendable, Equatable {
        /// The bit index, in the RBSP (header byte included), of `video_signal_type_present_flag`.
        public var signalStart: Int
        /// The bit index just past the chroma location fields.
        public var signalEnd: Int
        /// video_format, video_full_range_flag, then colour primaries, transfer and matrix
        /// when a colour description is present; nil without a video signal type.
        public var videoType: [Int]?
        /// chroma_sample_loc_type top and bottom field; nil when absent.
        public var chromaLocation: [Int]?
        /// num_units_in_tick and time_scale; nil without timing (or when the unit ends first).
        public var timing: (unitsInTick: Int, timeScale: Int)?

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.signalStart == rhs.signalStart && lhs.signalEnd == rhs.signalEnd && lhs.videoType == rhs.videoType
                && lhs.chromaLocation == rhs.chromaLocation && lhs.timing?.unitsInTick == rhs.timing?.unitsInTick
                && lhs.timing?.timeScale == rhs.timing?.timeScale
        }
    }
    /// Nil without a VUI, or when the unit ends before the end of its chroma location.
    public var vui: VUI?

    /// The RBSP read (header byte included, emulation-prevention bytes removed).
    public let rbsp: [UInt8]

    /// Reads an SPS NAL unit (its header byte first); nil when it is not one or ends
    /// before its `seq_parameter_set_id`.
    public init?(unit: [UInt8]) {
        guard let first = unit.first, first & 0x1F == 7 else { return nil }
        var reader = RBSPReader(unit)
        rbsp = reader.rbsp
        guard reader.skip(8), let profile = reader.bits(8), let constraints = reader.bits(8), let level = reader.bits(8),
              let id = reader.expGolomb()
        else { return nil }
        self.profile = profile
        self.constraints = constraints
        self.level = level
        self.id = id
        guard let format = Self.format(&reader, profile: profile) else { return }
        self.format = format
        guard let picture = Self.picture(&reader, profile: profile, chromaFormat: format.chromaFormat) else { return }
        self.picture = picture
        guard let flag = reader.bit() else { return }
        hasVUI = flag == 1
        if flag == 1 { vui = Self.vui(&reader) }
    }

    /// The displayed picture's size (after cropping); nil when the SPS ends before it or
    /// crops everything away.
    public var displaySize: (width: Int, height: Int)? {
        guard let picture, let format else { return nil }
        let chroma = format.chromaFormat
        let subWidth = chroma == 1 || chroma == 2 ? 2 : 1
        let subHeight = chroma == 1 ? 2 : 1
        let frameFactor = picture.frameMacroblocksOnly ? 1 : 2
        let cropX = chroma == 0 ? 1 : subWidth
        let cropY = (chroma == 0 ? 1 : subHeight) * frameFactor
        let fullWidth = picture.widthInMacroblocks * 16, fullHeight = picture.heightInMapUnits * 16 * frameFactor
        let crop = picture.crop
        guard cropX * (crop[0] + crop[1]) < fullWidth, cropY * (crop[2] + crop[3]) < fullHeight else { return nil }
        return (fullWidth - cropX * (crop[0] + crop[1]), fullHeight - cropY * (crop[2] + crop[3]))
    }

    /// Whether the SPS declares full range (`video_full_range_flag`): false without a VUI or
    /// a video signal type (limited is the default); nil when it ends before saying.
    public var isFullRange: Bool? {
        guard let hasVUI else { return nil }
        guard hasVUI else { return false }
        guard let vui else { return nil }
        return vui.videoType.map { $0[1] == 1 } ?? false
    }

    // MARK: Reading

    private static func format(_ reader: inout RBSPReader, profile: Int) -> Format? {
        var format = Format()
        guard profilesWithFormat.contains(profile) else { return format }
        guard let chroma = reader.expGolomb() else { return nil }
        if chroma == 3 { guard reader.skip(1) else { return nil } }  // separate_colour_plane_flag
        guard let luma = reader.expGolomb(), let chromaDepth = reader.expGolomb() else { return nil }
        format.chromaFormat = chroma
        format.bitDepthLuma = 8 + luma
        format.bitDepthChroma = 8 + chromaDepth
        return format
    }

    /// From the transform bypass flag (when the profile has a format) to the cropping.
    private static func picture(_ reader: inout RBSPReader, profile: Int, chromaFormat: Int) -> Picture? {
        if profilesWithFormat.contains(profile) {
            guard reader.skip(1), let scaling = reader.bit() else { return nil }
            if scaling == 1 {
                for list in 0..<(chromaFormat == 3 ? 12 : 8) {
                    guard let present = reader.bit() else { return nil }
                    if present == 1, !skipScalingList(&reader, size: list < 6 ? 16 : 64) { return nil }
                }
            }
        }
        guard reader.expGolomb() != nil, let orderType = reader.expGolomb() else { return nil }  // log2_max_frame_num
        if orderType == 0 {
            guard reader.expGolomb() != nil else { return nil }
        } else if orderType == 1 {
            guard reader.skip(1), reader.signedExpGolomb() != nil, reader.signedExpGolomb() != nil,
                  let cycle = reader.expGolomb(), cycle < 256
            else { return nil }
            for _ in 0..<cycle { guard reader.signedExpGolomb() != nil else { return nil } }
        }
        guard reader.expGolomb() != nil, reader.skip(1), let widthMbs = reader.expGolomb(), let heightUnits = reader.expGolomb(),
              let frameOnly = reader.bit()
        else { return nil }
        if frameOnly == 0 { guard reader.skip(1) else { return nil } }
        guard reader.skip(1), let cropping = reader.bit() else { return nil }
        var crop = [0, 0, 0, 0]
        if cropping == 1 {
            for index in 0..<4 {
                guard let value = reader.expGolomb() else { return nil }
                crop[index] = value
            }
        }
        return Picture(widthInMacroblocks: widthMbs + 1, heightInMapUnits: heightUnits + 1,
                       frameMacroblocksOnly: frameOnly == 1, crop: crop)
    }

    private static func skipScalingList(_ reader: inout RBSPReader, size: Int) -> Bool {
        var last = 8
        var next = 8
        for _ in 0..<size where next != 0 {
            guard let delta = reader.signedExpGolomb() else { return false }
            next = (last + delta + 256) % 256
            last = next == 0 ? last : next
        }
        return true
    }

    /// The VUI after its present flag, up to the timing (E.1.1).
    private static func vui(_ reader: inout RBSPReader) -> VUI? {
        guard let aspect = reader.bit() else { return nil }
        if aspect == 1 {
            guard let idc = reader.bits(8) else { return nil }
            if idc == 255 { guard reader.skip(32) else { return nil } }
        }
        guard let overscan = reader.bit() else { return nil }
        if overscan == 1 { guard reader.skip(1) else { return nil } }
        var vui = VUI(signalStart: reader.position, signalEnd: 0)
        guard let typePresent = reader.bit() else { return nil }
        if typePresent == 1 {
            guard let format = reader.bits(3), let full = reader.bit(), let described = reader.bit() else { return nil }
            var type = [format, full]
            if described == 1 {
                guard let primaries = reader.bits(8), let transfer = reader.bits(8), let matrix = reader.bits(8) else { return nil }
                type += [primaries, transfer, matrix]
            }
            vui.videoType = type
        }
        guard let locationPresent = reader.bit() else { return nil }
        if locationPresent == 1 {
            guard let top = reader.expGolomb(), let bottom = reader.expGolomb() else { return nil }
            vui.chromaLocation = [top, bottom]
        }
        vui.signalEnd = reader.position
        if reader.bit() == 1, let units = reader.bits(32), let scale = reader.bits(32) {
            vui.timing = (units, scale)
        }
        return vui
    }
}

/// What an H.264 sequence parameter set (SPS) says that a movie box needs: the profile and
/// level for `avcC`, the picture size for the sample entry, and the frame rate when the
/// encoder wrote one (VUI timing, as x264 does for a constant rate).
///
/// Read to rebuild the index of frames that were written without one (a recording killed
/// before its first `moov`, or inside a fragment whose `moof` never came).
public struct AVCSequenceParameters: Sendable, Equatable {
    public var profile: UInt8
    public var compatibility: UInt8
    public var level: UInt8
    public var chromaFormat: UInt32 = 1
    public var bitDepthLuma: UInt32 = 8
    public var bitDepthChroma: UInt32 = 8
    /// The displayed picture size (after cropping).
    public var width: UInt32
    public var height: UInt32
    /// Frames per second as a fraction (time_scale / 2·num_units_in_tick), when the SPS has timing.
    public var frameRate: (numerator: UInt32, denominator: UInt32)?

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.profile == rhs.profile && lhs.level == rhs.level && lhs.width == rhs.width && lhs.height == rhs.height
            && lhs.frameRate?.numerator == rhs.frameRate?.numerator && lhs.frameRate?.denominator == rhs.frameRate?.denominator
    }

    /// Parses an SPS NAL unit (with its one-byte header); nil when it is not one or is cut short.
    public init?(nal: [UInt8]) {
        guard nal.count >= 4, nal[0] & 0x1F == 7 else { return nil }
        var bits = RBSPReader(Array(nal[1...]))
        guard let profile = bits.byte(), let compatibility = bits.byte(), let level = bits.byte(),
              bits.ue() != nil else { return nil }
        self.profile = profile
        self.compatibility = compatibility
        self.level = level
        if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profile) {
            guard let chroma = bits.ue() else { return nil }
            chromaFormat = chroma
            if chroma == 3 { guard bits.bit() != nil else { return nil } }
            guard let luma = bits.ue(), let chromaDepth = bits.ue(), bits.bit() != nil,
                  let scaling = bits.bit() else { return nil }
            bitDepthLuma = luma + 8
            bitDepthChroma = chromaDepth + 8
            if scaling == 1 {
                for list in 0..<(chroma == 3 ? 12 : 8) {
                    guard let present = bits.bit() else { return nil }
                    if present == 1 { guard Self.skipScalingList(&bits, size: list < 6 ? 16 : 64) else { return nil } }
                }
            }
        }
        guard bits.ue() != nil, let pocType = bits.ue() else { return nil }   // log2_max_frame_num
        if pocType == 0 {
            guard bits.ue() != nil else { return nil }
        } else if pocType == 1 {
            guard bits.bit() != nil, bits.se() != nil, bits.se() != nil, let cycle = bits.ue(), cycle < 256 else { return nil }
            for _ in 0..<cycle { guard bits.se() != nil else { return nil } }
        }
        guard bits.ue() != nil, bits.bit() != nil, let widthMbs = bits.ue(), let heightUnits = bits.ue(),
              let frameOnly = bits.bit(), widthMbs < 1024, heightUnits < 1024 else { return nil }
        if frameOnly == 0 { guard bits.bit() != nil else { return nil } }
        guard bits.bit() != nil, let cropping = bits.bit() else { return nil }
        var crop: [UInt32] = [0, 0, 0, 0]
        if cropping == 1 {
            for index in 0..<4 {
                guard let value = bits.ue() else { return nil }
                crop[index] = value
            }
        }
        let subWidth: UInt32 = chromaFormat == 1 || chromaFormat == 2 ? 2 : 1
        let subHeight: UInt32 = chromaFormat == 1 ? 2 : 1
        let cropX = chromaFormat == 0 ? 1 : subWidth
        let cropY = (chromaFormat == 0 ? 1 : subHeight) * (2 - UInt32(frameOnly))
        let fullWidth = (widthMbs + 1) * 16, fullHeight = (heightUnits + 1) * 16 * (2 - UInt32(frameOnly))
        guard cropX * (crop[0] + crop[1]) < fullWidth, cropY * (crop[2] + crop[3]) < fullHeight else { return nil }
        width = fullWidth - cropX * (crop[0] + crop[1])
        height = fullHeight - cropY * (crop[2] + crop[3])
        frameRate = Self.timing(&bits)
    }

    /// The VUI's frame rate, if it has timing information.
    private static func timing(_ bits: inout RBSPReader) -> (numerator: UInt32, denominator: UInt32)? {
        guard bits.bit() == 1 else { return nil }   // vui_parameters_present_flag
        if bits.bit() == 1 {                          // aspect_ratio_info_present_flag
            guard let idc = bits.byte() else { return nil }
            if idc == 255 { guard bits.bits(32) != nil else { return nil } }
        }
        if bits.bit() == 1 { guard bits.bit() != nil else { return nil } }   // overscan
        if bits.bit() == 1 {                          // video_signal_type_present_flag
            guard bits.bits(4) != nil, let colour = bits.bit() else { return nil }
            if colour == 1 { guard bits.bits(24) != nil else { return nil } }
        }
        if bits.bit() == 1 { guard bits.ue() != nil, bits.ue() != nil else { return nil } }   // chroma location
        guard bits.bit() == 1, let units = bits.bits(32), let scale = bits.bits(32), units > 0, scale > 0 else { return nil }
        // One frame is two ticks (a field is one).
        return (UInt32(scale), UInt32(units) * 2)
    }

    private static func skipScalingList(_ bits: inout RBSPReader, size: Int) -> Bool {
        var last: Int32 = 8, next: Int32 = 8
        for _ in 0..<size where next != 0 {
            guard let delta = bits.se() else { return false }
            next = (last + delta + 256) % 256
            last = next == 0 ? last : next
        }
        return true
    }

    /// The NAL unit's payload without its emulation-prevention bytes (00 00 03 → 00 00): its
    /// RBSP, which every H.264 syntax reader here reads (recover's and trim's).
    public static func unescaped(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var zeros = 0
        for byte in bytes {
            if zeros >= 2, byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            result.append(byte)
        }
        return result
    }
}

/// The SPS's field types on the shared reader.
private extension RBSPReader {
    mutating func byte() -> UInt8? { bits(8).map { UInt8($0) } }
    mutating func ue() -> UInt32? { expGolomb().map { UInt32($0) } }
    mutating func se() -> Int32? { signedExpGolomb().map { Int32($0) } }
}

/// What an H.264 sequence parameter set (SPS) says that a movie box needs: the profile and
/// level for `avcC`, the picture size for the sample entry, and the frame rate when the
/// encoder wrote one (VUI timing, as x264 does for a constant rate).
///
/// Read to rebuild the index of frames that were written without one (a recording killed
/// before its first `moov`, or inside a fragment whose `moof` never came).
/// The SPS itself is read by ``H264SequenceParameterSet``.
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

    /// Parses an SPS NAL unit (with its one-byte header); nil when it is not one or is cut
    /// short before its picture size (``H264SequenceParameterSet`` reads it).
    public init?(nal: [UInt8]) {
        guard nal.count >= 4, let sps = H264SequenceParameterSet(unit: nal), let format = sps.format,
              let picture = sps.picture, picture.widthInMacroblocks <= 1024, picture.heightInMapUnits <= 1024,
              let size = sps.displaySize
        else { return nil }
        profile = UInt8(sps.profile)
        compatibility = UInt8(sps.constraints)
        level = UInt8(sps.level)
        chromaFormat = UInt32(clamping: format.chromaFormat)
        bitDepthLuma = UInt32(clamping: format.bitDepthLuma)
        bitDepthChroma = UInt32(clamping: format.bitDepthChroma)
        width = UInt32(size.width)
        height = UInt32(size.height)
        // One frame is two ticks (a field is one).
        if let timing = sps.vui?.timing, timing.unitsInTick > 0, timing.timeScale > 0, timing.unitsInTick < 1 << 31 {
            frameRate = (UInt32(timing.timeScale), UInt32(timing.unitsInTick) * 2)
        }
    }
}

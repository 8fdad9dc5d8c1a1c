import MP4
/// The range an H.264 sequence parameter set declares in its VUI
/// (`video_full_range_flag`), read past everything before it (ISO 14496-10 7.3.2.1.1, E.1.1).
enum H264VideoSignal {
    /// Whether the SPS (its NAL header byte first) declares full range: true or false as its
    /// VUI says, false when it has no video signal type (limited is the default); nil when
    /// it is no SPS or is cut short.
    static func isFullRange(sequenceSet unit: [UInt8]) -> Bool? {
        guard let first = unit.first, H264Bitstream.type(first) == H264Bitstream.sequenceSet else { return nil }
        var reader = RBSPReader(unit)
        guard reader.skip(8), let profile = reader.bits(8), reader.skip(16),
              reader.expGolomb() != nil
        else { return nil }
        if H264Format.profilesWithFormat.contains(profile) {
            guard let chroma = reader.expGolomb() else { return nil }
            if chroma == 3 { guard reader.skip(1) else { return nil } }
            guard reader.expGolomb() != nil, reader.expGolomb() != nil, reader.skip(1),
                  let scaling = reader.bit()
            else { return nil }
            if scaling == 1 {
                for list in 0..<(chroma == 3 ? 12 : 8) {
                    guard let present = reader.bit() else { return nil }
                    if present == 1, !skipScalingList(&reader, size: list < 6 ? 16 : 64) { return nil }
                }
            }
        }
        guard reader.expGolomb() != nil, let orderType = reader.expGolomb() else { return nil }
        if orderType == 0 {
            guard reader.expGolomb() != nil else { return nil }
        } else if orderType == 1 {
            guard reader.skip(1), signed(&reader) != nil, signed(&reader) != nil,
                  let cycle = reader.expGolomb(), cycle < 256
            else { return nil }
            for _ in 0..<cycle { guard signed(&reader) != nil else { return nil } }
        }
        guard reader.expGolomb() != nil, reader.skip(1), reader.expGolomb() != nil,
              reader.expGolomb() != nil, let frameOnly = reader.bit()
        else { return nil }
        if frameOnly == 0 { guard reader.skip(1) else { return nil } }
        guard reader.skip(1), let cropping = reader.bit() else { return nil }
        if cropping == 1 {
            for _ in 0..<4 { guard reader.expGolomb() != nil else { return nil } }
        }
        guard let vui = reader.bit() else { return nil }
        guard vui == 1 else { return false }
        guard let aspect = reader.bit() else { return nil }
        if aspect == 1 {
            guard let idc = reader.bits(8) else { return nil }
            if idc == 255 { guard reader.skip(32) else { return nil } }
        }
        guard let overscan = reader.bit() else { return nil }
        if overscan == 1 { guard reader.skip(1) else { return nil } }
        guard let signalType = reader.bit() else { return nil }
        guard signalType == 1 else { return false }
        guard reader.skip(3), let fullRange = reader.bit() else { return nil }
        return fullRange == 1
    }

    private static func signed(_ reader: inout RBSPReader) -> Int? {
        guard let value = reader.expGolomb() else { return nil }
        return value % 2 == 1 ? (value + 1) / 2 : -(value / 2)
    }

    private static func skipScalingList(_ reader: inout RBSPReader, size: Int) -> Bool {
        var last = 8
        var next = 8
        for _ in 0..<size where next != 0 {
            guard let delta = signed(&reader) else { return false }
            next = (last + delta + 256) % 256
            last = next == 0 ? last : next
        }
        return true
    }
}

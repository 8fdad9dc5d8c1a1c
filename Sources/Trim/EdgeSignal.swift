/// What a source declares about its pictures that the edge encoders state their own way,
/// written into the re-encoded edges so that they declare what the source declares and
/// nothing more (issue 30 item 7):
///
/// - H.264: the VUI's video signal type (range, colour description) and chroma location;
///   x264 writes the decoder's guess (BT.601 for SD, chroma "center"), here replaced by the
///   source's fields, or by none when the source has none (``H264SignalRewrite``);
/// - VP9: a keyframe's colour space and range (vp9enc writes BT.601 when the decoded caps
///   carry GStreamer's default colorimetry for a source that said "unknown");
/// - MPEG-4 Part 2: the VOS `profile_and_level_indication` (ffmpeg's encoder without
///   B-frames declares Simple Profile; a Simple stream is a valid Advanced Simple one, so the
///   edges take the source's Advanced Simple Profile and level).
///
/// Edits are made on the encoder's output, before either writer sees it.
enum EdgeSignal: Sendable, Equatable {
    case h264(sequenceSet: [UInt8])
    case vp9(colorSpace: Int, fullRange: Bool)
    case mpeg4(profileAndLevel: UInt8)

    /// The source's declaration for edges re-encoded in `codec`, from its decoder
    /// configuration (`avcC` or MPEG-4 VOS/VOL) and its first frame fed to the encoder (a
    /// keyframe; Annex B or length-prefixed H.264, a VP9 frame); nil when there is none to keep.
    static func of(codec: TrimCodec, codecData: [UInt8]?, firstFrame: [UInt8]) -> EdgeSignal? {
        switch codec.edgeEncoder {
        case .x264:
            if let codecData, let set = H264ParameterSets(avcC: codecData)?.sequenceSets.first { return .h264(sequenceSet: set) }
            return StartCodes.units(firstFrame).first { H264Bitstream.type($0.first ?? 0) == H264Bitstream.sequenceSet }
                .map { .h264(sequenceSet: $0) }
        case .vp9:
            return VP9Header.colour(firstFrame).map { .vp9(colorSpace: $0.space, fullRange: $0.fullRange) }
        case .mpeg4:
            return (codecData ?? firstFrame).indexOfVOS.map { .mpeg4(profileAndLevel: (codecData ?? firstFrame)[$0]) }
        default:
            return nil
        }
    }

    /// `bytes` (one encoded frame as the encoder gave it: Annex B for H.264) declaring this.
    func applied(to bytes: [UInt8]) -> [UInt8] {
        switch self {
        case .h264(let source):
            var changed = false
            let units = StartCodes.units(bytes).map { unit -> [UInt8] in
                guard H264Bitstream.type(unit.first ?? 0) == H264Bitstream.sequenceSet,
                      let rewritten = H264SignalRewrite.sequenceSet(unit, declaringAs: source), rewritten != unit
                else { return unit }
                changed = true
                return rewritten
            }
            return changed ? units.flatMap { [0, 0, 0, 1] + $0 } : bytes
        case .vp9(let space, let fullRange):
            return VP9Header.settingColour(space: space, fullRange: fullRange, in: bytes)
        case .mpeg4(let value):
            guard let at = bytes.indexOfVOS, bytes[at] != value else { return bytes }
            var copy = bytes
            copy[at] = value
            return copy
        }
    }
}

/// NAL units of an Annex B byte stream.
enum StartCodes {
    /// The NAL units between start codes (without them); the whole input as one unit when it
    /// has no start code.
    static func units(_ bytes: [UInt8]) -> [[UInt8]] {
        var starts: [(code: Int, payload: Int)] = []
        var index = 0
        while index + 3 <= bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                let code = index > 0 && bytes[index - 1] == 0 ? index - 1 : index
                starts.append((code, index + 3))
                index += 3
            } else {
                index += 1
            }
        }
        guard !starts.isEmpty else { return [bytes] }
        return starts.indices.map { position in
            let end = position + 1 < starts.count ? starts[position + 1].code : bytes.count
            return Array(bytes[starts[position].payload..<max(starts[position].payload, end)])
        }
    }
}

extension Array where Element == UInt8 {
    /// Where the byte after an MPEG-4 VOS start code (`00 00 01 B0`) is.
    fileprivate var indexOfVOS: Int? {
        guard count >= 5 else { return nil }
        for index in 0..<(count - 4) where self[index] == 0 && self[index + 1] == 0 && self[index + 2] == 1 && self[index + 3] == 0xB0 {
            return index + 4
        }
        return nil
    }
}

/// A VP9 keyframe's colour configuration (VP9 bitstream spec 6.2, 7.2: `color_config`).
enum VP9Header {
    /// Bit position of `color_space` in an uncompressed keyframe header, and the profile;
    /// nil when `bytes` is no keyframe.
    private static func colourBit(_ bytes: [UInt8]) -> Int? {
        func bit(_ position: Int) -> Int? {
            position / 8 < bytes.count ? Int(bytes[position / 8] >> (7 - UInt8(position % 8))) & 1 : nil
        }
        guard let marker0 = bit(0), let marker1 = bit(1), marker0 == 1, marker1 == 0,
              let low = bit(2), let high = bit(3)
        else { return nil }
        let profile = high << 1 | low
        var position = 4 + (profile == 3 ? 1 : 0)
        guard bit(position) == 0, bit(position + 1) == 0 else { return nil }  // shown, key frame
        position += 4  // show_existing_frame, frame_type, show_frame, error_resilient_mode
        guard syncCode(bytes, at: position) else { return nil }
        position += 24 + (profile >= 2 ? 1 : 0)
        return position
    }

    private static func syncCode(_ bytes: [UInt8], at position: Int) -> Bool {
        var value = 0
        for offset in 0..<24 {
            let at = position + offset
            guard at / 8 < bytes.count else { return false }
            value = value << 1 | Int(bytes[at / 8] >> (7 - UInt8(at % 8))) & 1
        }
        return value == 0x498342
    }

    /// The colour space (0 unknown, 1 BT.601, 2 BT.709, … 7 sRGB) and range of a keyframe.
    static func colour(_ bytes: [UInt8]) -> (space: Int, fullRange: Bool)? {
        guard let position = colourBit(bytes), (position + 4) / 8 < bytes.count else { return nil }
        func bit(_ at: Int) -> Int { Int(bytes[at / 8] >> (7 - UInt8(at % 8))) & 1 }
        let space = bit(position) << 2 | bit(position + 1) << 1 | bit(position + 2)
        return (space, space == 7 || bit(position + 3) == 1)
    }

    /// `bytes` with a keyframe's colour space and range set; unchanged for other frames, and
    /// when either side is sRGB (whose header has no range bit).
    static func settingColour(space: Int, fullRange: Bool, in bytes: [UInt8]) -> [UInt8] {
        guard let position = colourBit(bytes), let current = colour(bytes), current.space != 7, space != 7, space >= 0,
              (current.space, current.fullRange) != (space, fullRange)
        else { return bytes }
        var copy = bytes
        func set(_ at: Int, _ value: Int) {
            let mask = UInt8(1) << (7 - UInt8(at % 8))
            copy[at / 8] = value == 1 ? copy[at / 8] | mask : copy[at / 8] & ~mask
        }
        set(position, space >> 2 & 1)
        set(position + 1, space >> 1 & 1)
        set(position + 2, space & 1)
        set(position + 3, fullRange ? 1 : 0)
        return copy
    }
}

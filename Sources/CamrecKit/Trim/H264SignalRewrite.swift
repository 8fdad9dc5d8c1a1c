import MP4
/// Rewrites the video signal type and chroma location of an H.264 sequence parameter set's
/// VUI (ISO 14496-10 E.1.1) to another SPS's, leaving every other field as it was: the
/// re-encoded edges then declare the source's range, colour description and chroma
/// location, and nothing the source did not (``EdgeSignal``).
enum H264SignalRewrite {
    /// The fields rewritten, as one SPS declares them (nil: not present).
    struct Signal: Equatable {
        /// video_format, video_full_range_flag, then colour primaries, transfer and matrix
        /// when a colour description is present.
        var videoType: [Int]?
        /// chroma_sample_loc_type top and bottom field.
        var chromaLocation: [Int]?
    }

    /// Where the signal fields lie in an SPS's RBSP: the bit of `video_signal_type_present_flag`
    /// and the bit after the chroma location fields; nil without a VUI.
    struct Layout {
        var signal: Signal
        var start: Int
        var end: Int
    }

    /// `edge` (an SPS NAL unit, header byte first) declaring `source`'s signal; nil when
    /// either cannot be read or `edge` has no VUI to rewrite.
    static func sequenceSet(_ edge: [UInt8], declaringAs source: [UInt8]) -> [UInt8]? {
        var reader = RBSPReader(edge)
        guard let wanted = signal(source), let layout = layout(&reader) else { return nil }
        guard wanted != layout.signal else { return edge }
        return write(reader.rbsp, layout: layout, signal: wanted)
    }

    /// The signal an SPS declares (empty without a VUI); nil when it cannot be read.
    static func signal(_ unit: [UInt8]) -> Signal? {
        var reader = RBSPReader(unit)
        if let layout = layout(&reader) { return layout.signal }
        var plain = RBSPReader(unit)
        return skipToVUI(&plain) && plain.bit() == 0 ? Signal() : nil
    }

    private static func write(_ rbsp: [UInt8], layout: Layout, signal: Signal) -> [UInt8] {
        var writer = BitWriter()
        for index in 0..<layout.start { writer.put(RBSPReader.bit(rbsp, index)) }
        if let type = signal.videoType, type.count == 2 || type.count == 5 {
            writer.put(1)
            writer.put(type[0], bits: 3)
            writer.put(type[1])
            writer.put(type.count == 5 ? 1 : 0)
            for value in type.dropFirst(2) { writer.put(value, bits: 8) }
        } else {
            writer.put(0)
        }
        if let location = signal.chromaLocation, location.count == 2 {
            writer.put(1)
            writer.putExpGolomb(location[0])
            writer.putExpGolomb(location[1])
        } else {
            writer.put(0)
        }
        // The rest (timing, HRD, restrictions), then the trailing bits, as they were; the
        // old trailing bits end the old RBSP, so the last byte is re-padded.
        var last = rbsp.count * 8
        while last > layout.end, RBSPReader.bit(rbsp, last - 1) == 0 { last -= 1 }
        if last > layout.end { last -= 1 }  // the stop bit, written again below
        for index in layout.end..<last { writer.put(RBSPReader.bit(rbsp, index)) }
        writer.alignWithZeros()
        return RBSPReader.addingEmulationPrevention(writer.bytes)
    }

    /// Reads past everything before the VUI, then the VUI up to the chroma location's end.
    private static func layout(_ reader: inout RBSPReader) -> Layout? {
        guard skipToVUI(&reader), reader.bit() == 1, let aspect = reader.bit() else { return nil }
        if aspect == 1 {
            guard let idc = reader.bits(8) else { return nil }
            if idc == 255 { guard reader.skip(32) else { return nil } }
        }
        guard let overscan = reader.bit() else { return nil }
        if overscan == 1 { guard reader.skip(1) else { return nil } }
        let start = reader.position
        var signal = Signal()
        guard let typePresent = reader.bit() else { return nil }
        if typePresent == 1 {
            guard let format = reader.bits(3), let full = reader.bit(), let described = reader.bit() else { return nil }
            var type = [format, full]
            if described == 1 {
                guard let primaries = reader.bits(8), let transfer = reader.bits(8), let matrix = reader.bits(8) else { return nil }
                type += [primaries, transfer, matrix]
            }
            signal.videoType = type
        }
        guard let locationPresent = reader.bit() else { return nil }
        if locationPresent == 1 {
            guard let top = reader.expGolomb(), let bottom = reader.expGolomb() else { return nil }
            signal.chromaLocation = [top, bottom]
        }
        return Layout(signal: signal, start: start, end: reader.position)
    }

    /// Reads an SPS up to `vui_parameters_present_flag` (7.3.2.1.1).
    private static func skipToVUI(_ reader: inout RBSPReader) -> Bool {
        guard reader.skip(8), let profile = reader.bits(8), reader.skip(16), reader.expGolomb() != nil else { return false }
        if H264Format.profilesWithFormat.contains(profile) {
            guard let chroma = reader.expGolomb() else { return false }
            if chroma == 3 { guard reader.skip(1) else { return false } }
            guard reader.expGolomb() != nil, reader.expGolomb() != nil, reader.skip(1), let scaling = reader.bit() else { return false }
            if scaling == 1 {
                for list in 0..<(chroma == 3 ? 12 : 8) {
                    guard let present = reader.bit() else { return false }
                    if present == 1 {
                        var last = 8
                        var next = 8
                        for _ in 0..<(list < 6 ? 16 : 64) where next != 0 {
                            guard let delta = reader.signedExpGolomb() else { return false }
                            next = (last + delta + 256) % 256
                            last = next == 0 ? last : next
                        }
                    }
                }
            }
        }
        guard reader.expGolomb() != nil, let orderType = reader.expGolomb() else { return false }
        if orderType == 0 {
            guard reader.expGolomb() != nil else { return false }
        } else if orderType == 1 {
            guard reader.skip(1), reader.signedExpGolomb() != nil, reader.signedExpGolomb() != nil,
                  let cycle = reader.expGolomb(), cycle < 256
            else { return false }
            for _ in 0..<cycle { guard reader.signedExpGolomb() != nil else { return false } }
        }
        guard reader.expGolomb() != nil, reader.skip(1), reader.expGolomb() != nil, reader.expGolomb() != nil,
              let frameOnly = reader.bit()
        else { return false }
        if frameOnly == 0 { guard reader.skip(1) else { return false } }
        guard reader.skip(1), let cropping = reader.bit() else { return false }
        if cropping == 1 {
            for _ in 0..<4 { guard reader.expGolomb() != nil else { return false } }
        }
        return true
    }
}

/// Writes bits most significant first.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var used = 8

    mutating func put(_ bit: Int) {
        if used == 8 {
            bytes.append(0)
            used = 0
        }
        if bit & 1 == 1 { bytes[bytes.count - 1] |= UInt8(0x80) >> UInt8(used) }
        used += 1
    }

    mutating func put(_ value: Int, bits: Int) {
        for shift in stride(from: bits - 1, through: 0, by: -1) { put(value >> shift & 1) }
    }

    mutating func putExpGolomb(_ value: Int) {
        let coded = value + 1
        let length = Int.bitWidth - coded.leadingZeroBitCount
        put(0, bits: length - 1)
        put(coded, bits: length)
    }

    /// The RBSP trailing bits: a one, then zeros to the byte's end.
    mutating func alignWithZeros() {
        put(1)
        while used != 8 { put(0) }
    }
}

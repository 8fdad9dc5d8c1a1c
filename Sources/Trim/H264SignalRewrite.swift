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
        guard let wanted = signal(source), let sps = H264SequenceParameterSet(unit: edge), let layout = layout(sps) else {
            return nil
        }
        guard wanted != layout.signal else { return edge }
        return write(sps.rbsp, layout: layout, signal: wanted)
    }

    /// The signal an SPS declares (empty without a VUI); nil when it cannot be read.
    static func signal(_ unit: [UInt8]) -> Signal? {
        guard let sps = H264SequenceParameterSet(unit: unit) else { return nil }
        if let layout = layout(sps) { return layout.signal }
        return sps.hasVUI == false ? Signal() : nil
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

    /// Where the SPS's signal fields lie (``H264SequenceParameterSet/VUI``); nil without a VUI.
    private static func layout(_ sps: H264SequenceParameterSet) -> Layout? {
        guard sps.hasVUI == true, let vui = sps.vui else { return nil }
        return Layout(signal: Signal(videoType: vui.videoType, chromaLocation: vui.chromaLocation),
                      start: vui.signalStart, end: vui.signalEnd)
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

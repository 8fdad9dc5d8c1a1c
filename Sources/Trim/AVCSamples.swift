import MP4
/// H.264 in MP4 form (`avc1`): length-prefixed NAL units in each sample and the parameter
/// sets in an `avcC` record. Converts x264's Annex B output to it and merges the
/// re-encoder's parameter sets into the source's record.
enum AVCSamples {
    /// The NAL units of a length-prefixed sample; nil when a length runs past the end.
    static func units(_ sample: [UInt8], lengthSize: Int) -> [ArraySlice<UInt8>]? {
        var units: [ArraySlice<UInt8>] = []
        var offset = 0
        while offset < sample.count {
            guard offset + lengthSize <= sample.count else { return nil }
            var length = 0
            for index in 0..<lengthSize { length = length << 8 | Int(sample[offset + index]) }
            offset += lengthSize
            guard length <= sample.count - offset else { return nil }
            units.append(sample[offset..<offset + length])
            offset += length
        }
        return units
    }

    /// Whether no other frame needs this one to decode: every slice has `nal_ref_idc` 0.
    static func isDisposable(_ sample: [UInt8], lengthSize: Int) -> Bool {
        guard let units = units(sample, lengthSize: lengthSize) else { return false }
        let slices = units.filter { unit in unit.first.map(H264Bitstream.isSlice) ?? false }
        return !slices.isEmpty && slices.allSatisfy { unit in unit.first.map { $0 & 0x60 == 0 } ?? false }
    }

    /// An Annex B access unit as a length-prefixed sample without parameter sets or
    /// delimiters (those go in the sample description); also returns the parameter sets
    /// it carried. Nil when a unit is too long for `lengthSize`.
    static func sample(fromAnnexB accessUnit: [UInt8], lengthSize: Int) -> (sample: [UInt8], sets: H264ParameterSets)? {
        var sample: [UInt8] = []
        sample.reserveCapacity(accessUnit.count)
        var sets = H264ParameterSets()
        for unit in H264Bitstream.annexBUnits(accessUnit) {
            guard let first = unit.first else { continue }
            switch H264Bitstream.type(first) {
            case H264Bitstream.sequenceSet: sets.sequenceSets.append(Array(unit))
            case H264Bitstream.pictureSet: sets.pictureSets.append(Array(unit))
            case H264Bitstream.delimiter: continue
            default:
                guard lengthSize == 4 || unit.count < 1 << (8 * lengthSize) else { return nil }
                for shift in stride(from: 8 * (lengthSize - 1), through: 0, by: -8) {
                    sample.append(UInt8(truncatingIfNeeded: unit.count >> shift))
                }
                sample.append(contentsOf: unit)
            }
        }
        return (sample, sets)
    }

    /// `avcC` with `extra`'s parameter sets appended to its own (ids must not clash), keeping
    /// its profile, level and any trailing High-profile fields.
    static func merging(_ extra: H264ParameterSets, into avcC: [UInt8]) -> [UInt8]? {
        guard let own = H264ParameterSets(avcC: avcC), avcC.count >= 6 else { return nil }
        // Where the original sets end: the trailing fields (chroma format, bit depths) follow.
        var offset = 6
        for unit in own.sequenceSets { offset += 2 + unit.count }
        offset += 1
        for unit in own.pictureSets { offset += 2 + unit.count }
        guard offset <= avcC.count else { return nil }
        let sequenceSets = own.sequenceSets + extra.sequenceSets
        let pictureSets = own.pictureSets + extra.pictureSets
        guard sequenceSets.count < 32, pictureSets.count < 256 else { return nil }
        var record = Array(avcC[0..<5])
        record.append(0xE0 | UInt8(sequenceSets.count))
        for unit in sequenceSets { record += [UInt8(unit.count >> 8), UInt8(unit.count & 0xFF)] + unit }
        record.append(UInt8(pictureSets.count))
        for unit in pictureSets { record += [UInt8(unit.count >> 8), UInt8(unit.count & 0xFF)] + unit }
        record += avcC[offset...]
        return record
    }

    /// The chroma format an SPS declares ("4:2:0", "4:2:2", "4:4:4", "4:0:0").
    static func chromaFormat(sequenceSet unit: [UInt8]) -> String {
        guard let format = H264SequenceParameterSet(unit: unit)?.format else { return "4:2:0" }
        return ["4:0:0", "4:2:0", "4:2:2", "4:4:4"][min(max(format.chromaFormat, 0), 3)]
    }
}

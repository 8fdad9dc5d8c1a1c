import MP4
/// The SPS and PPS NAL units of an H.264 stream, read from an `avcC` decoder
/// configuration record (`codec_data`) or from Annex B bytes.
///
/// A re-encoded part gets parameter-set ids the source does not use, so one stream can
/// carry both sets from its first frame on: the muxer then needs no mid-stream caps change.
struct H264ParameterSets: Sendable, Equatable {
    var sequenceSets: [[UInt8]] = []
    var pictureSets: [[UInt8]] = []

    static let startCode: [UInt8] = [0, 0, 0, 1]

    /// Parses an `avcC` record; nil when it is not one.
    init?(avcC data: [UInt8]) {
        guard data.count >= 7, data[0] == 1 else { return nil }
        var offset = 5
        func readSets(count: Int) -> [[UInt8]]? {
            var sets: [[UInt8]] = []
            for _ in 0..<count {
                guard offset + 2 <= data.count else { return nil }
                let length = Int(data[offset]) << 8 | Int(data[offset + 1])
                offset += 2
                guard offset + length <= data.count else { return nil }
                sets.append(Array(data[offset..<offset + length]))
                offset += length
            }
            return sets
        }
        let sequenceCount = Int(data[offset] & 0x1F)
        offset += 1
        guard let sequence = readSets(count: sequenceCount), offset < data.count else { return nil }
        let pictureCount = Int(data[offset])
        offset += 1
        guard let picture = readSets(count: pictureCount) else { return nil }
        self.sequenceSets = sequence
        self.pictureSets = picture
    }

    /// Collects the SPS and PPS units found in Annex B bytes.
    init(annexB bytes: [UInt8]) {
        for unit in H264Bitstream.annexBUnits(bytes) {
            guard let first = unit.first else { continue }
            switch H264Bitstream.type(first) {
            case H264Bitstream.sequenceSet: sequenceSets.append(Array(unit))
            case H264Bitstream.pictureSet: pictureSets.append(Array(unit))
            default: continue
            }
        }
    }

    init() {}

    /// The ids the SPS and PPS units use.
    var usedIDs: Set<Int> {
        var ids = Set<Int>()
        for unit in sequenceSets { if let id = Self.sequenceSetID(unit) { ids.insert(id) } }
        for unit in pictureSets {
            if let pair = Self.pictureSetIDs(unit) {
                ids.insert(pair.picture)
                ids.insert(pair.sequence)
            }
        }
        return ids
    }

    /// A parameter-set id (0...31) unused by these sets, for the re-encoded parts.
    var freeID: Int { Self.freeID(avoiding: usedIDs) }

    /// The smallest parameter-set id (0...31) not in `used`.
    static func freeID(avoiding used: Set<Int>) -> Int {
        (0...31).first { !used.contains($0) } ?? 31
    }

    /// The units in Annex B form (start code before each), SPS first.
    var annexB: [UInt8] {
        (sequenceSets + pictureSets).flatMap { Self.startCode + $0 }
    }

    /// The `seq_parameter_set_id` of an SPS unit.
    static func sequenceSetID(_ unit: some Collection<UInt8>) -> Int? {
        H264SequenceParameterSet(unit: Array(unit))?.id
    }

    /// The `pic_parameter_set_id` and `seq_parameter_set_id` of a PPS unit.
    static func pictureSetIDs(_ unit: some Collection<UInt8>) -> (picture: Int, sequence: Int)? {
        var reader = RBSPReader(Array(unit))
        guard reader.skip(8), let picture = reader.expGolomb(),
              let sequence = reader.expGolomb()
        else { return nil }
        return (picture, sequence)
    }
}

extension H264ParameterSets {
    /// `accessUnit` (Annex B) with `units` (Annex B) inserted before its first slice, so an
    /// access unit delimiter stays first.
    static func inserting(_ units: [UInt8], beforeFirstSliceOf accessUnit: [UInt8]) -> [UInt8] {
        guard let slice = H264Bitstream.annexBUnits(accessUnit).first(where: { $0.first.map(H264Bitstream.isSlice) ?? false })
        else { return units + accessUnit }
        // The slice's start code: 00 00 01, or 00 00 00 01.
        var start = slice.startIndex - 3
        if start > 0, accessUnit[start - 1] == 0 { start -= 1 }
        return Array(accessUnit[..<start]) + units + Array(accessUnit[start...])
    }
}

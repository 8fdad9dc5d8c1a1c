/// Joining re-encoded edges and copied frames in codecs whose decoder configuration travels
/// in the stream (``TrimCodec/InBandConfiguration``): a part that starts after another one
/// must carry its own configuration in its first frame, or the decoder would read it with
/// the other part's. H.264 needs none of this (its parameter sets live in the sample
/// description under ids of their own).
extension TrimCodec.InBandConfiguration {
    /// Whether `frame` carries a configuration before its picture (nothing to add).
    func isCarried(in frame: [UInt8]) -> Bool {
        switch self {
        case .none, .h264ParameterSets:
            return true
        case .startCodeHeaders(let configurationCodes):
            // The first start code says whether the headers come first.
            guard let code = Self.firstStartCode(in: frame) else { return true }
            return configurationCodes.contains(code)
        case .av1SequenceHeader:
            return AV1OBUs.types(in: frame).contains(AV1OBUs.sequenceHeader)
        }
    }

    /// `frame` with `configuration` (as a `codec_data` holds it) put first when it lacks
    /// one; the frame itself unchanged otherwise.
    func carrying(_ configuration: [UInt8]?, in frame: [UInt8]) -> [UInt8] {
        guard let configuration, !configuration.isEmpty, !isCarried(in: frame) else { return frame }
        switch self {
        case .none, .h264ParameterSets:
            return frame
        case .startCodeHeaders:
            return configuration + frame
        case .av1SequenceHeader:
            // An av1C record (Matroska): four bytes, then the configuration OBUs; qtdemux gives
            // the OBUs alone. A temporal delimiter stays first.
            let units = configuration[0] == 0x81 ? Array(configuration.dropFirst(4)) : configuration
            guard !units.isEmpty else { return frame }
            let split = AV1OBUs.units(in: frame)
            if let first = split.first, first.type == AV1OBUs.temporalDelimiter {
                return Array(frame[first.range]) + units + Array(frame[first.range.upperBound...])
            }
            return units + frame
        }
    }

    /// The code byte after the first `00 00 01` of `bytes`.
    static func firstStartCode(in bytes: [UInt8]) -> UInt8? {
        var index = 0
        while index + 3 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 { return bytes[index + 3] }
            guard bytes[index] == 0 else { return nil }  // headers start the frame, after zero stuffing
            index += 1
        }
        return nil
    }
}

/// The OBUs of an AV1 temporal unit in the low-overhead format (each with its size field),
/// as MP4 samples, Matroska blocks and GStreamer's `obu-stream` carry them.
enum AV1OBUs {
    static let sequenceHeader: UInt8 = 1
    static let temporalDelimiter: UInt8 = 2

    /// Each OBU's type and byte range; stops at an OBU without a size field (it runs to the end).
    static func units(in bytes: [UInt8]) -> [(type: UInt8, range: Range<Int>)] {
        var units: [(type: UInt8, range: Range<Int>)] = []
        var offset = 0
        while offset < bytes.count {
            let header = bytes[offset]
            let type = (header >> 3) & 0x0F
            var position = offset + 1 + (header & 0x04 != 0 ? 1 : 0)
            guard header & 0x02 != 0 else {
                units.append((type, offset..<bytes.count))
                break
            }
            var size = 0
            var shift = 0
            while position < bytes.count, shift < 56 {
                let byte = bytes[position]
                size |= Int(byte & 0x7F) << shift
                position += 1
                shift += 7
                if byte & 0x80 == 0 { break }
            }
            guard size <= bytes.count - position else { break }
            units.append((type, offset..<position + size))
            offset = position + size
        }
        return units
    }

    static func types(in bytes: [UInt8]) -> [UInt8] { units(in: bytes).map(\.type) }

    /// The temporal unit without its temporal delimiters, as MP4 samples store it.
    static func withoutTemporalDelimiters(_ bytes: [UInt8]) -> [UInt8] {
        let split = units(in: bytes)
        guard split.contains(where: { $0.type == temporalDelimiter }) else { return bytes }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var covered = 0
        for unit in split {
            if unit.type != temporalDelimiter { result += bytes[unit.range] }
            covered = unit.range.upperBound
        }
        result += bytes[covered...]
        return result
    }
}

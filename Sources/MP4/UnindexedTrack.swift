/// A video track for H.264 frames that no movie box describes, made from what the frames
/// carry themselves: an `avc1` sample entry from their in-band parameter sets (camrec's
/// encoders repeat them at keyframes), the picture size from the SPS, and one frame
/// duration from the SPS's timing (``assumedFrameRate`` when it has none).
enum UnindexedTrack {
    /// The rate used when the stream does not say its own.
    static let assumedFrameRate: (numerator: UInt32, denominator: UInt32) = (30, 1)
    /// Media ticks per second: a multiple of the usual frame rates (24, 25, 30, 50, 60 and their /1.001).
    static let timescale: UInt32 = 90_000

    /// The track template (no samples) and the duration of one frame, or nil when the
    /// parameter sets cannot be read.
    static func template(id: UInt32, sequenceParameterSet sps: [UInt8], pictureParameterSet pps: [UInt8])
        -> (track: Track, frameDuration: UInt32, rateKnown: Bool)? {
        guard let parameters = AVCSequenceParameters(nal: sps), !pps.isEmpty, sps.count < 1 << 16, pps.count < 1 << 16
        else { return nil }
        let rate = parameters.frameRate.flatMap { $0.numerator > 0 && $0.numerator / max($0.denominator, 1) <= 1000 ? $0 : nil }
        let (numerator, denominator) = rate ?? assumedFrameRate
        let frameDuration = UInt32(clamping: max(1, (UInt64(timescale) * UInt64(denominator) + UInt64(numerator) / 2) / UInt64(numerator)))
        let track = Track(id: id, handler: "vide", timescale: timescale, language: 0x55C4,   // "und"
                          header: header(width: parameters.width, height: parameters.height),
                          handlerBox: handlerBox, mediaHeaderBox: videoMediaHeader,
                          sampleEntry: sampleEntry(parameters, sps: sps, pps: pps), edits: nil, samples: [])
        return (track, frameDuration, rate != nil)
    }

    /// `tkhd`'s kept fields: enabled and in the movie, identity matrix, the picture size.
    private static func header(width: UInt32, height: UInt32) -> TrackHeader {
        var tail = ByteWriter()
        tail.append([UInt8](repeating: 0, count: 16))   // reserved, layer, group, volume, reserved
        for value: UInt32 in [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000] { tail.uint32(value) }
        tail.uint32(width << 16)
        tail.uint32(height << 16)
        return TrackHeader(flags: 3, tail: tail.bytes)
    }

    private static let handlerBox: [UInt8] = {
        var writer = ByteWriter()
        writer.fullBox("hdlr", version: 0) { box in
            box.uint32(0)
            box.fourCC("vide")
            box.append([UInt8](repeating: 0, count: 12))
            box.append(Array("VideoHandler".utf8) + [0])
        }
        return writer.bytes
    }()

    private static let videoMediaHeader: [UInt8] = {
        var writer = ByteWriter()
        writer.fullBox("vmhd", version: 0, flags: 1) { $0.append([UInt8](repeating: 0, count: 8)) }
        return writer.bytes
    }()

    /// An `avc1` entry whose `avcC` holds the one SPS and PPS.
    private static func sampleEntry(_ parameters: AVCSequenceParameters, sps: [UInt8], pps: [UInt8]) -> [UInt8] {
        var writer = ByteWriter()
        writer.box("avc1") { entry in
            entry.append([0, 0, 0, 0, 0, 0])   // reserved
            entry.uint16(1)                     // data reference index
            entry.append([UInt8](repeating: 0, count: 16))
            entry.uint16(UInt16(clamping: parameters.width))
            entry.uint16(UInt16(clamping: parameters.height))
            entry.uint32(0x0048_0000)           // 72 dpi
            entry.uint32(0x0048_0000)
            entry.uint32(0)
            entry.uint16(1)                     // frames per sample
            entry.append([UInt8](repeating: 0, count: 32))   // compressor name
            entry.uint16(0x0018)
            entry.uint16(0xFFFF)
            entry.box("avcC") { config in
                config.uint8(1)
                config.uint8(parameters.profile)
                config.uint8(parameters.compatibility)
                config.uint8(parameters.level)
                config.uint8(0xFF)              // 4-byte NAL lengths
                config.uint8(0xE1)              // one SPS
                config.uint16(UInt16(sps.count))
                config.append(sps)
                config.uint8(1)
                config.uint16(UInt16(pps.count))
                config.append(pps)
                if [100, 110, 122, 144].contains(parameters.profile) {
                    config.uint8(0xFC | UInt8(parameters.chromaFormat & 3))
                    config.uint8(0xF8 | UInt8((parameters.bitDepthLuma - 8) & 7))
                    config.uint8(0xF8 | UInt8((parameters.bitDepthChroma - 8) & 7))
                    config.uint8(0)
                }
            }
        }
        return writer.bytes
    }
}

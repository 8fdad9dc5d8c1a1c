/// The H.264 bitstream facts trim relies on, in one place: NAL unit types, the NAL length
/// size of an `avcC` record, the IDR test (the same answer for a sample in memory and one
/// read from a file) and the Annex B unit split.
enum H264Bitstream {
    static let nonIDRSlice: UInt8 = 1
    static let idrSlice: UInt8 = 5
    static let sequenceSet: UInt8 = 7
    static let pictureSet: UInt8 = 8
    static let delimiter: UInt8 = 9

    /// The NAL unit type of a unit's first byte.
    static func type(_ header: UInt8) -> UInt8 { header & 0x1F }

    /// Whether a unit (by its first byte) carries a slice of a picture.
    static func isSlice(_ header: UInt8) -> Bool {
        let kind = type(header)
        return kind == nonIDRSlice || kind == idrSlice
    }

    /// The NAL length field size (1, 2 or 4 bytes) of an `avcC` record (GStreamer's
    /// `codec_data`); nil when it is not one.
    static func lengthSize(avcC: [UInt8]) -> Int? {
        avcC.count > 4 && avcC[0] == 1 ? Int(avcC[4] & 3) + 1 : nil
    }

    /// Whether a length-prefixed access unit of `size` bytes is an IDR picture: its first
    /// slice is an IDR slice (all slices of a picture are of one kind; SEI, SPS and PPS may
    /// come first). `header(offset, count)` gives `count` bytes at `offset`, nil past the
    /// end; only the unit headers are read.
    static func isIDR(size: Int, lengthSize: Int, header: (Int, Int) throws -> [UInt8]?) rethrows -> Bool {
        var position = 0
        while position + lengthSize < size {
            guard let bytes = try header(position, lengthSize + 1) else { return false }
            let length = bytes.prefix(lengthSize).reduce(0) { $0 << 8 | Int($1) }
            switch type(bytes[lengthSize]) {
            case idrSlice: return true
            case nonIDRSlice: return false
            default: position += lengthSize + length
            }
        }
        return false
    }

    /// `isIDR` for an access unit in memory.
    static func isIDR(_ bytes: UnsafeRawBufferPointer, lengthSize: Int) -> Bool {
        isIDR(size: bytes.count, lengthSize: lengthSize) { offset, count in
            offset + count <= bytes.count ? Array(bytes[offset..<offset + count]) : nil
        }
    }

    /// Splits Annex B bytes into NAL units (without start codes).
    static func annexBUnits(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var units: [ArraySlice<UInt8>] = []
        var index = 0
        var unitStart: Int?
        while index + 2 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                if let start = unitStart {
                    var end = index
                    while end > start, bytes[end - 1] == 0 { end -= 1 }
                    units.append(bytes[start..<end])
                }
                index += 3
                unitStart = index
                continue
            }
            index += 1
        }
        if let start = unitStart, start < bytes.count { units.append(bytes[start..<bytes.count]) }
        return units
    }
}

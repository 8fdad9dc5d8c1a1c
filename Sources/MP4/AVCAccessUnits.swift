/// The H.264 frames (access units) lying in part of a file as an MP4 `mdat` stores them:
/// NAL units each preceded by a 4-byte length, with no index saying where frames begin.
///
/// A recording killed before mp4mux wrote its first `moov`, or in a fragment whose `moof`
/// comes only after its data, leaves frames that nothing indexes. Walking the length
/// prefixes finds them again: a frame begins at an access unit delimiter, SEI or
/// parameter set after a slice, or at a slice whose first macroblock is 0 (H.264 7.4.1.2.3).
/// The walk stops at the first length that does not fit or at a byte that cannot begin a
/// NAL unit (the end of the data, a torn write, another track's chunk).
public struct AVCAccessUnits: Sendable {
    /// One frame: its bytes in the file and whether it is an IDR picture.
    public struct Unit: Sendable, Equatable {
        public var offset: UInt64
        public var size: UInt32
        public var isSync: Bool
    }

    /// The whole frames, in file order.
    public var units: [Unit] = []
    /// The first sequence and picture parameter sets met (NAL units with their header byte).
    public var sequenceParameterSet: [UInt8]?
    public var pictureParameterSet: [UInt8]?
    /// Where the last whole frame ends.
    public var end: UInt64

    /// NAL units longer than this are taken as garbage, not as a frame.
    static let largestUnit: UInt64 = 64 << 20

    /// Walks `start..<end` of `file`. The last frame is kept when its last NAL unit ends
    /// exactly at `end`: mp4mux hands each frame to the file sink as one buffer, written by
    /// one `write`, so a frame cut short ends inside a NAL unit, not between two.
    public static func walk(_ file: SampleFile, from start: UInt64, to end: UInt64) -> AVCAccessUnits {
        var result = AVCAccessUnits(end: start)
        var offset = start
        var current: (offset: UInt64, sync: Bool, hasSlice: Bool)?
        func close(at position: UInt64) {
            guard let unit = current, unit.hasSlice, position - unit.offset <= UInt64(UInt32.max) else { return }
            result.units.append(Unit(offset: unit.offset, size: UInt32(position - unit.offset), isSync: unit.sync))
            result.end = position
        }
        while offset + 5 <= end {
            guard let header = try? file.read(offset: offset, count: Int(min(6, end - offset))), header.count >= 5 else { break }
            let length = UInt64(header[0]) << 24 | UInt64(header[1]) << 16 | UInt64(header[2]) << 8 | UInt64(header[3])
            let type = header[4] & 0x1F
            // forbidden_zero_bit, and the types H.264 defines (24-31 never appear in MP4).
            guard length > 0, length <= largestUnit, header[4] & 0x80 == 0, (1...23).contains(type) else { break }
            let isSlice = type == 1 || type == 5
            // A slice's first bit is first_mb_in_slice's Exp-Golomb code: 1 means 0.
            let firstSlice = isSlice && header.count > 5 && length > 1 && header[5] & 0x80 != 0
            let startsUnit = type == 9 || (6...18).contains(type) && type != 10 && type != 11 || firstSlice
            guard length <= end - offset - 4 else {
                // Cut short: the frame before is whole if this NAL unit began the next one.
                if startsUnit { close(at: offset) }
                break
            }
            if current == nil || (startsUnit && current?.hasSlice == true) {
                close(at: offset)
                current = (offset, false, false)
            }
            if isSlice {
                current?.hasSlice = true
                if type == 5 { current?.sync = true }
            }
            if type == 7, result.sequenceParameterSet == nil, length < 1024 {
                result.sequenceParameterSet = try? file.read(offset: offset + 4, count: Int(length))
            }
            if type == 8, result.pictureParameterSet == nil, length < 1024 {
                result.pictureParameterSet = try? file.read(offset: offset + 4, count: Int(length))
            }
            offset += 4 + length
        }
        if offset == end { close(at: offset) }
        return result
    }
}

/// The `low_delay` flag of MPEG-4 Part 2 video object layer (VOL) headers.
///
/// A source with B-frames declares `low_delay = 0`: decoders hold each reference frame back
/// until the next one arrives. The re-encoded edges (no B-frames) come with the encoder's
/// own VOL, which declares `low_delay = 1`; libav's decoder (ffmpeg, VLC, browsers) that
/// switches to low delay at a re-encoded tail never shows the reference frame it was
/// holding, so the last copied frame before the tail disappears. The edges' VOLs therefore
/// keep the source's flag: a stream without B-frames may declare `low_delay = 0`.
enum MPEG4VideoObjectLayer {
    /// The `low_delay` flag of the first VOL in `bytes` that states one (it is optional).
    static func lowDelay(in bytes: [UInt8]) -> Bool? {
        for start in layerStarts(in: bytes) {
            if let bit = lowDelayBit(in: bytes, from: start) { return bytes[bit / 8] & (0x80 >> UInt8(bit % 8)) != 0 }
        }
        return nil
    }

    /// `bytes` with the `low_delay` flag of every VOL that states one set to `value`;
    /// unchanged if a changed bit would make a start code appear.
    static func settingLowDelay(_ value: Bool, in bytes: [UInt8]) -> [UInt8] {
        var changed = bytes
        for start in layerStarts(in: bytes) {
            guard let bit = lowDelayBit(in: bytes, from: start) else { continue }
            let mask: UInt8 = 0x80 >> UInt8(bit % 8)
            if value { changed[bit / 8] |= mask } else { changed[bit / 8] &= ~mask }
        }
        guard changed != bytes, startCodeCount(changed) == startCodeCount(bytes) else { return bytes }
        return changed
    }

    /// Byte offsets just past each VOL start code (`00 00 01 20`…`2F`).
    private static func layerStarts(in bytes: [UInt8]) -> [Int] {
        var starts: [Int] = []
        var index = 0
        while index + 3 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                if (0x20...0x2F).contains(bytes[index + 3]) { starts.append(index + 4) }
                index += 3
            } else {
                index += 1
            }
        }
        return starts
    }

    /// The bit position (from the start of `bytes`) of `low_delay` in the VOL whose header
    /// starts at byte `start`; nil when it has no VOL control parameters (ISO 14496-2 6.2.3).
    private static func lowDelayBit(in bytes: [UInt8], from start: Int) -> Int? {
        var position = start * 8
        func read(_ count: Int) -> Int? {
            guard position + count <= bytes.count * 8 else { return nil }
            var value = 0
            for _ in 0..<count {
                value = value << 1 | Int(bytes[position / 8] >> UInt8(7 - position % 8) & 1)
                position += 1
            }
            return value
        }
        guard read(1) != nil, read(8) != nil, let identified = read(1) else { return nil }
        if identified == 1 { guard read(4) != nil, read(3) != nil else { return nil } }
        guard let aspect = read(4) else { return nil }
        if aspect == 0xF { guard read(8) != nil, read(8) != nil else { return nil } }
        guard read(1) == 1, read(2) != nil else { return nil }
        return position < bytes.count * 8 ? position : nil
    }

    private static func startCodeCount(_ bytes: [UInt8]) -> Int {
        var count = 0
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                count += 1
                index += 3
            } else {
                index += 1
            }
        }
        return count
    }
}

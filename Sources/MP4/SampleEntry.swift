/// Reads and replaces the child boxes of a visual sample entry (`avc1`, `hvc1`, ...): the
/// decoder configuration (`avcC`), pixel aspect (`pasp`), colours (`colr`); reads the
/// fixed fields of visual and audio entries.
public enum SampleEntry {
    /// A visual sample entry's fixed fields end 86 bytes in (8 of box header, 78 of fields).
    static let visualFieldsEnd = 86

    /// The payload of the first child box of `type`; nil when there is none.
    public static func child(_ type: String, of entry: [UInt8]) -> [UInt8]? {
        guard entry.count >= visualFieldsEnd,
              let box = Box.children(of: entry, in: visualFieldsEnd..<entry.count)?.first(type)
        else { return nil }
        return Array(entry[box.payload])
    }

    /// The entry with the first child box of `type` given a new payload; nil when it has none.
    public static func replacingChild(_ type: String, with payload: [UInt8], in entry: [UInt8]) -> [UInt8]? {
        guard entry.count >= visualFieldsEnd,
              let box = Box.children(of: entry, in: visualFieldsEnd..<entry.count)?.first(type)
        else { return nil }
        var child = ByteWriter()
        child.box(type) { $0.append(payload) }
        var result = Array(entry[..<box.start]) + child.bytes + Array(entry[box.end...])
        let size = UInt32(result.count)
        for index in 0..<4 { result[index] = UInt8(truncatingIfNeeded: size >> (24 - 8 * UInt32(index))) }
        return result
    }

    /// A visual sample entry's width and height (ISO 14496-12 `VisualSampleEntry`); nil when
    /// the entry is too short or says 0.
    public static func visualSize(of entry: [UInt8]) -> (width: Int, height: Int)? {
        guard entry.count >= 36 else { return nil }
        let width = Int(entry[32]) << 8 | Int(entry[33])
        let height = Int(entry[34]) << 8 | Int(entry[35])
        return width > 0 && height > 0 ? (width, height) : nil
    }

    /// An audio sample entry's sample rate and channel count (`AudioSampleEntry`; Opus entries
    /// always say 48000); nil when the entry is too short or says 0.
    public static func audioFormat(of entry: [UInt8]) -> (rate: Int, channels: Int)? {
        guard entry.count >= 36 else { return nil }
        let channels = Int(entry[24]) << 8 | Int(entry[25])
        let rate = Int(entry[32]) << 8 | Int(entry[33])
        return channels > 0 && rate > 0 ? (rate, channels) : nil
    }
}

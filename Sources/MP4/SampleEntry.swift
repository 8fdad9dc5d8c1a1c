/// Reads and replaces the child boxes of a visual sample entry (`avc1`, `hvc1`, ...): the
/// decoder configuration (`avcC`), pixel aspect (`pasp`), colours (`colr`).
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
}

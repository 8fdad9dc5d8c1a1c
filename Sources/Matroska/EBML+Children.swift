/// Elements held in memory (a whole `Tracks`, `Tags` or `Cues` element read at once).
extension EBML {
    /// An element found in a byte array: its ID, its whole range and its body's range.
    public struct Child: Equatable, Sendable {
        public var id: UInt32
        public var range: Range<Int>
        public var body: Range<Int>
    }

    /// The elements directly inside `range` of `bytes`; nil when one is not whole there.
    public static func children(of bytes: [UInt8], in range: Range<Int>) -> [Child]? {
        var result: [Child] = []
        var offset = range.lowerBound
        while offset < range.upperBound {
            guard let element = element(in: bytes[offset..<range.upperBound], at: UInt64(offset)),
                  let size = element.size, size <= UInt64(range.upperBound)
            else { return nil }
            let body = Int(element.body)
            let end = body + Int(size)
            guard end <= range.upperBound else { return nil }
            result.append(Child(id: element.id, range: offset..<end, body: body..<end))
            offset = end
        }
        return result
    }
}

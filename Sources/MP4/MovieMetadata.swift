/// What a movie box says about the movie beyond its tracks, kept by a copy: when it was
/// made and changed (`mvhd`, also written to each track's headers) and its user data
/// (`udta`: tags such as the encoder).
public struct MovieMetadata: Sendable, Equatable {
    /// Seconds since 1904-01-01 (0: unknown).
    public var creationTime: UInt64
    /// Seconds since 1904-01-01 (0: unknown).
    public var modificationTime: UInt64
    /// The movie box's `udta` box, whole.
    public var userData: [UInt8]?

    /// Metadata; none by default.
    public init(creationTime: UInt64 = 0, modificationTime: UInt64 = 0, userData: [UInt8]? = nil) {
        self.creationTime = creationTime
        self.modificationTime = modificationTime
        self.userData = userData
    }

    /// Reads a movie header's times and the user data among a movie box's children.
    static func read(_ bytes: [UInt8], mvhd: Box, children: [Box]) -> MovieMetadata {
        var reader = ByteReader(bytes, range: mvhd.payload)
        var metadata = MovieMetadata()
        if let version = reader.uint8(), reader.skip(3) {
            let wide = version == 1
            metadata.creationTime = (wide ? reader.uint64() : reader.uint32().map(UInt64.init)) ?? 0
            metadata.modificationTime = (wide ? reader.uint64() : reader.uint32().map(UInt64.init)) ?? 0
        }
        if let udta = children.first("udta"), udta.end - udta.start < 1 << 20 {
            metadata.userData = Array(bytes[udta.start..<udta.end])
        }
        return metadata
    }
}

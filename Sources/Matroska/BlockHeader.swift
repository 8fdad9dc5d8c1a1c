/// The head of a `SimpleBlock` or `Block` body: its track number, its time relative to its
/// cluster's timestamp, and its flags.
public struct BlockHeader: Equatable, Sendable {
    public var track: UInt64
    /// The bytes of the track number (the timecode follows them).
    public var trackLength: Int
    /// Ticks from the cluster's timestamp.
    public var relativeTime: Int64
    public var flags: UInt8

    /// Reads the header at the start of `bytes`; nil when they are too few or not a block.
    public init?(_ bytes: ArraySlice<UInt8>) {
        guard let (track, length) = EBML.vint(bytes), bytes.count >= length + 3 else { return nil }
        let base = bytes.startIndex + length
        self.track = track
        trackLength = length
        relativeTime = Int64(Int16(bitPattern: UInt16(bytes[base]) << 8 | UInt16(bytes[base + 1])))
        flags = bytes[base + 2]
    }

    /// The bytes before the frame's: track number, timecode, flags.
    public var length: Int { trackLength + 3 }
    /// A `SimpleBlock`'s keyframe flag (a `Block` says it with no `ReferenceBlock` in its group).
    public var isKeyframe: Bool { flags & 0x80 != 0 }
    /// Whether it holds several frames (Xiph, fixed-size or EBML lacing).
    public var isLaced: Bool { flags & 0x06 != 0 }
}

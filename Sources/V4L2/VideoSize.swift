/// A frame size in pixels, as V4L2 reports it.
///
/// Named apart from CamrecKit's `FrameSize` (the parsed command-line value) so that a file
/// importing both modules needs no qualification.
public struct VideoSize: Sendable, Codable, Hashable, CustomStringConvertible {
    /// Width in pixels.
    public let width: UInt32
    /// Height in pixels.
    public let height: UInt32

    /// A size of `width` x `height` pixels.
    public init(width: UInt32, height: UInt32) {
        self.width = width
        self.height = height
    }

    /// Number of pixels.
    public var area: UInt64 { UInt64(width) * UInt64(height) }

    /// "1280x720".
    public var description: String { "\(width)x\(height)" }

    /// Whether both dimensions fit inside `limit`.
    public func fits(in limit: VideoSize) -> Bool { width <= limit.width && height <= limit.height }
}

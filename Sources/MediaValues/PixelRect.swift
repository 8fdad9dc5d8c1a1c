/// A rectangle of whole pixels: its top-left corner and size.
public struct PixelRect: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Left edge, in pixels from the canvas's left.
    public var x: Int
    /// Top edge, in pixels from the canvas's top.
    public var y: Int
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// A rectangle at (`x`, `y`) of `width` × `height` pixels.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// `WxH+X+Y`, as X11 geometry writes it.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

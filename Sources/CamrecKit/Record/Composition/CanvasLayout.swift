/// How several cameras share one canvas (`--layout`): the cells the canvas is cut into,
/// and each camera's rectangle, scaled to fit its cell keeping its aspect ratio.
public enum CanvasLayout: String, Sendable, Codable, CaseIterable {
    /// One camera above the other, each a full-width band (the mobile SDKs' dual camera).
    case stacked
    /// Side by side, each a full-height column.
    case sideBySide = "side-by-side"
    /// Rows of columns, as square as the count allows (3 cameras: 2 by 2, the last cell empty).
    case grid
    /// Picture in picture: the first camera fills the canvas, each other is an inset a
    /// quarter of the canvas wide and high, along the bottom edge from the right.
    case pip

    /// The canvas of the mobile SDKs' dual camera: 1080×1920, portrait.
    public static let defaultCanvas = FrameSize(width: 1080, height: 1920)

    /// Names as `--layout` takes them.
    public static var names: [String] { allCases.map(\.rawValue) }

    /// The cells of `count` cameras on `canvas`, in camera order (even coordinates and
    /// sizes: 4:2:0 pictures have a chroma sample per 2×2 pixels).
    public func cells(canvas: FrameSize, count: Int) -> [PixelRect] {
        precondition(count > 0, "a layout needs a camera")
        let width = canvas.width, height = canvas.height
        switch self {
        case .stacked:
            return (0..<count).map { index in
                let top = Self.even(height * index / count), bottom = Self.even(height * (index + 1) / count)
                return PixelRect(x: 0, y: top, width: width, height: bottom - top)
            }
        case .sideBySide:
            return (0..<count).map { index in
                let left = Self.even(width * index / count), right = Self.even(width * (index + 1) / count)
                return PixelRect(x: left, y: 0, width: right - left, height: height)
            }
        case .grid:
            var columns = 1
            while columns * columns < count { columns += 1 }
            let rows = (count + columns - 1) / columns
            return (0..<count).map { index in
                let column = index % columns, row = index / columns
                let left = Self.even(width * column / columns), right = Self.even(width * (column + 1) / columns)
                let top = Self.even(height * row / rows), bottom = Self.even(height * (row + 1) / rows)
                return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
            }
        case .pip:
            let insetWidth = Self.even(width / 4), insetHeight = Self.even(height / 4)
            let margin = Self.even(min(width, height) / 40)
            return (0..<count).map { index in
                guard index > 0 else { return PixelRect(x: 0, y: 0, width: width, height: height) }
                let right = width - margin - (index - 1) * (insetWidth + margin)
                return PixelRect(x: max(0, right - insetWidth), y: max(0, height - margin - insetHeight),
                                 width: insetWidth, height: insetHeight)
            }
        }
    }

    /// Each camera's rectangle on `canvas`: its picture (`sizes`, in camera order) scaled
    /// to fit its cell keeping its aspect ratio, centred in the cell.
    public func rectangles(canvas: FrameSize, sizes: [FrameSize]) -> [PixelRect] {
        zip(cells(canvas: canvas, count: sizes.count), sizes).map { cell, size in cell.fitting(size) }
    }

    static func even(_ value: Int) -> Int { value - value % 2 }
}

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

    /// The largest rectangle of `size`'s aspect ratio inside this one, centred (even
    /// sizes and offsets, at least 2×2).
    public func fitting(_ size: FrameSize) -> PixelRect {
        guard size.width > 0, size.height > 0 else { return self }
        // Scale by the tighter side: width × size.height against height × size.width.
        var fitWidth = width, fitHeight = height
        if width * size.height > height * size.width {
            fitWidth = (height * size.width + size.height / 2) / size.height
        } else {
            fitHeight = (width * size.height + size.width / 2) / size.width
        }
        fitWidth = max(2, CanvasLayout.even(fitWidth))
        fitHeight = max(2, CanvasLayout.even(fitHeight))
        return PixelRect(x: x + CanvasLayout.even((width - fitWidth) / 2), y: y + CanvasLayout.even((height - fitHeight) / 2),
                         width: fitWidth, height: fitHeight)
    }

    /// `WxH+X+Y`, as X11 geometry writes it.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

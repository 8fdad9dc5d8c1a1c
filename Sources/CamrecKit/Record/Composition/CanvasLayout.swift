import MediaValues

/// How several cameras share one canvas (`--layout`): the cells the canvas is cut into,
/// and each camera's rectangle, scaled to fit its cell keeping its aspect ratio.
public enum CanvasLayout: Sendable, Hashable, Codable, CaseIterable {
    /// One camera above the other, each a full-width band (the mobile SDKs' dual camera).
    case stacked
    /// Side by side, each a full-height column.
    case sideBySide
    /// Rows of columns, as square as the count allows (3 cameras: 2 by 2, the last cell empty).
    case grid
    /// Picture in picture: the first camera fills the canvas, each other is an inset
    /// `placement.percent` of the canvas wide (as high as its picture, at most the canvas
    /// less its margins), the first in `placement.corner` a margin from both edges (1/40 of
    /// the canvas's shorter side), the others beside it along the same edge, away from the
    /// corner. Plain `pip` is `.pip(.standard)`: bottom right, a quarter of the canvas wide.
    case pip(PipPlacement)

    /// The canvas of the mobile SDKs' dual camera: 1080×1920, portrait.
    public static let defaultCanvas = FrameSize(width: 1080, height: 1920)

    /// The layouts by their plain names (pip in its standard placement).
    public static let allCases: [CanvasLayout] = [.stacked, .sideBySide, .grid, .pip(.standard)]

    /// Names as `--layout` takes them (pip also as `pip:CORNER:SIZE`).
    public static var names: [String] { allCases.map(\.name) }

    /// The layout as `--layout` takes it and the `layout` of the JSON lines names it:
    /// stacked, side-by-side, grid, pip, or pip:CORNER:SIZE% (e.g. pip:top-left:30%) for
    /// a pip placed otherwise than plain pip.
    public var name: String {
        switch self {
        case .stacked: "stacked"
        case .sideBySide: "side-by-side"
        case .grid: "grid"
        case .pip(let placement): placement.description
        }
    }

    /// `--layout`'s value, in any case: a name, or `pip:CORNER:SIZE` with either part left out.
    public static func parse(_ text: String) throws(ValueError) -> CanvasLayout {
        let parts = text.lowercased().split(separator: ":", omittingEmptySubsequences: false)
        let base = parts.first ?? ""
        if base == "pip" {
            return parts.count == 1 ? .pip(.standard) : .pip(try PipPlacement.parse(Array(parts.dropFirst()), text: text))
        }
        guard let layout = allCases.first(where: { $0.name == base }) else {
            throw ValueError("unknown layout '\(text)': use " + names.joined(separator: ", ") + " or " + PipPlacement.form)
        }
        guard parts.count == 1 else {
            throw ValueError("'\(text)': \(base) has no corner or size, only pip has: write \(base), or \(PipPlacement.form)")
        }
        return layout
    }

    /// Decodes a layout from its name.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            self = try Self.parse(text)
        } catch {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    /// Encodes the layout as its name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

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
        case .pip(let placement):
            // An inset's cell is its width and the canvas's height less the margins: its
            // picture is as wide as the cell unless it is too tall for the canvas, and is
            // pushed into the cell's end at the corner (`rectangles`).
            let margin = Self.even(min(width, height) / 40)
            let insetWidth = max(2, Self.even(width * placement.percent / 100))
            let insetHeight = max(2, Self.even(height - 2 * margin))
            return (0..<count).map { index in
                guard index > 0 else { return PixelRect(x: 0, y: 0, width: width, height: height) }
                // From the corner's side edge to the inset's near side; more insets than the
                // edge holds pile up at the far edge.
                let fromEdge = margin + (index - 1) * (insetWidth + margin)
                let x = placement.corner.isLeft ? min(fromEdge, width - insetWidth) : width - fromEdge - insetWidth
                return PixelRect(x: max(0, Self.even(x)), y: margin, width: insetWidth, height: insetHeight)
            }
        }
    }

    /// Each camera's rectangle on `canvas`: its picture (`sizes`, in camera order) scaled
    /// to fit its cell keeping its aspect ratio, centred in the cell (a pip inset: in the
    /// cell's corner at the layout's corner).
    public func rectangles(canvas: FrameSize, sizes: [FrameSize]) -> [PixelRect] {
        let cells = cells(canvas: canvas, count: sizes.count)
        return sizes.indices.map { index in
            if case .pip(let placement) = self, index > 0 { return cells[index].fitting(sizes[index], toward: placement.corner) }
            return cells[index].fitting(sizes[index])
        }
    }

    static func even(_ value: Int) -> Int { value - value % 2 }
}

// Here rather than in CamrecCore, beside the rectangle: fitting a camera into a cell is the
// composition's.
extension PixelRect {
    /// The largest rectangle of `size`'s aspect ratio inside this one (even sizes and
    /// offsets, at least 2×2): centred, or (`corner`) in that corner of this one.
    public func fitting(_ size: FrameSize, toward corner: PipPlacement.Corner? = nil) -> PixelRect {
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
        let spareWidth = width - fitWidth, spareHeight = height - fitHeight
        let left = corner.map { $0.isLeft ? 0 : spareWidth } ?? spareWidth / 2
        let top = corner.map { $0.isTop ? 0 : spareHeight } ?? spareHeight / 2
        return PixelRect(x: x + CanvasLayout.even(left), y: y + CanvasLayout.even(top), width: fitWidth, height: fitHeight)
    }
}

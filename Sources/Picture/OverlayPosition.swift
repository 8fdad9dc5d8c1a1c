import MediaValues

/// Where an overlay sits in the picture (`--overlay-position`, `--overlay-image-position`).
public enum OverlayPosition: String, Sendable, CaseIterable {
    case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"
    case top, bottom

    /// The default place of `--overlay` text: where a camera's date stamp usually is.
    public static let defaultText = OverlayPosition.topLeft
    /// The default place of `--overlay-image`: the opposite corner from the text.
    public static let defaultImage = OverlayPosition.topRight

    /// Parses a position name (`top-left`, …; `tl`, `tr`, `bl`, `br` for short).
    public static func parse(_ text: String) throws(ValueError) -> OverlayPosition {
        let short: [String: OverlayPosition] = ["tl": .topLeft, "tr": .topRight, "bl": .bottomLeft, "br": .bottomRight]
        let key = text.lowercased().replacing("_", with: "-")
        if let position = OverlayPosition(rawValue: key) ?? short[key] { return position }
        throw ValueError("invalid position '\(text)': use " + allCases.map(\.rawValue).joined(separator: ", "))
    }

    var isTop: Bool { self == .topLeft || self == .topRight || self == .top }

    /// textoverlay's `halignment` nick.
    var horizontalAlignment: String {
        switch self {
        case .topLeft, .bottomLeft: "left"
        case .topRight, .bottomRight: "right"
        case .top, .bottom: "center"
        }
    }

    /// textoverlay's `valignment` nick.
    var verticalAlignment: String { isTop ? "top" : "bottom" }

    /// gdkpixbufoverlay's `offset-x` and `offset-y` (positioning relative to the edges:
    /// a negative offset counts from the right or bottom edge) for an image of `image`
    /// pixels in a `frame`, `margin` pixels from the edges.
    func imageOffsets(image: FrameSize, frame: FrameSize, margin: Int) -> (x: Int, y: Int) {
        let y = isTop ? margin : -margin
        switch self {
        case .topLeft, .bottomLeft: return (margin, y)
        case .topRight, .bottomRight: return (-margin, y)
        case .top, .bottom: return (max(0, (frame.width - image.width) / 2), y)
        }
    }
}

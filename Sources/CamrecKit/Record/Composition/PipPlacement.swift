import MediaValues

/// Where `--layout pip` puts its insets (`pip:CORNER:SIZE`): the corner of the canvas the
/// first inset sits in, and how wide each inset is, as a percentage of the canvas width.
public struct PipPlacement: Sendable, Hashable, CustomStringConvertible {
    /// A corner of the canvas.
    public enum Corner: String, Sendable, CaseIterable {
        case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"

        /// Whether the corner is on the canvas's top edge.
        public var isTop: Bool { self == .topLeft || self == .topRight }
        /// Whether the corner is on the canvas's left edge.
        public var isLeft: Bool { self == .topLeft || self == .bottomLeft }
    }

    /// The corner of the first inset; further insets line up beside it, away from it.
    public let corner: Corner
    /// Each inset's width, in percent of the canvas width (`sizes`).
    public let percent: Int

    /// The sizes `pip:SIZE` takes, in percent of the canvas width: an inset smaller than a
    /// twentieth is hardly a picture, and one wider than 60% hides the first camera.
    public static let sizes = 5...60

    /// Plain `pip`: bottom right, a quarter of the canvas wide.
    public static let standard = PipPlacement(corner: .bottomRight, percent: 25)

    /// An inset in `corner`, `percent` of the canvas width wide.
    public init(corner: Corner, percent: Int) {
        precondition(Self.sizes.contains(percent), "a pip inset is \(Self.sizes) percent of the canvas")
        self.corner = corner
        self.percent = percent
    }

    /// `pip:CORNER:SIZE` as `--layout` takes it and the layout's name gives it: `pip` for
    /// the standard placement, else both parts, e.g. `pip:top-left:30%`.
    public var description: String {
        self == .standard ? "pip" : "pip:\(corner.rawValue):\(percent)%"
    }

    /// What to write, for messages.
    static let form = "pip:CORNER:SIZE (CORNER top-left, top-right, bottom-left or bottom-right; SIZE from 5% to 60% of the canvas width; either may be left out), e.g. pip:bottom-right:30%"

    /// The placement of `parts`, what follows `pip:` split at the colons (`text` is the
    /// whole value, for messages): CORNER, SIZE, or CORNER then SIZE; what is left out is
    /// the standard placement's. `tl`, `tr`, `bl` and `br` stand for the corners.
    static func parse(_ parts: [Substring], text: String) throws(ValueError) -> PipPlacement {
        guard (1...2).contains(parts.count) else { throw ValueError("'\(text)' has more than a corner and a size: write \(form)") }
        var corner: Corner?
        var percent: Int?
        for (index, part) in parts.enumerated() {
            if part.hasSuffix("%") || part.first?.isNumber == true {
                // A size: last, once.
                guard percent == nil, index == parts.count - 1 else {
                    throw ValueError("'\(text)': the size comes after the corner: write \(form)")
                }
                percent = try size(part, text: text)
            } else {
                guard corner == nil, index == 0 else {
                    throw ValueError("'\(text)': the corner comes first, once: write \(form)")
                }
                corner = try self.corner(part, text: text)
            }
        }
        return PipPlacement(corner: corner ?? standard.corner, percent: percent ?? standard.percent)
    }

    /// CORNER: its name, or its initials.
    static func corner(_ part: Substring, text: String) throws(ValueError) -> Corner {
        let short: [String: Corner] = ["tl": .topLeft, "tr": .topRight, "bl": .bottomLeft, "br": .bottomRight]
        let key = String(part.replacing("_", with: "-"))
        guard let corner = Corner(rawValue: key) ?? short[key] else {
            let what = part.isEmpty ? "an empty corner" : "unknown corner '\(part)'"
            throw ValueError("\(what) in '\(text)': use top-left, top-right, bottom-left or bottom-right, e.g. pip:top-left:30%")
        }
        return corner
    }

    /// SIZE: a whole percentage in `sizes`, with its `%`.
    static func size(_ part: Substring, text: String) throws(ValueError) -> Int {
        let example = "e.g. pip:bottom-right:30%"
        guard part.hasSuffix("%") else {
            throw ValueError("size '\(part)' in '\(text)': give it in percent of the canvas width, from \(sizes.lowerBound)% to \(sizes.upperBound)%, \(example)")
        }
        guard let percent = Int(part.dropLast()), sizes.contains(percent) else {
            throw ValueError("size '\(part)' in '\(text)': give a whole percentage of the canvas width from \(sizes.lowerBound)% to \(sizes.upperBound)%, \(example)")
        }
        return percent
    }
}

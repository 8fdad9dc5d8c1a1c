import MediaValues

/// How the picture is turned and mirrored before it is encoded (`--rotate`, `--flip`,
/// `--mirror`): rotation first, then the flip, as the rotated picture is seen. Any mix of
/// them is one of the eight symmetries of a rectangle, so one `camrecflip` (videoflip's
/// directions, camrec's faster element) does it all.
public struct Orientation: Sendable, Equatable, CustomStringConvertible {
    /// Clockwise rotation.
    public enum Rotation: Int, Sendable, CaseIterable {
        case none = 0, clockwise = 90, upsideDown = 180, counterclockwise = 270
    }

    /// A mirror image, after the rotation.
    public enum Flip: String, Sendable, CaseIterable {
        /// Left and right swapped (a front camera's preview): `--mirror`.
        case horizontal
        /// Top and bottom swapped.
        case vertical
    }

    /// Clockwise rotation.
    public var rotation: Rotation
    /// The mirror image applied after the rotation, if any.
    public var flip: Flip?

    public init(rotation: Rotation = .none, flip: Flip? = nil) {
        self.rotation = rotation
        self.flip = flip
    }

    /// The picture as the camera gives it.
    public static let identity = Orientation()

    /// Whether the picture changes at all.
    public var isIdentity: Bool { videoDirection == "identity" }

    /// Whether width and height trade places (a quarter turn either way).
    public var swapsDimensions: Bool { rotation == .clockwise || rotation == .counterclockwise }

    /// The size of a `size` frame once oriented.
    public func outputSize(_ size: FrameSize) -> FrameSize {
        swapsDimensions ? FrameSize(width: size.height, height: size.width) : size
    }

    /// videoflip's `video-direction` nick for the whole transform: identity, 90r, 180, 90l,
    /// horiz, vert, ul-lr (transpose) or ur-ll.
    public var videoDirection: String {
        let matrix = Self.matrix(flip).times(Self.matrix(rotation))
        return Self.nicks.first { $0.matrix == matrix }?.nick ?? "identity"
    }

    /// `--rotate 90 --flip horizontal`, as a person writes it.
    public var description: String {
        var parts: [String] = []
        if rotation != .none { parts.append("rotated \(rotation.rawValue)°") }
        if let flip { parts.append("flipped \(flip.rawValue == "horizontal" ? "horizontally" : "vertically")") }
        return parts.isEmpty ? "as the camera gives it" : parts.joined(separator: ", ")
    }

    /// Parses `--rotate`: 0, 90, 180 or 270 (a trailing `°` or `deg` is accepted).
    public static func parseRotation(_ text: String) throws(ValueError) -> Rotation {
        var value = text.lowercased()
        for suffix in ["°", "deg"] where value.hasSuffix(suffix) { value.removeLast(suffix.count) }
        guard let degrees = Int(value), let rotation = Rotation(rawValue: degrees) else {
            throw ValueError("invalid rotation '\(text)': use 90, 180 or 270 (degrees clockwise)")
        }
        return rotation
    }

    /// Parses `--flip`: horizontal (h) or vertical (v).
    public static func parseFlip(_ text: String) throws(ValueError) -> Flip {
        switch text.lowercased() {
        case "horizontal", "h", "horizontally": return .horizontal
        case "vertical", "v", "vertically": return .vertical
        default: throw ValueError("invalid flip '\(text)': use horizontal or vertical")
        }
    }

    // MARK: the symmetries as 2×2 matrices on (x right, y down) coordinates

    struct Matrix: Equatable {
        var a, b, c, d: Int
        func times(_ o: Matrix) -> Matrix {
            Matrix(a: a * o.a + b * o.c, b: a * o.b + b * o.d, c: c * o.a + d * o.c, d: c * o.b + d * o.d)
        }
    }

    static func matrix(_ rotation: Rotation) -> Matrix {
        switch rotation {
        case .none: Matrix(a: 1, b: 0, c: 0, d: 1)
        case .clockwise: Matrix(a: 0, b: -1, c: 1, d: 0)           // (x, y) → (−y, x)
        case .upsideDown: Matrix(a: -1, b: 0, c: 0, d: -1)
        case .counterclockwise: Matrix(a: 0, b: 1, c: -1, d: 0)    // (x, y) → (y, −x)
        }
    }

    static func matrix(_ flip: Flip?) -> Matrix {
        switch flip {
        case nil: Matrix(a: 1, b: 0, c: 0, d: 1)
        case .horizontal: Matrix(a: -1, b: 0, c: 0, d: 1)
        case .vertical: Matrix(a: 1, b: 0, c: 0, d: -1)
        }
    }

    /// videoflip's directions and what each does to (x, y).
    static let nicks: [(nick: String, matrix: Matrix)] = [
        ("identity", Matrix(a: 1, b: 0, c: 0, d: 1)),
        ("90r", Matrix(a: 0, b: -1, c: 1, d: 0)),
        ("180", Matrix(a: -1, b: 0, c: 0, d: -1)),
        ("90l", Matrix(a: 0, b: 1, c: -1, d: 0)),
        ("horiz", Matrix(a: -1, b: 0, c: 0, d: 1)),
        ("vert", Matrix(a: 1, b: 0, c: 0, d: -1)),
        ("ul-lr", Matrix(a: 0, b: 1, c: 1, d: 0)),      // transpose: (x, y) → (y, x)
        ("ur-ll", Matrix(a: 0, b: -1, c: -1, d: 0)),    // (x, y) → (−y, −x)
    ]
}

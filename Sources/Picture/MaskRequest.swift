import CamrecCore

/// The privacy masks a command asks for (`--mask`, repeatable, and `--mask-image`): parsed,
/// with the image still unread. ``resolve()`` reads it.
public struct MaskRequest: Sendable, Equatable {
    /// `--mask`, each parsed.
    public var rectangles: [MaskRectangle] = []
    /// `--mask-image`; nil: none.
    public var imagePath: String?

    public init(rectangles: [MaskRectangle] = [], imagePath: String? = nil) {
        self.rectangles = rectangles
        self.imagePath = imagePath
    }

    /// No mask.
    public static let none = MaskRequest()

    /// Whether a mask is asked for.
    public var isWanted: Bool { !rectangles.isEmpty || imagePath != nil }

    /// `--mask` (every one given) and `--mask-image` (nil: not given). A bad rectangle (syntax,
    /// empty, past 100%) is a usage error.
    public static func parse(masks: [String], image: String?) throws(CamrecError) -> MaskRequest {
        var rectangles: [MaskRectangle] = []
        for text in masks {
            if let rectangle = try OptionValue.parse("--mask", text, MaskRectangle.parse) { rectangles.append(rectangle) }
        }
        if let image, image.isEmpty {
            throw OptionValue.refusal("--mask-image: give a PNG file whose black regions are masked")
        }
        return MaskRequest(rectangles: rectangles, imagePath: image)
    }

    /// The masks, with the image read (exit 66 when it is missing, 65 when it is not a PNG).
    public func resolve() throws(CamrecError) -> PrivacyMask {
        let image = try imagePath.map { path throws(CamrecError) in try MaskImage.load(path) } ?? []
        return PrivacyMask(rectangles: rectangles, imageRectangles: image, imagePath: imagePath)
    }
}

/// The picture a command asks for (`--rotate`, `--flip`, `--mirror`, `--overlay`,
/// `--overlay-image`): parsed, with the overlay image still unread. ``resolve()`` reads it.
public struct PictureRequest: Sendable, Equatable {
    /// Rotation and flips.
    public var orientation: Orientation
    /// `--overlay`; nil: no text.
    public var text: OverlayText?
    /// `--overlay-position`.
    public var textPosition: OverlayPosition
    /// `--overlay-image`; nil: no image.
    public var imagePath: String?
    /// `--overlay-image-position`.
    public var imagePosition: OverlayPosition

    /// A request as the options give it.
    public init(orientation: Orientation, text: OverlayText?, textPosition: OverlayPosition,
                imagePath: String?, imagePosition: OverlayPosition) {
        self.orientation = orientation
        self.text = text
        self.textPosition = textPosition
        self.imagePath = imagePath
        self.imagePosition = imagePosition
    }

    /// The settings, with the image read and checked (exit 65 when it is missing or not a PNG).
    public func resolve() throws(CamrecError) -> PictureSettings {
        let image = try imagePath.map { path throws(CamrecError) in try OverlayImage.load(path, position: imagePosition) }
        return PictureSettings(orientation: orientation, text: text, textPosition: textPosition, image: image)
    }
}

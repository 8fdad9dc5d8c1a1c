import CamrecCore
import MediaValues

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
    /// `--mask`, `--mask-image`.
    public var mask: MaskRequest = .none

    /// A request as the options give it.
    public init(orientation: Orientation, text: OverlayText?, textPosition: OverlayPosition,
                imagePath: String?, imagePosition: OverlayPosition) {
        self.orientation = orientation
        self.text = text
        self.textPosition = textPosition
        self.imagePath = imagePath
        self.imagePosition = imagePosition
    }

    /// `--rotate`, `--flip`, `--mirror`, `--overlay`, `--overlay-position`, `--overlay-image`
    /// and `--overlay-image-position` as given (nil: not given), with their rules: `--mirror`
    /// is `--flip horizontal`, and a position needs its overlay. Every refusal is a usage error.
    public static func parse(rotate: String?, flip: String?, mirror: Bool, overlay: String?, overlayPosition: String?,
                             overlayImage: String?, overlayImagePosition: String?) throws(CamrecError) -> PictureRequest {
        let rotation = try OptionValue.parse("--rotate", rotate, Orientation.parseRotation) ?? .none
        var flipping = try OptionValue.parse("--flip", flip, Orientation.parseFlip)
        if mirror {
            if flipping == .vertical {
                throw OptionValue.refusal("--mirror is --flip horizontal, and --flip vertical was given too: give one of them")
            }
            flipping = .horizontal
        }
        let text = try OptionValue.parse("--overlay", overlay) { (text: String) throws(ValueError) in try OverlayText(text) }
        let textPosition = try OptionValue.parse("--overlay-position", overlayPosition, OverlayPosition.parse) ?? .defaultText
        if text == nil, overlayPosition != nil {
            throw OptionValue.refusal("--overlay-position needs --overlay TEXT (for the image: --overlay-image-position)")
        }
        if let overlayImage, overlayImage.isEmpty {
            throw OptionValue.refusal("--overlay-image: give a PNG file")
        }
        let imagePosition = try OptionValue.parse("--overlay-image-position", overlayImagePosition, OverlayPosition.parse) ?? .defaultImage
        if overlayImage == nil, overlayImagePosition != nil {
            throw OptionValue.refusal("--overlay-image-position needs --overlay-image FILE")
        }
        return PictureRequest(orientation: Orientation(rotation: rotation, flip: flipping), text: text, textPosition: textPosition,
                              imagePath: overlayImage, imagePosition: imagePosition)
    }

    /// The settings, with the images read and checked (exit 65 when the overlay image is
    /// missing or not a PNG; the mask image: 66 when missing, 65 when not a PNG).
    public func resolve() throws(CamrecError) -> PictureSettings {
        let image = try imagePath.map { path throws(CamrecError) in try OverlayImage.load(path, position: imagePosition) }
        return PictureSettings(orientation: orientation, text: text, textPosition: textPosition, image: image,
                               mask: try mask.resolve())
    }
}

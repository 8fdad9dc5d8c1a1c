import MediaValues

/// What camrec does to the picture before it is encoded and before stills are taken:
/// orientation (`--rotate`, `--flip`, `--mirror`), privacy masks (`--mask`, `--mask-image`),
/// burnt-in text (`--overlay`) and an image (`--overlay-image`). The movie and its stills
/// show the same picture.
public struct PictureSettings: Sendable, Equatable {
    /// Rotation and mirroring.
    public var orientation: Orientation
    /// Burnt-in text, if any.
    public var text: OverlayText?
    /// Where the text goes.
    public var textPosition: OverlayPosition
    /// A PNG placed over the picture, if any.
    public var image: OverlayImage?
    /// The privacy masks, filled before the overlays (which stay readable over them).
    public var mask: PrivacyMask

    public init(orientation: Orientation = .identity, text: OverlayText? = nil,
                textPosition: OverlayPosition = .defaultText, image: OverlayImage? = nil, mask: PrivacyMask = .none) {
        self.orientation = orientation
        self.text = text
        self.textPosition = textPosition
        self.image = image
        self.mask = mask
    }

    /// The picture as the camera gives it.
    public static let unchanged = PictureSettings()

    /// Whether anything is done to the picture (which then needs decoded frames).
    public var isActive: Bool { changesPicture || !mask.isEmpty }

    /// Whether the picture is turned or overlaid (what is done besides masks).
    public var changesPicture: Bool { !orientation.isIdentity || text != nil || image != nil }

    /// The element that turns and mirrors the picture: camrec's own `camrecflip`, built into
    /// camrec (and, for gst-launch-1.0, the plugin libgstcamrec.so). Its `method` takes
    /// videoflip's `video-direction` nicks and gives the same pixels, in a fraction of the time.
    public static let orientElement = "camrecflip"

    /// The name of the textoverlay element, whose text camrec sets for every frame.
    public static let textElement = "overlay"

    /// The name of the masks' element (`camrecmask`).
    public static let maskElement = "mask"

    /// The tee before the masks, from which motion detection takes the unmasked picture.
    public static let sceneTee = "scene"

    /// The text's height in pixels in a `frame`: about a 24th of its shorter side (30 px
    /// at 720p), so that it reads at any size without covering the picture.
    public static func textPixels(in frame: FrameSize) -> Int {
        max(14, min(frame.width, frame.height) / 24)
    }

    /// The elements that do it, in gst-launch syntax (starting with "! "), for frames of
    /// `cameraSize` as the camera gives them; "" when nothing is done. `quote` writes a
    /// property value (for the parser, or for a shell when printed). The text property
    /// holds `text` as given when `printed`; camrec itself starts it empty and sets it for
    /// every frame before the frame reaches the element (see `OverlayTextProbe`).
    /// The masks come after the turn (their rectangles are in the turned picture's pixels)
    /// and before the overlays; `tapsScene` puts a tee named "scene" before them, for motion
    /// detection, which must see the unmasked picture.
    public func fragment(cameraSize: FrameSize, printed: Bool, tapsScene: Bool = false, quote: (String) -> String) -> String {
        var parts: [String] = []
        if !orientation.isIdentity {
            // camrec's own element (Sources/CamrecElements): videoflip's pixels, faster.
            parts.append("\(Self.orientElement) name=orient method=\(orientation.videoDirection)")
        }
        let frame = orientation.outputSize(cameraSize)
        if !mask.isEmpty {
            if tapsScene { parts.append("tee name=\(Self.sceneTee)") }
            // camrec's own element: fills the rectangles in place, nothing blended.
            parts.append(mask.element(name: Self.maskElement, frame: frame, quote: quote))
        }
        let pixels = Self.textPixels(in: frame)
        let margin = max(8, pixels / 2)
        if let image {
            let (x, y) = image.position.imageOffsets(image: image.size, frame: frame, margin: margin)
            parts.append("gdkpixbufoverlay name=logo location=\(quote(image.path)) offset-x=\(x) offset-y=\(y)")
        }
        if let text {
            let initial = printed || !text.varies ? text.template : ""
            parts.append("textoverlay name=\(Self.textElement) text=\(quote(initial))"
                + " font-desc=\(quote("DejaVu Sans Mono Bold \(pixels)px")) auto-resize=false"
                + " draw-outline=true draw-shadow=true color=0xffffffff outline-color=0xff000000"
                + " halignment=\(textPosition.horizontalAlignment) valignment=\(textPosition.verticalAlignment)"
                + " xpad=\(margin) ypad=\(margin)")
        }
        return parts.map { "! " + $0 }.joined(separator: " ")
    }

    /// The GStreamer elements the settings need, for the missing-plugin check (camrecflip is
    /// built into camrec, so never missing).
    public var elements: [String] {
        var names: [String] = []
        if image != nil { names.append("gdkpixbufoverlay") }
        if text != nil { names.append("textoverlay") }
        return names
    }
}

import CamrecCore
import MediaValues

/// Privacy masks (`--mask`, `--mask-image`): parts of the picture filled with solid black
/// before anything leaves camrec (the movie, stills, clips, Live Photos, the preview, the
/// live stream), by camrec's own element `camrecmask`. Motion detection looks at the picture
/// before the masks (``PictureSettings/fragment(cameraSize:printed:tapsScene:quote:)``).
public struct PrivacyMask: Sendable, Equatable {
    /// `--mask`, in the order given.
    public var rectangles: [MaskRectangle]
    /// `--mask-image`'s dark regions as rectangles (fractions of the picture); empty without.
    public var imageRectangles: [MaskRectangle]
    /// `--mask-image`, for messages; nil without.
    public var imagePath: String?

    public init(rectangles: [MaskRectangle] = [], imageRectangles: [MaskRectangle] = [], imagePath: String? = nil) {
        self.rectangles = rectangles
        self.imageRectangles = imageRectangles
        self.imagePath = imagePath
    }

    /// No mask.
    public static let none = PrivacyMask()

    /// Whether nothing is masked.
    public var isEmpty: Bool { rectangles.isEmpty && imageRectangles.isEmpty }

    /// The element that fills the masks: camrec's own `camrecmask`, built into camrec and in
    /// libgstcamrec.so for gst-launch-1.0.
    public static let element = "camrecmask"

    /// Refuses (exit 64) a `--mask` rectangle that does not lie wholly inside a picture of
    /// `frame` (the picture after `--rotate`). `camera` names the camera in messages when
    /// there are several.
    public func check(frame: FrameSize, camera: String = "") throws(CamrecError) {
        for rectangle in rectangles where rectangle.pixels(in: frame) == nil {
            throw CamrecError(.usage, "--mask \(rectangle.description): \(camera)the picture is \(frame), and the rectangle does not lie inside it: give X+W at most \(frame.width) and Y+H at most \(frame.height), or percentages")
        }
    }

    /// Every rectangle in whole pixels of a picture of `frame` (what lies outside it left out).
    public func pixelRectangles(in frame: FrameSize) -> [PixelRect] {
        (rectangles + imageRectangles).compactMap { $0.pixels(in: frame) }
    }

    /// The `camrecmask` element named `name` for a picture of `frame`, in gst-launch syntax
    /// (without "! "); `quote` writes the rectangles' value.
    public func element(name: String, frame: FrameSize, quote: (String) -> String) -> String {
        let list = pixelRectangles(in: frame).map { "\($0.x),\($0.y),\($0.width),\($0.height)" }.joined(separator: " ")
        return "\(Self.element) name=\(name) rectangles=\(quote(list))"
    }
}

extension MaskRectangle: CustomStringConvertible {
    /// As given: `X,Y,W,H` with percentages where they were given.
    public var description: String {
        [x, y, width, height].map { length in
            switch length {
            case .pixels(let count): String(count)
            case .fraction(let part): Self.percent(part)
            }
        }.joined(separator: ",")
    }
}

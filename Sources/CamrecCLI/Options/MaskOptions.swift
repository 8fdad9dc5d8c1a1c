import ArgumentParsing
import CamrecKit

/// The privacy-mask options of `camrec`, `camrec still` and `camrec preview`, declared once;
/// part of the picture options (`PictureOptions.request` reads them).
public enum MaskOptions {
    /// The options, with their help.
    public static let specs = [
        OptionSpec(["--mask"], value: "X,Y,W,H", help: "fill this rectangle of the picture with solid black in everything camrec writes or shows (movie, stills, clips, Live Photos, preview, --serve); each number in pixels or a percentage of the picture (after --rotate), e.g. 0,0,320,180 or 75%,0,25%,40%; give it again for more rectangles; motion detection (--on-motion) still sees the whole picture (--motion-mask is its own mask); not with --codec copy, whose frames are never decoded", repeatable: true, summary: "black out a rectangle (pixels or %), repeatable"),
        OptionSpec(["--mask-image"], value: "FILE", help: "black out the dark (below mid-grey, opaque) pixels of a PNG, scaled to the picture: paint black what must never be recorded, on white or transparent; a missing file is refused (exit 66), one that is not a PNG (exit 65), before anything is recorded", summary: "black out a PNG's dark regions"),
    ]
}

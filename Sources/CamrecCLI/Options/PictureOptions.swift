import ArgumentParsing
import CamrecKit

/// The picture options of `camrec`, `camrec still` and `camrec preview`: orientation and
/// overlays, declared once (the masks: `MaskOptions`).
public enum PictureOptions {
    /// The options, with their help.
    public static let specs = [
        OptionSpec(["--rotate"], value: "DEG", help: "turn the picture 90, 180 or 270 degrees clockwise (in the pixels, before encoding; 90 and 270 swap width and height)", summary: "turn the picture 90, 180 or 270 degrees"),
        OptionSpec(["--flip"], value: "DIR", help: "mirror the picture: horizontal or vertical (after --rotate)", summary: "mirror it: horizontal or vertical"),
        OptionSpec(["--mirror"], help: "the same as --flip horizontal, as a front camera's preview", summary: "the same as --flip horizontal"),
        OptionSpec(["--overlay"], value: "TEXT", help: "burn TEXT into the picture: strftime fields (%Y-%m-%d %H:%M:%S, …) for the moment the camera took the frame, {frame} (its index in the movie, from 0), {elapsed} (its time in the movie, HH:MM:SS) and {device} (the camera's path); white with a black outline, about a 24th of the picture's height", summary: "burn TEXT (strftime, {frame}, …) into it"),
        OptionSpec(["--overlay-position"], value: "POS", help: "where the text goes: top-left (default), top-right, bottom-left, bottom-right, top or bottom", summary: "where the text goes (default: top-left)"),
        OptionSpec(["--overlay-image"], value: "FILE", help: "place a PNG image (a logo; its transparency is kept) over the picture at its own size; a missing file or one that is not a PNG is refused (exit 65) before anything is recorded", summary: "place a PNG image (a logo) over it"),
        OptionSpec(["--overlay-image-position"], value: "POS", help: "where the image goes: the positions of --overlay-position (default: top-right)", summary: "where the image goes (default: top-right)"),
    ]
}

import ArgumentParsing
import CamrecKit

/// `--layout` and `--canvas`: several cameras composed onto one canvas, one movie.
enum LayoutOptions {
    /// The "several cameras" topic's options: MultiCameraRecording's, with their short
    /// help, then --layout and --canvas.
    static let multiCameraSpecs = MultiCameraRecording.specs.map { option in
        switch option.name {
        case "--all-or-nothing": option.summarized("a lost camera stops the whole run (exit 79)")
        case "--output-per-device": option.summarized("OUTPUT is a pattern with {index}, {device}")
        default: option
        }
    } + specs

    static let specs = [
        OptionSpec(["--layout"], value: "LAYOUT", help: "several cameras: compose them onto one canvas, one movie at OUTPUT: stacked (one above the other), side-by-side, grid or pip (the first fills the canvas, the others are insets); each camera is scaled to fit its cell keeping its aspect ratio, and the started line and the result give each camera's rectangle", summary: "one movie: stacked, side-by-side, grid or pip"),
        OptionSpec(["--canvas"], value: "WxH", help: "the canvas of --layout, the movie's frame size: even, from 64x64 (default: 1080x1920, portrait, as the mobile SDKs' dual camera)", summary: "the canvas of --layout (default: 1080x1920)"),
    ]
}

/// The composition asked for on the command line, typed once.
struct LayoutChoice {
    /// `--layout`; nil: one movie per camera.
    var layout: CanvasLayout?
    /// The canvas (`--canvas`, else the default).
    var canvas: FrameSize

    init(_ parsed: ParsedArguments) throws(UsageError) {
        layout = try parsed.value("--layout") { (text: String) throws(ValueError) -> CanvasLayout in
            guard let layout = CanvasLayout(rawValue: text.lowercased()) else {
                throw ValueError("unknown layout '\(text)': use " + CanvasLayout.names.joined(separator: ", "))
            }
            return layout
        }
        let canvas = try parsed.value("--canvas", FrameSize.parse)
        if canvas != nil, layout == nil {
            throw UsageError("--canvas is the canvas of --layout: give --layout too, e.g. --layout stacked --canvas 1080x1920")
        }
        // Each cell (a pip inset is a quarter of the canvas) must be a picture.
        if let canvas, canvas.width < 64 || canvas.height < 64 {
            throw UsageError("--canvas \(canvas) is too small for a layout: give at least 64x64, e.g. 1080x1920")
        }
        self.canvas = canvas ?? CanvasLayout.defaultCanvas
    }
}

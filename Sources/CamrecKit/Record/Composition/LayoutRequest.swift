/// The composition a recording of several cameras asks for (`--layout`, `--canvas`), as
/// given, and its rules: a known layout (pip with its corner and size), a canvas only with
/// a layout, and a canvas large enough for its cells to be pictures.
public struct LayoutRequest: Sendable, Equatable {
    /// `--layout LAYOUT`; nil: one movie per camera.
    public var layout: String?
    /// `--canvas WxH`.
    public var canvas: String?

    public init(layout: String? = nil, canvas: String? = nil) {
        self.layout = layout
        self.canvas = canvas
    }

    /// The layout (nil: one movie per camera) and the canvas (`--canvas`, else the
    /// default). Every refusal is a usage error.
    public func resolve() throws(CamrecError) -> (layout: CanvasLayout?, canvas: FrameSize) {
        let layout = try OptionValue.parse("--layout", self.layout, CanvasLayout.parse)
        let canvas = try OptionValue.parse("--canvas", self.canvas, FrameSize.parse)
        if canvas != nil, layout == nil {
            throw OptionValue.refusal("--canvas is the canvas of --layout: give --layout too, e.g. --layout stacked --canvas 1080x1920")
        }
        if let canvas, canvas.width < 64 || canvas.height < 64 {
            throw OptionValue.refusal("--canvas \(canvas) is too small for a layout: give at least 64x64, e.g. 1080x1920")
        }
        return (layout, canvas ?? CanvasLayout.defaultCanvas)
    }
}

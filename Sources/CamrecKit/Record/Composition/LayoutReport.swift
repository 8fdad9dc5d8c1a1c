/// A composed movie's layout (`--layout`), as the `started` line and the result give it:
/// the canvas and each camera's rectangle on it.
public struct LayoutReport: Sendable, Codable, Equatable {
    /// The layout's name as `--layout` takes it: "stacked", "side-by-side", "grid", "pip",
    /// or "pip:CORNER:SIZE%" for a pip placed otherwise (e.g. "pip:top-left:30%").
    public var name: String
    /// The canvas, the movie's frame size, e.g. "1080x1920".
    public var canvas: String
    /// Each camera, in `--device` order.
    public var cameras: [Camera]

    /// A layout's report as printed.
    public init(name: String, canvas: String, cameras: [Camera]) {
        self.name = name
        self.canvas = canvas
        self.cameras = cameras
    }

    /// One camera's rectangle on the canvas, in canvas pixels from its top-left corner.
    public struct Camera: Sendable, Codable, Equatable {
        /// The camera's number in the run: 1 for the first `--device`.
        public var index: Int
        /// The camera's device path.
        public var device: String
        /// The size the camera delivers, e.g. "1280x720" (its rectangle keeps its aspect ratio).
        public var size: String
        /// Left edge.
        public var x: Int
        /// Top edge.
        public var y: Int
        /// Width.
        public var width: Int
        /// Height.
        public var height: Int

        /// Camera `index` (1-based) at `device`, delivering `size`, in the rectangle `x`, `y`, `width`, `height`.
        public init(index: Int, device: String, size: String, x: Int, y: Int, width: Int, height: Int) {
            self.index = index
            self.device = device
            self.size = size
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }
}

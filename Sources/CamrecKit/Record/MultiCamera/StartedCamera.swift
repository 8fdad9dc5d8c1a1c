/// One camera of a run of several, as the `started` line lists it.
public struct StartedCamera: Sendable, Codable, Equatable {
    /// The camera's number in the run: 1 for the first `--device`.
    public var index: Int
    /// The camera's device path.
    public var device: String
    /// Its movie's final path.
    public var path: String
    /// Where its movie is written until it is finalised.
    public var partialPath: String
    /// The camera format (fourcc).
    public var format: String
    /// Frame size, e.g. "1280x720".
    public var size: String
    /// Frame rate, e.g. "30".
    public var fps: String
    /// The camera controls set on this camera (`--set`, `--flash`); nil when none.
    public var controls: [AppliedControl]?
    /// With `--serve`: where this camera's live stream is (`rtsp://127.0.0.1:8554/camera2`).
    public var serveURL: String?

    /// The camera `index` (1-based) as its own `started` report describes it.
    public init(index: Int, start: RecordingStart) {
        self.index = index
        device = start.device
        path = start.path
        partialPath = start.partialPath
        format = start.format
        size = start.size
        fps = start.fps
        controls = start.controls
        serveURL = start.serveURL
    }
}

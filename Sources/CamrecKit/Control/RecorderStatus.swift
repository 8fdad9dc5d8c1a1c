/// A running recording's state, as `camrec ctl PATH status` reports it.
public struct RecorderStatus: Sendable, Codable, Equatable {
    /// "recording", or "stopping" once a stop was asked for or the limit reached (there is
    /// no status before the pipeline runs: `camrec ctl` then reports that it is not running).
    public var state: String
    /// The movie being recorded.
    public var path: String
    /// Seconds of video recorded so far.
    public var elapsed: Double
    /// Frames recorded so far.
    public var frames: Int
    /// Stills written so far.
    public var stills: Int
    /// Frames dropped so far.
    public var droppedFrames: UInt64
    /// The limit in seconds, nil for none.
    public var maxDuration: Double?
    /// With `--segment`: the number of the movie being written (1 for the first); `path`
    /// is its name.
    public var segment: Int?
    /// With event clips: the bytes of encoded stream the pre-roll holds in memory.
    public var preRollBytes: Int?
    /// With `--serve`: where the live stream is (`rtsp://127.0.0.1:8554/live`).
    public var serveURL: String?
    /// Of `droppedFrames`, those camrec left out evenly because the encoder could not keep
    /// up (`LoadShedder`); nil without an encoder of camrec's (passthrough, time-lapse).
    public var shedFrames: UInt64? = nil
    /// Several cameras: the camera's device (at the top level, the first camera's); nil
    /// with one camera.
    public var device: String?
    /// Several cameras: every camera's own status, in `--device` order (the top-level
    /// fields are the first camera's); nil with one camera and inside this list.
    public var cameras: [RecorderStatus]?
}

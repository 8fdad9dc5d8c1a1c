import CamrecCore

/// A finished, published file a hook runs for, with what its environment says of it.
public struct HookedFile: Sendable, Codable, Equatable {
    /// Its path, as camrec's lines give it.
    public var path: String
    /// What it is: "movie", "segment", "clip", "still", "trim" or "export".
    public var kind: String
    /// When its first frame was captured: milliseconds since 1970 (nil: not known).
    public var start: Int64?
    /// Seconds of video (movies).
    public var duration: Double?
    /// Video frames (movies).
    public var frames: Int?
    /// The camera it comes from (its device), when known.
    public var camera: String?
    /// The series it belongs to (OUTPUT as given for a recording; the name a file of a
    /// series is numbered after), when there is one.
    public var series: String?
    /// Its JSON line, as `--json` prints it: the command's standard input.
    public var line: String

    public init(path: String, kind: String, start: Int64? = nil, duration: Double? = nil, frames: Int? = nil,
                camera: String? = nil, series: String? = nil, line: String) {
        self.path = path
        self.kind = kind
        self.start = start
        self.duration = duration
        self.frames = frames
        self.camera = camera
        self.series = series
        self.line = line
    }

    /// The variables camrec adds to the command's environment (`CAMREC_FILE`, `CAMREC_KIND`,
    /// `CAMREC_START`, `CAMREC_DURATION`, `CAMREC_FRAMES`, `CAMREC_CAMERA`, `CAMREC_SERIES`),
    /// each set only when known.
    var environment: [String] {
        var variables = ["CAMREC_FILE=" + path, "CAMREC_KIND=" + kind]
        if let start { variables.append("CAMREC_START=\(start)") }
        if let duration { variables.append("CAMREC_DURATION=" + String(cFormat: "%.3f", duration)) }
        if let frames { variables.append("CAMREC_FRAMES=\(frames)") }
        if let camera { variables.append("CAMREC_CAMERA=" + camera) }
        if let series { variables.append("CAMREC_SERIES=" + series) }
        return variables
    }
}

import V4L2

/// What the command line asks of the camera's controls: `--set`, `--flash`, and whether
/// to keep the asked frame rate and to put the controls back at the end.
public struct ControlRequest: Sendable, Equatable {
    /// `--set NAME=VALUE`, in order.
    public var assignments: [ControlAssignment] = []
    /// `--flash`.
    public var flash: FlashMode?
    /// Turn off auto-exposure's lowering of the frame rate (unless `exposure-priority` is
    /// set explicitly). On by default for recordings.
    public var keepFrameRate = true
    /// `--keep-controls`: leave the camera as camrec set it when the run ends.
    public var keepControls = false
    /// Passthrough of a camera's H.264: frames from one keyframe to the next, set through
    /// the camera's own H.264 keyframe control where it has one (and parameter sets
    /// repeated at every keyframe); nil leaves the camera's.
    public var keyframePeriod: Int?

    /// A request.
    public init(assignments: [ControlAssignment] = [], flash: FlashMode? = nil, keepFrameRate: Bool = true,
                keepControls: Bool = false) {
        self.assignments = assignments
        self.flash = flash
        self.keepFrameRate = keepFrameRate
        self.keepControls = keepControls
    }

    /// Whether anything is asked for beyond the defaults.
    public var setsAnything: Bool { !assignments.isEmpty || flash != nil }
}

/// A control set for a run, as the JSON `started` line lists it.
public struct AppliedControl: Sendable, Codable, Equatable {
    /// The name given (`exposure`, `flash`, or a driver key).
    public var name: String
    /// The value given.
    public var value: String
    /// The driver controls written and their values ("exposure_auto": 1, …).
    public var driverControls: [String: Int64]

    /// An applied control.
    public init(name: String, value: String, driverControls: [String: Int64]) {
        self.name = name
        self.value = value
        self.driverControls = driverControls
    }

    /// The keyframe period it set on a camera that encodes H.264 itself (its H.264
    /// I-frame period or GOP size control), if it is one of those.
    public var keyframePeriod: Int? {
        for key in ["h264_i_frame_period", "gop_size"] {
            if let value = driverControls[key] { return Int(value) }
        }
        return nil
    }
}

extension ControlRequest {
    /// The request for `--set` texts (each `NAME=VALUE[,…]`), `--flash` and
    /// `--keep-controls`, or what is malformed (names and values are checked against the
    /// camera later, by `PreparedControls.prepare`).
    public static func parse(sets: [String], flash: String?, keepControls: Bool) throws(ValueError) -> ControlRequest {
        var assignments: [ControlAssignment] = []
        for text in sets {
            do {
                assignments += try ControlAssignment.parseList(text)
            } catch {
                throw ValueError("--set: " + error.message)
            }
        }
        var mode: FlashMode?
        if let flash {
            guard let parsed = FlashMode.parse(flash) else {
                throw ValueError("--flash: '\(flash)' is not a flash mode: use on, off or auto")
            }
            mode = parsed
        }
        return ControlRequest(assignments: assignments, flash: mode, keepControls: keepControls)
    }

    /// The friendly names `--set` takes, each with what it takes and maps to, for help text.
    public static var friendlyNames: [(name: String, summary: String)] {
        FriendlyControl.allCases.map { ($0.rawValue, $0.summary) }
    }
}

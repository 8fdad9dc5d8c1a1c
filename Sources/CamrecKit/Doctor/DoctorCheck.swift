/// One finding of `camrec doctor`: what was looked at, how it stands and, when it needs
/// doing, the one line that fixes it. Plain values: the checks build them from what they
/// observe, the command prints them.
public struct DoctorCheck: Sendable, Equatable, Encodable {
    /// What part of a recording's needs a check is about.
    public enum Area: String, Sendable, Encodable, CaseIterable {
        /// The GStreamer library itself.
        case gstreamer
        /// A Debian package of GStreamer plugins and the elements camrec takes from it.
        case plugin
        /// A camera (V4L2 capture device), or the test pattern.
        case camera
        /// A sound source (PulseAudio or PipeWire through pulsesrc, ALSA through alsasrc).
        case sound
        /// A hardware encoder (installed and tried, or well known and missing).
        case encoder
        /// The output folder: writable, free space, file system.
        case output
        /// Unfinished recordings left in the output folder.
        case partial
    }

    /// How a check stands.
    public enum Status: String, Sendable, Encodable, Comparable {
        /// Fine.
        case ok
        /// Worth knowing; nothing to fix (an optional part that is absent).
        case info
        /// A recording works, but something may go wrong or is missing for a feature.
        case warning
        /// A recording cannot work until this is fixed (doctor's exit status says which kind).
        case problem

        private var rank: Int {
            switch self {
            case .ok: 0
            case .info: 1
            case .warning: 2
            case .problem: 3
            }
        }

        public static func < (lhs: Status, rhs: Status) -> Bool { lhs.rank < rhs.rank }
    }

    /// What part of a recording's needs it is about.
    public var area: Area
    /// What was checked: a package, an element, a device path, "free space", …
    public var name: String
    /// How it stands.
    public var status: Status
    /// One line for people.
    public var message: String
    /// The one line that fixes it (problems and warnings).
    public var fix: String?
    /// Plugins: the Debian package.
    public var package: String?
    /// Cameras, output folder, partial files: the path.
    public var path: String?
    /// Output folder: free bytes for an unprivileged writer.
    public var freeBytes: Int64?
    /// Output folder: the file system type (as /proc/self/mountinfo names it, e.g. "ext4", "vfat").
    public var filesystem: String?
    /// Problems: the kind of failure, which decides doctor's exit status.
    public var failure: CamrecError.Kind?

    public init(_ area: Area, _ name: String, _ status: Status, _ message: String, fix: String? = nil,
                failure: CamrecError.Kind? = nil) {
        precondition((status == .problem) == (failure != nil), "a problem, and only a problem, has a failure kind")
        self.area = area
        self.name = name
        self.status = status
        self.message = message
        self.fix = fix
        self.failure = failure
    }

    /// A problem: a recording cannot work until `error` is fixed.
    public static func problem(_ area: Area, _ name: String, _ error: CamrecError, fix: String? = nil) -> DoctorCheck {
        DoctorCheck(area, name, .problem, error.message, fix: fix, failure: error.kind)
    }

    /// The exit status this check alone would give (problems only).
    public var exitStatus: ExitStatus? {
        failure.map { CamrecError($0, message).status }
    }

    enum CodingKeys: String, CodingKey {
        case area, name, status, message, fix, package, path, freeBytes, filesystem, exitCode
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(area, forKey: .area)
        try container.encode(name, forKey: .name)
        try container.encode(status, forKey: .status)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(fix, forKey: .fix)
        try container.encodeIfPresent(package, forKey: .package)
        try container.encodeIfPresent(path, forKey: .path)
        try container.encodeIfPresent(freeBytes, forKey: .freeBytes)
        try container.encodeIfPresent(filesystem, forKey: .filesystem)
        try container.encodeIfPresent(exitStatus?.rawValue, forKey: .exitCode)
    }
}

/// Everything `camrec doctor` found, in the order it looked.
public struct DoctorReport: Sendable, Equatable {
    /// The checks, in order: GStreamer, plugins, cameras, sound, encoders, output, partial files.
    public var checks: [DoctorCheck]

    public init(checks: [DoctorCheck]) {
        self.checks = checks
    }

    /// The number of problems.
    public var problems: Int { checks.count { $0.status == .problem } }

    /// The number of warnings.
    public var warnings: Int { checks.count { $0.status == .warning } }

    /// 0 when a recording has everything it needs (warnings allowed), else the exit status of
    /// the first problem, in the order of the checks: GStreamer or a plugin missing (69), no
    /// camera (66), camera busy (75) or not permitted (77), output folder missing or not
    /// writable (73).
    public var exitStatus: ExitStatus {
        checks.lazy.compactMap(\.exitStatus).first ?? .success
    }

    /// The JSON `result` line that ends `camrec doctor --json`.
    public var summary: DoctorSummary {
        DoctorSummary(ok: problems == 0, problems: problems, warnings: warnings, exitCode: exitStatus.rawValue)
    }
}

/// The last line of `camrec doctor --json`.
public struct DoctorSummary: Sendable, Equatable, Encodable {
    /// Whether a recording has everything it needs.
    public var ok: Bool
    /// Problems found.
    public var problems: Int
    /// Warnings found.
    public var warnings: Int
    /// camrec doctor's exit status.
    public var exitCode: Int32
}

/// An event of a running recording that an `--on-event` command runs for, with what its
/// environment says of it.
public struct HookedEvent: Sendable, Equatable {
    /// What happened: "motion", "sound", "clip-started", "camera-lost", "camera-back" or "disk-low".
    public var name: String
    /// When camrec saw it: milliseconds since 1970.
    public var time: Int64
    /// The camera it concerns (its device), when known.
    public var camera: String?
    /// The clip a `clip-started` event starts: the name it will have once in place.
    public var clip: String?
    /// The run's series (OUTPUT as given).
    public var series: String?
    /// Its JSON line, as `--json` prints it: the command's standard input.
    public var line: String

    /// The events `--on-event` runs for.
    public static let names = ["motion", "sound", "clip-started", "camera-lost", "camera-back", "disk-low"]

    public init(name: String, time: Int64, camera: String? = nil, clip: String? = nil, series: String? = nil, line: String) {
        self.name = name
        self.time = time
        self.camera = camera
        self.clip = clip
        self.series = series
        self.line = line
    }

    /// The variables camrec adds to the command's environment (`CAMREC_EVENT`,
    /// `CAMREC_TIME`, `CAMREC_CAMERA`, `CAMREC_CLIP`, `CAMREC_SERIES`), each set only when known.
    var environment: [String] {
        var variables = ["CAMREC_EVENT=" + name, "CAMREC_TIME=\(time)"]
        if let camera { variables.append("CAMREC_CAMERA=" + camera) }
        if let clip { variables.append("CAMREC_CLIP=" + clip) }
        if let series { variables.append("CAMREC_SERIES=" + series) }
        return variables
    }
}

/// What a hook's command runs for: a finished file (`--on-file`) or an event (`--on-event`).
enum HookSubject: Sendable {
    case file(HookedFile)
    case event(HookedEvent)

    /// The file, for a file's command.
    var file: HookedFile? {
        if case .file(let file) = self { file } else { nil }
    }

    /// The variables camrec adds to the command's environment.
    var environment: [String] {
        switch self {
        case .file(let file): file.environment
        case .event(let event): event.environment
        }
    }

    /// The command's standard input: the JSON line and a newline.
    var input: [UInt8] {
        switch self {
        case .file(let file): Array((file.line + "\n").utf8)
        case .event(let event): Array((event.line + "\n").utf8)
        }
    }

    /// `command`'s arguments for it: `{file}` (files) or `{event}` (events) replaced.
    func arguments(_ command: HookCommand) -> [String] {
        switch self {
        case .file(let file): command.arguments(for: file.path)
        case .event(let event): command.words.map { $0.replacing("{event}", with: event.name) }
        }
    }
}

/// How stills are encoded.
public enum StillFormat: Sendable, Equatable {
    /// The JPEG quality when none is asked for.
    public static let defaultQuality = 90

    /// JPEG at a quality from 1 to 100.
    case jpeg(quality: Int)
    /// Lossless PNG.
    case png

    /// The file extension, with its dot.
    public var fileExtension: String {
        switch self {
        case .jpeg: ".jpg"
        case .png: ".png"
        }
    }
}

/// Stills taken during a recording (and by `camrec still`).
public struct StillSettings: Sendable, Equatable {
    /// The encoding.
    public var format: StillFormat
    /// Where they go.
    public var naming: StillNaming
    /// Take one every this often (the first at this time); nil for none.
    public var every: TimeSpec?

    public init(format: StillFormat, naming: StillNaming, every: TimeSpec?) {
        self.format = format
        self.naming = naming
        self.every = every
    }
}

/// What asked for a still.
public enum StillTrigger: String, Sendable, Codable {
    /// SIGUSR1.
    case signal
    /// `--still-every`.
    case periodic
    /// The control socket (`camrec ctl PATH still`).
    case control
    /// The `s` key on an interactive terminal.
    case key
    /// `camrec still`.
    case command
}

import CamrecCore
import MediaValues

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

    /// The extensions a still may have, as messages list them.
    public static let extensionList = ".jpg, .jpeg or .png"

    /// The format a file name's extension names: `.jpg` or `.jpeg` (JPEG at `quality`) or
    /// `.png`, in any case; nil for any other extension or none.
    public init?(path: String, quality: Int = StillFormat.defaultQuality) {
        switch OutputFile.split(path).1.lowercased() {
        case ".jpg", ".jpeg": self = .jpeg(quality: quality)
        case ".png": self = .png
        default: return nil
        }
    }

    /// "JPEG" or "PNG", for messages.
    var name: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        }
    }

    /// The `--still-format` value that asks for this format.
    var optionValue: String {
        switch self {
        case .jpeg: "jpeg"
        case .png: "png"
        }
    }

    /// Whether both are JPEG (of any quality) or both PNG.
    func sameKind(as other: StillFormat) -> Bool { name == other.name }
}

/// Stills taken during a recording (and by `camrec still`).
public struct StillSettings: Sendable, Equatable {
    /// The encoding.
    public var format: StillFormat
    /// Where they go.
    public var naming: StillNaming
    /// Take one every this often (the first at this time); nil for none.
    public var every: TimeSpec?
    /// The camera and place their EXIF names.
    public var tags = StillTags()

    public init(format: StillFormat, naming: StillNaming, every: TimeSpec?) {
        self.format = format
        self.naming = naming
        self.every = every
    }

    /// The stills of a recording to `moviePath`, from `--stills` (`pattern`, nil when not
    /// given) and `--still-format` (`format`, nil when not given).
    ///
    /// A pattern's extension picks the format (`shots/img-%04d.png` writes PNG files); an
    /// explicit `format` must agree with it. A folder, or no `--stills`, gets `format` (JPEG
    /// by default) and the default names. `quality` applies to JPEG.
    ///
    /// - Throws: a usage error (exit 64) for an empty or malformed pattern, an extension
    ///   other than `.jpg`, `.jpeg` or `.png`, or one that contradicts `format`.
    public static func resolve(pattern: String?, format: StillFormat?, quality: Int = StillFormat.defaultQuality,
                               every: TimeSpec?, moviePath: String) throws(CamrecError) -> StillSettings {
        let fallback = format ?? .jpeg(quality: quality)
        guard let pattern else {
            return StillSettings(format: fallback, naming: .beside(moviePath: moviePath, format: fallback), every: every)
        }
        let naming = try StillNaming.parse(pattern, moviePath: moviePath, defaultExtension: fallback.fileExtension)
        guard naming.isPattern else { return StillSettings(format: fallback, naming: naming, every: every) }
        let named = try naming.patternFormat(pattern, quality: quality)
        if let format, !named.sameKind(as: format) {
            throw CamrecError(.usage, "--stills '\(pattern)' names \(named.name) files but --still-format is \(format.optionValue): "
                + "end the pattern with \(format.fileExtension), or leave out --still-format")
        }
        return StillSettings(format: named, naming: naming, every: every)
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
    /// A Live Photo: the still of an event clip's trigger frame (`--live-photo`,
    /// `ctl clip --still`).
    case clip
}

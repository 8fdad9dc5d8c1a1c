/// A movie file's container format: what trim reads and writes and what recover finds,
/// each told from a file's bytes (``MediaContainer`` extensions in those features) or an
/// output name's extension. The raw value is the usual file extension, as results report it.
public enum MediaContainer: String, Sendable, Codable, CaseIterable {
    /// ISO base media (MP4, M4V).
    case mp4
    /// QuickTime.
    case mov
    /// Matroska (MKV).
    case matroska = "mkv"
    /// WebM: Matroska whose DocType is `webm`.
    case webm
    /// AVI (RIFF), as older cameras and dashcams write it.
    case avi

    /// The usual file name extension, without the dot.
    public var fileExtension: String { rawValue }

    /// Whether it is an ISO base media file (MP4 or MOV).
    public var isISO: Bool { self == .mp4 || self == .mov }

    /// Whether it is Matroska (WebM included).
    public var isMatroska: Bool { self == .matroska || self == .webm }

    /// The container an output file name's extension (without the dot, any case) asks for:
    /// MP4 for `mp4` and `m4v`, QuickTime for `mov` and `qt`, Matroska for `mkv` and `webm`
    /// (a WebM output is Matroska with its doctype marked afterwards); nil for another.
    public init?(outputExtension pathExtension: String) {
        switch pathExtension.lowercased() {
        case "mp4", "m4v": self = .mp4
        case "mov", "qt": self = .mov
        case "mkv", "webm": self = .matroska
        default: return nil
        }
    }

    /// Whether `ext` (with its dot, any case) names a file of this one's family: `.mp4`,
    /// `.m4v` or `.mov` for MP4 and MOV; `.mkv` or `.webm` for Matroska and WebM (AVI: `.avi`).
    public func accepts(extension ext: String) -> Bool {
        let lower = ext.lowercased()
        if isISO { return [".mp4", ".m4v", ".mov"].contains(lower) }
        if isMatroska { return [".mkv", ".webm"].contains(lower) }
        return lower == ".avi"
    }
}

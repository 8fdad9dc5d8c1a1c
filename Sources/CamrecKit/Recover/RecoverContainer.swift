import MP4

/// What kind of movie a file holds, told from its first bytes, not its name.
public enum RecoverContainer: String, Sendable, Encodable, Equatable {
    /// ISO base media (MP4): `ftyp` with an MP4 brand, or no `ftyp`.
    case mp4
    /// QuickTime: `ftyp` with the `qt  ` brand.
    case mov
    /// Matroska (DocType `matroska`).
    case mkv
    /// WebM (Matroska with DocType `webm`).
    case webm

    /// The usual file extension, without the dot.
    public var fileExtension: String { rawValue }

    /// Whether it is an ISO base media file (MP4 or MOV).
    var isISO: Bool { self == .mp4 || self == .mov }

    /// Whether `ext` (with its dot, any case) names a file of this family: `.mp4`, `.m4v`
    /// or `.mov` for MP4 and MOV; `.mkv` or `.webm` for Matroska.
    func accepts(extension ext: String) -> Bool {
        let lower = ext.lowercased()
        return isISO ? [".mp4", ".m4v", ".mov"].contains(lower) : [".mkv", ".webm"].contains(lower)
    }

    /// Top-level boxes an ISO base media file can start with.
    private static let firstBoxes: Set<String> = ["ftyp", "moov", "mdat", "free", "skip", "wide", "styp", "pdin", "uuid", "moof", "sidx"]

    /// The container of a file that starts with `head` (its first bytes, up to 64),
    /// nil when it is neither. Matroska's DocType is read later; this says `.mkv`.
    static func sniff(_ head: [UInt8]) -> RecoverContainer? {
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return .mkv }
        guard head.count >= 8 else { return nil }
        let type = String(decoding: head[4..<8], as: UTF8.self)
        guard firstBoxes.contains(type) else { return nil }
        let size = head[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard size == 0 || size == 1 || size >= 8 else { return nil }
        if type == "ftyp", head.count >= 12, String(decoding: head[8..<12], as: UTF8.self) == "qt  " { return .mov }
        return .mp4
    }
}

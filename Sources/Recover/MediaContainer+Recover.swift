import Matroska
import MediaValues

/// The container recover finds in a file, told from its first bytes, not its name.
extension MediaContainer {
    /// Top-level boxes an ISO base media file can start with.
    private static let firstBoxes: Set<String> = ["ftyp", "moov", "mdat", "free", "skip", "wide", "styp", "pdin", "uuid", "moof", "sidx"]

    /// The container of a file that starts with `head` (its first bytes, up to 64), nil
    /// when it is neither ISO base media nor Matroska: ``mov`` for an `ftyp` of brand
    /// `qt  `, ``mp4`` for any other (or none). Matroska's DocType is read later; this
    /// says ``matroska``.
    static func recoverable(head: [UInt8]) -> MediaContainer? {
        if head.starts(with: EBML.idBytes(EBML.ID.header)) { return .matroska }
        guard head.count >= 8 else { return nil }
        let type = String(decoding: head[4..<8], as: UTF8.self)
        guard firstBoxes.contains(type) else { return nil }
        let size = head[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard size == 0 || size == 1 || size >= 8 else { return nil }
        if type == "ftyp", head.count >= 12, String(decoding: head[8..<12], as: UTF8.self) == "qt  " { return .mov }
        return .mp4
    }
}

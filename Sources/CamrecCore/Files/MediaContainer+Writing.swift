import MediaValues

/// What camrec writes: the containers a recording can be, told from OUTPUT's extension, and
/// the muxer element that writes each. Below the recording, because recover tells partial
/// recordings by the same names and trim writes with the same muxers.
extension MediaContainer {
    /// The containers camrec records.
    public static let recordable: [MediaContainer] = [.mp4, .mov, .matroska]

    /// The container a recording's path asks for by its extension (`.mp4`, `.mov`, `.mkv`,
    /// any case), or nil when camrec does not record it.
    public init?(recordingPath path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/"),
              let container = MediaContainer(rawValue: path[path.index(after: dot)...].lowercased()),
              Self.recordable.contains(container) else { return nil }
        self = container
    }

    /// The muxer's element name (trim's muxer too).
    public var muxerFactory: String {
        switch self {
        case .mp4: "mp4mux"
        case .mov: "qtmux"
        // WebM is written as Matroska, its doctype marked afterwards (trim).
        case .matroska, .webm: "matroskamux"
        case .avi: "avimux"
        }
    }
}

/// The file format of a recording, chosen from OUTPUT's extension.
public enum Container: String, Sendable, CaseIterable, Codable {
    case mp4, mov, mkv

    /// The container for a path's extension (case-insensitive), or nil when unsupported.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }

    /// The muxer with its properties, in pipeline syntax.
    ///
    /// MP4 and MOV are written as "hybrid" fragmented files: a moov up front and a
    /// fragment every second, so a killed recording loses at most about a second; a clean
    /// EOS rewrites them into an ordinary MP4. Matroska is readable when cut off as it is;
    /// `offset-to-zero` makes its first frame start at 0, as MP4's does (not at the
    /// pipeline's latency, a few tens of milliseconds).
    public var muxer: String {
        switch self {
        case .mp4: "mp4mux fragment-duration=1000 fragment-mode=first-moov-then-finalise"
        case .mov: "qtmux fragment-duration=1000 fragment-mode=first-moov-then-finalise"
        case .mkv: "matroskamux offset-to-zero=true"
        }
    }
}

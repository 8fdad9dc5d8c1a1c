/// What a Matroska (or WebM) file's head says, read from its first elements only: the EBML
/// header's DocType, the segment's Info (timestamp scale, duration, `DateUTC`) and Tracks
/// (codec, default duration, picture size), for listing many files fast (`camrec ls`).
/// Clusters are never read: Matroska stores no frame count, so ``estimatedFrames`` derives
/// one from the duration and the video track's default duration.
public struct MatroskaHead: Sendable, Equatable {
    /// One track's fields.
    public struct Track: Sendable, Equatable {
        /// Matroska's track type: 1 video, 2 audio.
        public var type: UInt64
        /// The codec ID, e.g. `V_MPEG4/ISO/AVC`, `A_AAC`, `A_OPUS`.
        public var codecID: String
        /// Nanoseconds per frame, when the track states it.
        public var defaultDuration: UInt64?
        /// Video: the picture's size (0 when not stated).
        public var width: Int
        /// Video: the picture's height.
        public var height: Int
    }

    /// `matroska` or `webm`.
    public var docType: String
    /// Whether the segment's size is known: the muxer finalised the file (a recording that
    /// was killed leaves it unknown).
    public var finalised: Bool
    /// The duration in seconds, when Info states it (0 or nil: not finalised).
    public var seconds: Double?
    /// `DateUTC`: nanoseconds since 2001-01-01T00:00:00 UTC, when stated.
    public var dateUTC: Int64?
    /// The tracks, in file order.
    public var tracks: [Track]

    /// The first video track.
    public var video: Track? { tracks.first { $0.type == 1 } }
    /// The first audio track.
    public var audio: Track? { tracks.first { $0.type == 2 } }

    /// `DateUTC` as seconds since 1970-01-01 UTC.
    public var unixTime: Double? { dateUTC.map { Double($0) / 1e9 + 978_307_200 } }

    /// Frames derived from the duration and the video track's default duration (rounded):
    /// an estimate, since Matroska stores no count; nil when either is missing.
    public var estimatedFrames: Int? {
        guard let seconds, seconds > 0, let frame = video?.defaultDuration, frame > 0 else { return nil }
        return Int((seconds * 1e9 / Double(frame)).rounded())
    }

    /// Why a file's head cannot be read as Matroska.
    public struct Unreadable: Error, Sendable, Equatable {
        /// What is wrong, for a person.
        public var reason: String
    }

    /// Reads the head of the file at `path`.
    ///
    /// - Throws: ``Unreadable`` when it cannot be opened, is not EBML/Matroska, or ends
    ///   before its Info and Tracks.
    public static func read(path: String) throws(Unreadable) -> MatroskaHead {
        guard var reader = WindowedFile(path: path) else { throw Unreadable(reason: "cannot open the file") }
        // Info and Tracks lie in the first few KB; one read covers them.
        reader.windowSize = 16 << 10
        guard let header = reader.element(at: 0), header.id == EBML.ID.header, let headerEnd = header.end else {
            throw Unreadable(reason: "not a Matroska file")
        }
        let docType = reader.children(of: header).first { $0.id == EBML.ID.docType }.flatMap { reader.text($0) } ?? ""
        guard docType == "matroska" || docType == "webm" else { throw Unreadable(reason: "an EBML file of type '\(docType)', not Matroska") }
        guard let segment = reader.element(at: headerEnd), segment.id == EBML.ID.segment else {
            throw Unreadable(reason: "cut short: the file ends before its segment")
        }
        var head = MatroskaHead(docType: docType, finalised: segment.size != nil, seconds: nil, dateUTC: nil, tracks: [])
        let end = min(segment.end ?? reader.size, reader.size)
        var offset = segment.body
        var sawInfo = false
        var sawTracks = false
        while offset < end, !(sawInfo && sawTracks), let element = reader.element(at: offset) {
            if element.id == EBML.ID.cluster { break }
            guard let elementEnd = element.end, elementEnd <= end else { break }
            switch element.id {
            case EBML.ID.info:
                sawInfo = true
                head.readInfo(element, &reader)
            case EBML.ID.tracks:
                sawTracks = true
                head.readTracks(element, &reader)
            default: break
            }
            offset = elementEnd
        }
        guard sawTracks else { throw Unreadable(reason: "cut short: the file ends before its track list") }
        return head
    }

    private mutating func readInfo(_ info: EBML.Element, _ reader: inout WindowedFile) {
        var scale: UInt64 = 1_000_000
        var duration: Double?
        for child in reader.children(of: info) {
            switch child.id {
            case EBML.ID.timestampScale: scale = reader.unsigned(child) ?? scale
            case EBML.ID.duration: duration = Self.float(child, &reader)
            case EBML.ID.dateUTC:
                if let value = reader.unsigned(child) { dateUTC = Int64(bitPattern: value) }
            default: break
            }
        }
        seconds = duration.map { $0 * Double(scale) / 1e9 }
    }

    private mutating func readTracks(_ list: EBML.Element, _ reader: inout WindowedFile) {
        for entry in reader.children(of: list) where entry.id == EBML.ID.trackEntry {
            var track = Track(type: 0, codecID: "", defaultDuration: nil, width: 0, height: 0)
            for child in reader.children(of: entry) {
                switch child.id {
                case EBML.ID.trackType: track.type = reader.unsigned(child) ?? 0
                case EBML.ID.codecID: track.codecID = reader.text(child) ?? ""
                case EBML.ID.defaultDuration: track.defaultDuration = reader.unsigned(child)
                case EBML.ID.video:
                    for field in reader.children(of: child) {
                        if field.id == EBML.ID.pixelWidth { track.width = Int(reader.unsigned(field) ?? 0) }
                        if field.id == EBML.ID.pixelHeight { track.height = Int(reader.unsigned(field) ?? 0) }
                    }
                default: break
                }
            }
            tracks.append(track)
        }
    }

    /// A float element's value (4 or 8 bytes, big-endian).
    private static func float(_ element: EBML.Element, _ reader: inout WindowedFile) -> Double? {
        guard let bits = reader.unsigned(element) else { return nil }
        switch element.size {
        case 4: return Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
        case 8: return Double(bitPattern: bits)
        default: return nil
        }
    }
}

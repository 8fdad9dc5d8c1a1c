import MP4

/// The parts of a Matroska input that ``MatroskaCopyWriter`` carries into its output as
/// they are, read from the segment's top-level elements (before the first cluster, and
/// Cues, Chapters, Tags and Attachments wherever the seek head puts them): the track
/// headers as raw `TrackEntry` elements (so codec data, languages, names and flags stay
/// exactly as the source wrote them), the timestamp scale, the title, the chapters and
/// the cue points of the video track.
struct MatroskaSource {
    /// One track header.
    struct Track {
        var number: UInt64
        /// Matroska's track type: 1 video, 2 audio, 0x11 subtitle, others.
        var type: UInt64
        var codecID: String
        /// The whole `TrackEntry` element.
        var entry: [UInt8]
        /// Whether its blocks are compressed or encrypted (`ContentEncodings`).
        var isEncoded: Bool
    }

    /// A chapter of an edition, with the language of its first display.
    struct ChapterMark {
        var chapter: Chapter
        var language: String
        var uid: UInt64?
    }

    enum ID {
        static let title: UInt32 = 0x7BA9
        static let codecPrivate: UInt32 = 0x63A2
        static let contentEncodings: UInt32 = 0x6D80
        static let chapters: UInt32 = 0x1043_A770
        static let attachments: UInt32 = 0x1941_A469
        static let editionEntry: UInt32 = 0x45B9
        static let chapterAtom: UInt32 = 0xB6
        static let chapterUID: UInt32 = 0x73C4
        static let chapterTimeStart: UInt32 = 0x91
        static let chapterTimeEnd: UInt32 = 0x92
        static let chapterDisplay: UInt32 = 0x80
        static let chapString: UInt32 = 0x85
        static let chapLanguage: UInt32 = 0x437C
    }

    var timestampScale: UInt64 = 1_000_000
    var title: [UInt8]?
    var tracks: [Track] = []
    /// Each edition's chapters (top-level atoms), in the source's order.
    var editions: [[ChapterMark]] = []
    /// The whole `Attachments` element, if any (fonts of styled subtitles).
    var attachments: [UInt8]?
    /// The segment's body offset and end.
    var segmentBody: UInt64 = 0
    var segmentEnd: UInt64 = 0
    /// The video track's cue points (time in nanoseconds, cluster offset in the file), in time order.
    var cues: [(time: Int64, cluster: UInt64)] = []

    /// Reads `path`'s top-level elements; nil when one is not as expected (the trim then
    /// goes through GStreamer).
    init?(path: String, videoTrack: UInt64) {
        guard let file = try? SampleFile(path: path) else { return nil }
        var reader = WindowedFile(file: file)
        guard let ebml = reader.element(at: 0), ebml.id == EBML.ID.header, let ebmlEnd = ebml.end,
              let segment = reader.element(at: ebmlEnd), segment.id == EBML.ID.segment
        else { return nil }
        segmentBody = segment.body
        segmentEnd = min(segment.end ?? reader.size, reader.size)
        // The top-level elements before the first cluster, then those the seek head points to.
        var places: [UInt64] = []
        var offset = segment.body
        while offset < segmentEnd, let element = reader.element(at: offset), element.id != EBML.ID.cluster {
            guard let end = element.end else { return nil }
            places.append(offset)
            if element.id == EBML.ID.seekHead {
                for (target, position) in reader.seekEntries(of: element)
                where [EBML.ID.cues, ID.chapters, ID.attachments].contains(target) {
                    places.append(segment.body + position)
                }
            }
            offset = end
        }
        var seen = Set<UInt64>()
        for place in places where seen.insert(place).inserted {
            guard let element = reader.element(at: place), let end = element.end, end <= segmentEnd else { continue }
            let size = end - element.start
            guard size < 64 << 20 else { return nil }
            switch element.id {
            case EBML.ID.info:
                for child in reader.children(of: element) {
                    if child.id == EBML.ID.timestampScale, let scale = reader.unsigned(child), scale > 0 {
                        timestampScale = scale
                    } else if child.id == ID.title, let childEnd = child.end {
                        title = Array(reader.read(at: child.start, count: Int(childEnd - child.start)))
                    }
                }
            case EBML.ID.tracks:
                let bytes = Array(reader.read(at: element.start, count: Int(size)))
                guard let entries = MatroskaTrackLabels.children(of: bytes, in: Int(element.body - element.start)..<bytes.count)
                else { return nil }
                for entry in entries where entry.id == EBML.ID.trackEntry {
                    guard let track = Self.track(bytes, entry.range, body: entry.body) else { return nil }
                    tracks.append(track)
                }
            case EBML.ID.cues:
                let bytes = Array(reader.read(at: element.start, count: Int(size)))
                cues = Self.readCues(bytes, body: Int(element.body - element.start), videoTrack: videoTrack)
            case ID.chapters:
                let bytes = Array(reader.read(at: element.start, count: Int(size)))
                editions = Self.readEditions(bytes, body: Int(element.body - element.start))
            case ID.attachments:
                attachments = Array(reader.read(at: element.start, count: Int(size)))
            default:
                break
            }
        }
        cues = cues.map { (time: $0.time * Int64(clamping: timestampScale), cluster: segment.body + $0.cluster) }
        guard !tracks.isEmpty else { return nil }
    }

    /// The track header in `range` of `bytes`.
    private static func track(_ bytes: [UInt8], _ range: Range<Int>, body: Range<Int>) -> Track? {
        guard let fields = MatroskaTrackLabels.children(of: bytes, in: body) else { return nil }
        var track = Track(number: 0, type: 0, codecID: "", entry: Array(bytes[range]), isEncoded: false)
        for field in fields {
            switch field.id {
            case EBML.ID.trackNumber: track.number = unsigned(bytes[field.body])
            case EBML.ID.trackType: track.type = unsigned(bytes[field.body])
            case EBML.ID.codecID: track.codecID = text(bytes[field.body])
            case ID.contentEncodings: track.isEncoded = true
            default: break
            }
        }
        return track.number > 0 ? track : nil
    }

    /// The cue points of `videoTrack` (time in ticks, cluster position in the segment).
    private static func readCues(_ bytes: [UInt8], body: Int, videoTrack: UInt64) -> [(time: Int64, cluster: UInt64)] {
        var points: [(time: Int64, cluster: UInt64)] = []
        for point in MatroskaTrackLabels.children(of: bytes, in: body..<bytes.count) ?? [] where point.id == EBML.ID.cuePoint {
            var time: UInt64?
            var cluster: UInt64?
            for field in MatroskaTrackLabels.children(of: bytes, in: point.body) ?? [] {
                if field.id == EBML.ID.cueTime { time = unsigned(bytes[field.body]) }
                guard field.id == EBML.ID.cueTrackPositions else { continue }
                var track: UInt64?
                var position: UInt64?
                for inner in MatroskaTrackLabels.children(of: bytes, in: field.body) ?? [] {
                    if inner.id == EBML.ID.cueTrack { track = unsigned(bytes[inner.body]) }
                    if inner.id == EBML.ID.cueClusterPosition { position = unsigned(bytes[inner.body]) }
                }
                if track == videoTrack, let position { cluster = position }
            }
            if let time, let cluster { points.append((Int64(clamping: time), cluster)) }
        }
        return points.sorted { $0.time < $1.time }
    }

    /// Each edition's top-level chapter atoms.
    private static func readEditions(_ bytes: [UInt8], body: Int) -> [[ChapterMark]] {
        var editions: [[ChapterMark]] = []
        for edition in MatroskaTrackLabels.children(of: bytes, in: body..<bytes.count) ?? [] where edition.id == ID.editionEntry {
            var marks: [ChapterMark] = []
            for atom in MatroskaTrackLabels.children(of: bytes, in: edition.body) ?? [] where atom.id == ID.chapterAtom {
                var mark = ChapterMark(chapter: Chapter(start: 0, end: nil, title: ""), language: "eng", uid: nil)
                var display = false
                for field in MatroskaTrackLabels.children(of: bytes, in: atom.body) ?? [] {
                    switch field.id {
                    case ID.chapterUID: mark.uid = unsigned(bytes[field.body])
                    case ID.chapterTimeStart: mark.chapter.start = Int64(clamping: unsigned(bytes[field.body]))
                    case ID.chapterTimeEnd: mark.chapter.end = Int64(clamping: unsigned(bytes[field.body]))
                    case ID.chapterDisplay where !display:
                        display = true
                        for inner in MatroskaTrackLabels.children(of: bytes, in: field.body) ?? [] {
                            if inner.id == ID.chapString { mark.chapter.title = text(bytes[inner.body]) }
                            if inner.id == ID.chapLanguage { mark.language = text(bytes[inner.body]) }
                        }
                    default: break
                    }
                }
                marks.append(mark)
            }
            if !marks.isEmpty { editions.append(marks) }
        }
        return editions
    }

    static func unsigned(_ body: ArraySlice<UInt8>) -> UInt64 {
        body.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    static func text(_ body: ArraySlice<UInt8>) -> String {
        String(decoding: body.prefix { $0 != 0 }, as: UTF8.self)
    }
}

extension MatroskaSource {
    /// The chapters of each edition that a cut from `start` to `end` (nanoseconds on the
    /// source's timeline) keeps, shifted and clipped (``ChapterList/cut(start:end:length:)``),
    /// each with its source's language and id.
    func chapters(start: Int64, end: Int64, length: Int64) -> [[ChapterMark]] {
        editions.compactMap { edition in
            let cut = ChapterList(edition.map(\.chapter)).cut(start: start, end: end, length: length)
            let kept = cut.chapters.map { chapter in
                // The source's mark of the same title that overlaps the cut: its language and id.
                let source = edition.last { $0.chapter.title == chapter.title && $0.chapter.start <= chapter.start + start }
                return ChapterMark(chapter: chapter, language: source?.language ?? "eng", uid: source?.uid)
            }
            return kept.isEmpty ? nil : kept
        }
    }
}

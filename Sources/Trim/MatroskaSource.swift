import MP4
import Matroska

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


    var timestampScale: UInt64 = 1_000_000
    var title: [UInt8]?
    /// The segment's date (`DateUTC`: ns since 2001-01-01 UTC), when it has one: camrec's
    /// recordings give their first frame's capture time.
    var dateUTC: Int64?
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
        guard var reader = WindowedFile(path: path), let segment = reader.segment() else { return nil }
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
                where [EBML.ID.cues, EBML.ID.chapters, EBML.ID.attachments].contains(target) {
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
                    } else if child.id == EBML.ID.dateUTC, let date = reader.unsigned(child) {
                        dateUTC = Int64(bitPattern: date)
                    } else if child.id == EBML.ID.title, let childEnd = child.end {
                        title = Array(reader.read(at: child.start, count: Int(childEnd - child.start)))
                    }
                }
            case EBML.ID.tracks:
                let bytes = Array(reader.read(at: element.start, count: Int(size)))
                guard let entries = EBML.children(of: bytes, in: Int(element.body - element.start)..<bytes.count)
                else { return nil }
                for entry in entries where entry.id == EBML.ID.trackEntry {
                    guard let track = Self.track(bytes, entry.range, body: entry.body) else { return nil }
                    tracks.append(track)
                }
            case EBML.ID.cues:
                let bytes = Array(reader.read(at: element.start, count: Int(size)))
                cues = Self.readCues(bytes, body: Int(element.body - element.start), videoTrack: videoTrack)
            case EBML.ID.chapters:
                let bytes = Array(reader.read(at: element.start, count: Int(size)))
                editions = Self.readEditions(bytes, body: Int(element.body - element.start))
            case EBML.ID.attachments:
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
        guard let fields = EBML.children(of: bytes, in: body) else { return nil }
        var track = Track(number: 0, type: 0, codecID: "", entry: Array(bytes[range]), isEncoded: false)
        for field in fields {
            switch field.id {
            case EBML.ID.trackNumber: track.number = EBML.unsigned(bytes[field.body])
            case EBML.ID.trackType: track.type = EBML.unsigned(bytes[field.body])
            case EBML.ID.codecID: track.codecID = EBML.text(bytes[field.body])
            case EBML.ID.contentEncodings: track.isEncoded = true
            default: break
            }
        }
        return track.number > 0 ? track : nil
    }

    /// The cue points of `videoTrack` (time in ticks, cluster position in the segment).
    private static func readCues(_ bytes: [UInt8], body: Int, videoTrack: UInt64) -> [(time: Int64, cluster: UInt64)] {
        var points: [(time: Int64, cluster: UInt64)] = []
        for point in EBML.children(of: bytes, in: body..<bytes.count) ?? [] where point.id == EBML.ID.cuePoint {
            var time: UInt64?
            var cluster: UInt64?
            for field in EBML.children(of: bytes, in: point.body) ?? [] {
                if field.id == EBML.ID.cueTime { time = EBML.unsigned(bytes[field.body]) }
                guard field.id == EBML.ID.cueTrackPositions else { continue }
                var track: UInt64?
                var position: UInt64?
                for inner in EBML.children(of: bytes, in: field.body) ?? [] {
                    if inner.id == EBML.ID.cueTrack { track = EBML.unsigned(bytes[inner.body]) }
                    if inner.id == EBML.ID.cueClusterPosition { position = EBML.unsigned(bytes[inner.body]) }
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
        for edition in EBML.children(of: bytes, in: body..<bytes.count) ?? [] where edition.id == EBML.ID.editionEntry {
            var marks: [ChapterMark] = []
            for atom in EBML.children(of: bytes, in: edition.body) ?? [] where atom.id == EBML.ID.chapterAtom {
                var mark = ChapterMark(chapter: Chapter(start: 0, end: nil, title: ""), language: "eng", uid: nil)
                var display = false
                for field in EBML.children(of: bytes, in: atom.body) ?? [] {
                    switch field.id {
                    case EBML.ID.chapterUID: mark.uid = EBML.unsigned(bytes[field.body])
                    case EBML.ID.chapterTimeStart: mark.chapter.start = Int64(clamping: EBML.unsigned(bytes[field.body]))
                    case EBML.ID.chapterTimeEnd: mark.chapter.end = Int64(clamping: EBML.unsigned(bytes[field.body]))
                    case EBML.ID.chapterDisplay where !display:
                        display = true
                        for inner in EBML.children(of: bytes, in: field.body) ?? [] {
                            if inner.id == EBML.ID.chapString { mark.chapter.title = EBML.text(bytes[inner.body]) }
                            if inner.id == EBML.ID.chapLanguage { mark.language = EBML.text(bytes[inner.body]) }
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

import CamrecCore
#if canImport(Glibc)
import Glibc
#endif
import Matroska

/// The labels (``TrackLabels``) in a Matroska file's track headers: read from a Matroska
/// input, and set in a trim's Matroska output after matroskamux has written it.
///
/// matroskamux 1.22 writes each track's language and name from stream tags but no
/// `FlagDefault` (every track is then a default track, subtitles switch on by themselves)
/// and no `FlagForced`, and names a track without a title "Video", "Audio" or "Subtitle".
/// The output's `Tracks` element is rewritten in place to the same length: its entries
/// lose the muxer's labels and get the input's, its size fields take the fewest bytes, and
/// a Void element fills what is left. Nothing else moves, so no position in the file changes.
enum MatroskaTrackLabels {
    /// The IDs of the labels in a `TrackEntry` (and the Void a rewrite may have left).
    static let labelIDs: Set<UInt32> = [
        EBML.ID.name, EBML.ID.language, EBML.ID.languageBCP47, EBML.ID.flagDefault, EBML.ID.flagForced, EBML.ID.void,
    ]

    /// The labels of each track of the Matroska file at `path`, by track number; empty when
    /// its track headers cannot be read.
    static func read(path: String) -> [UInt64: TrackLabels] {
        guard let tracks = tracksElement(path: path) else { return [:] }
        return labels(inTracks: tracks.bytes)
    }

    /// The labels of each entry of a whole `Tracks` element, by track number.
    static func labels(inTracks bytes: [UInt8]) -> [UInt64: TrackLabels] {
        guard let top = EBML.element(in: bytes[...], at: 0), top.id == EBML.ID.tracks,
              let entries = EBML.children(of: bytes, in: Int(top.body)..<bytes.count)
        else { return [:] }
        var result: [UInt64: TrackLabels] = [:]
        for entry in entries where entry.id == EBML.ID.trackEntry {
            guard let fields = EBML.children(of: bytes, in: entry.body) else { continue }
            var number: UInt64?
            var language = "eng"  // Matroska's default
            var labels = TrackLabels()
            for field in fields {
                let body = Array(bytes[field.body])
                switch field.id {
                case EBML.ID.trackNumber: number = EBML.unsigned(body)
                case EBML.ID.language: language = EBML.text(body)
                case EBML.ID.languageBCP47: labels.languageBCP47 = EBML.text(body)
                case EBML.ID.name: labels.name = EBML.text(body).isEmpty ? nil : EBML.text(body)
                case EBML.ID.flagDefault: labels.isDefault = EBML.unsigned(body) != 0
                case EBML.ID.flagForced: labels.isForced = EBML.unsigned(body) != 0
                default: break
                }
            }
            labels.languageCode = language
            labels.matroskaLanguage = language
            if let number { result[number] = labels }
        }
        return result
    }

    /// Sets the labels of the tracks of the Matroska file at `path`, in the order of its
    /// track entries (entries past `labels` keep theirs). Returns false, changing nothing,
    /// when they do not fit in the `Tracks` element as written.
    static func write(_ labels: [TrackLabels], to path: String) throws(CamrecError) -> Bool {
        guard let tracks = tracksElement(path: path) else {
            throw .failed("the written Matroska file has no track headers")
        }
        guard let rewritten = rewrite(tracks: tracks.bytes, labels: labels) else { return false }
        // The names are in the track headers now; matroskamux's copies in the tags are not right.
        try MatroskaTrackTags.blankTrackTags(in: path)
        guard rewritten != tracks.bytes else { return true }
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw .failed("cannot reopen \(path) to label its tracks") }
        defer { close(descriptor) }
        let written = rewritten.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(tracks.offset)) }
        guard written == rewritten.count else { throw .failed("cannot label the tracks of \(path)") }
        return true
    }

    /// The whole `Tracks` element `tracks` with each entry's labels replaced by `labels`
    /// (by position), exactly as long; nil when it is not a whole `Tracks` element or the
    /// labels do not fit.
    static func rewrite(tracks: [UInt8], labels: [TrackLabels]) -> [UInt8]? {
        guard let top = EBML.element(in: tracks[...], at: 0), top.id == EBML.ID.tracks, let size = top.size,
              Int(top.body) + Int(clamping: size) == tracks.count,
              let entries = EBML.children(of: tracks, in: Int(top.body)..<tracks.count)
        else { return nil }
        var payload: [UInt8] = []
        var position = 0
        for entry in entries {
            if entry.id == EBML.ID.void { continue }
            guard entry.id == EBML.ID.trackEntry, let fields = EBML.children(of: tracks, in: entry.body) else {
                payload += tracks[entry.range]
                continue
            }
            defer { position += 1 }
            guard position < labels.count else {
                payload += EBML.element(EBML.ID.trackEntry, Array(tracks[entry.body]))
                continue
            }
            let label = labels[position]
            var body: [UInt8] = []
            var muxerLanguage: [UInt8] = []
            for field in fields {
                if field.id == EBML.ID.language { muxerLanguage = Array(tracks[field.range]) }
                if !labelIDs.contains(field.id) { body += tracks[field.range] }
            }
            body += label.matroskaLanguage.map { EBML.element(EBML.ID.language, Array($0.utf8)) } ?? muxerLanguage
            if let tag = label.languageBCP47 { body += EBML.element(EBML.ID.languageBCP47, Array(tag.utf8)) }
            if let name = label.name, !name.isEmpty { body += EBML.element(EBML.ID.name, Array(name.utf8)) }
            if !label.isDefault { body += EBML.unsigned(EBML.ID.flagDefault, 0) }
            if label.isForced { body += EBML.unsigned(EBML.ID.flagForced, 1) }
            payload += EBML.element(EBML.ID.trackEntry, body)
        }
        // The same length: the ID, a size field (the muxer's length if it fits, else any
        // other), the entries, and a Void for what is left (a Void takes at least 2 bytes).
        let id = EBML.idBytes(EBML.ID.tracks)
        for sizeLength in [top.sizeLength] + Array(1...8) {
            let rest = tracks.count - id.count - sizeLength - payload.count
            guard rest == 0 || rest >= 2 else { continue }
            let filler = rest == 0 ? [] : EBML.void(total: rest)
            guard let filler, let field = EBML.sizeField(UInt64(payload.count + rest), length: sizeLength) else { continue }
            return id + field + payload + filler
        }
        return nil
    }

    // MARK: Reading

    /// The `Tracks` element of the Matroska file at `path` (its offset and bytes), found
    /// among the segment's first elements before any cluster.
    static func tracksElement(path: String) -> (offset: UInt64, bytes: [UInt8])? {
        guard var reader = WindowedFile(path: path), let segment = reader.segment() else { return nil }
        var offset = segment.body
        for _ in 0..<64 {
            guard let element = reader.element(at: offset), let end = element.end, element.id != EBML.ID.cluster else {
                return nil
            }
            if element.id == EBML.ID.tracks {
                let length = end - element.start
                guard length < 1 << 24 else { return nil }
                let bytes = Array(reader.bytes(at: element.start, count: Int(length)))
                return bytes.count == Int(length) ? (element.start, bytes) : nil
            }
            offset = end
        }
        return nil
    }
}

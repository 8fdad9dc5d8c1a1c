import MP4

/// The chapters of an MP4/MOV movie, in the two forms players read, each as a
/// ``ChapterList`` on the movie's presentation timeline (nanoseconds from the movie's 0):
///
/// - the Nero list, `moov/udta/chpl` (ffmpeg, MP4Box, iTunes-era tools; times in 100 ns);
/// - the QuickTime chapter track, a text track that a track's `tref/chap` names, one sample
///   per chapter (its title; shown from the sample's time for its duration).
///
/// ffmpeg 5.1 writes both for an MP4 with chapters; players and ffprobe take the chapter
/// track when there is one. A reader for every trim writer: camrec's MP4 writer rewrites
/// both forms with ``ChapterList/cut(start:end:length:)``; other writers (Matroska, mp4mux)
/// can take ``list``.
struct MP4Chapters: Sendable, Equatable {
    /// The Nero list, if the movie has one.
    var nero: ChapterList?
    /// The QuickTime chapter track's chapters, if the movie has one.
    var track: ChapterList?
    /// The chapter track's id (with ``track``).
    var trackID: UInt32?

    /// The movie's chapters: the chapter track's when it has one (what QuickTime players and
    /// ffmpeg show), else the Nero list's; empty when it has none.
    var list: ChapterList { track ?? nero ?? ChapterList([]) }

    /// Whether the movie has chapters in neither form.
    var isEmpty: Bool { nero == nil && track == nil }

    // MARK: Reading

    /// The chapters of the plain (not fragmented) MP4/MOV movie at `path`; none when it
    /// cannot be read or has none.
    static func read(path: String) -> MP4Chapters {
        guard let movie = try? Movie.read(path: path), let file = try? SampleFile(path: path) else { return MP4Chapters() }
        return read(movie: movie, file: file, references: TrackReferences.read(path: path))
    }

    /// The chapters of `movie`, whose samples are in `file`, with its track references.
    static func read(movie: Movie, file: SampleFile, references: [UInt32: [TrackReferences.Reference]]) -> MP4Chapters {
        var chapters = MP4Chapters(nero: movie.metadata.userData.flatMap(nero(userData:)))
        for id in chapterTrackIDs(references) {
            guard let track = movie.tracks.first(where: { $0.id == id }),
                  let list = trackChapters(track, movieTimescale: movie.timescale, file: file)
            else { continue }
            chapters.track = list
            chapters.trackID = id
            break
        }
        return chapters
    }

    /// The ids of the tracks named by any track's `chap` reference, in order, once each.
    static func chapterTrackIDs(_ references: [UInt32: [TrackReferences.Reference]]) -> [UInt32] {
        var ids: [UInt32] = []
        for trackID in references.keys.sorted() {
            for reference in references[trackID] ?? [] where reference.type == "chap" {
                for id in reference.ids where !ids.contains(id) { ids.append(id) }
            }
        }
        return ids
    }

    /// The Nero list in a `udta` box (whole, header first); nil when it has none or it is
    /// cut short.
    static func nero(userData bytes: [UInt8]) -> ChapterList? {
        guard let udta = Box.children(of: bytes, in: 0..<bytes.count)?.first("udta"),
              let chpl = Box.children(of: bytes, in: udta.payload)?.first("chpl")
        else { return nil }
        return nero(payload: Array(bytes[chpl.payload]))
    }

    /// A `chpl` payload: version, flags, (version 1: 4 reserved bytes), a count byte, then
    /// per chapter its start (64 bits, 100 ns units) and a title of a length byte and UTF-8.
    static func nero(payload: [UInt8]) -> ChapterList? {
        guard payload.count >= 5 else { return nil }
        var at = payload[0] == 0 ? 4 : 8
        guard at < payload.count else { return nil }
        let count = Int(payload[at])
        at += 1
        var chapters: [Chapter] = []
        for _ in 0..<count {
            guard at + 9 <= payload.count else { return nil }
            let start = payload[at..<at + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let length = Int(payload[at + 8])
            at += 9
            guard at + length <= payload.count, start < UInt64(Int64.max / 100) else { return nil }
            let title = String(decoding: payload[at..<at + length], as: UTF8.self)
            at += length
            chapters.append(Chapter(start: Int64(start) * 100, end: nil, title: title))
        }
        return ChapterList(chapters)
    }

    /// A chapter track's chapters: one per sample, from its presentation time (placed on the
    /// movie timeline by the track's edit list) for its duration, titled by its text; nil
    /// when the track is no text track or its samples cannot be read.
    static func trackChapters(_ track: Track, movieTimescale: UInt32, file: SampleFile) -> ChapterList? {
        guard ["text", "sbtl", "subt"].contains(track.handler) || ["text", "tx3g"].contains(track.format),
              track.timescale > 0, let offset = mediaOffset(track, movieTimescale: movieTimescale)
        else { return nil }
        var chapters: [Chapter] = []
        for sample in track.samples where sample.size <= 1 << 16 {
            guard let bytes = try? file.read(offset: sample.offset, count: Int(sample.size)) else { return nil }
            let start = MP4Input.nanoseconds(sample.presentationTime, track.timescale) - offset
            let end = MP4Input.nanoseconds(sample.presentationTime + Int64(sample.duration), track.timescale) - offset
            chapters.append(Chapter(start: start, end: sample.duration > 0 ? end : nil, title: text(ofSample: bytes)))
        }
        return ChapterList(chapters)
    }

    /// A text sample's string: a 16-bit length, then the text (UTF-8, or UTF-16 after a
    /// byte-order mark).
    static func text(ofSample bytes: [UInt8]) -> String {
        guard bytes.count >= 2 else { return "" }
        let length = min(Int(bytes[0]) << 8 | Int(bytes[1]), bytes.count - 2)
        let text = Array(bytes[2..<2 + length])
        if text.count >= 2, text[0] == 0xFE, text[1] == 0xFF {
            let units = stride(from: 2, to: text.count - 1, by: 2).map { UInt16(text[$0]) << 8 | UInt16(text[$0 + 1]) }
            return String(decoding: units, as: UTF16.self)
        }
        if text.count >= 2, text[0] == 0xFF, text[1] == 0xFE {
            let units = stride(from: 2, to: text.count - 1, by: 2).map { UInt16(text[$0 + 1]) << 8 | UInt16(text[$0]) }
            return String(decoding: units, as: UTF16.self)
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Media time minus movie time (nanoseconds) under a track's edit list: leading gaps,
    /// then one segment from its media time; nil for an edit list that does more than shift.
    static func mediaOffset(_ track: Track, movieTimescale: UInt32) -> Int64? {
        guard let edits = track.edits, !edits.isEmpty else { return 0 }
        let gaps = edits.prefix { $0.isEmpty }
        let rest = edits.dropFirst(gaps.count)
        guard rest.count <= 1, rest.first.map({ $0.rate == 1 && $0.mediaTime >= 0 }) ?? true, movieTimescale > 0 else {
            return nil
        }
        let gap = gaps.reduce(Int64(0)) { $0 + Int64($1.segmentDuration) }
        return MP4Input.nanoseconds(rest.first?.mediaTime ?? 0, track.timescale) - MP4Input.nanoseconds(gap, movieTimescale)
    }

    // MARK: Writing

    /// A `chpl` box (version 1, as ffmpeg writes it) listing `list`'s first 255 chapters,
    /// titles cut to 255 bytes on a character boundary.
    static func neroBox(_ list: ChapterList) -> [UInt8] {
        var payload: [UInt8] = [1, 0, 0, 0, 0, 0, 0, 0, UInt8(min(255, list.chapters.count))]
        for chapter in list.chapters.prefix(255) {
            let start = UInt64(max(0, chapter.start) / 100)
            payload += (0..<8).map { UInt8(truncatingIfNeeded: start >> (56 - 8 * UInt64($0))) }
            var title = Array(chapter.title.utf8)
            if title.count > 255 {
                var cut = 255
                while cut > 0, title[cut] & 0xC0 == 0x80 { cut -= 1 }
                title = Array(title[..<cut])
            }
            payload.append(UInt8(title.count))
            payload += title
        }
        return header(size: 8 + payload.count, type: "chpl") + payload
    }

    /// `userData` (a whole `udta` box) with its Nero list replaced by `list` (left out when
    /// `list` is empty); nil when the box cannot be read. Other children keep their bytes
    /// and order.
    static func userData(_ bytes: [UInt8], replacingNeroWith list: ChapterList) -> [UInt8]? {
        guard let udta = Box.children(of: bytes, in: 0..<bytes.count)?.first("udta"), udta.start == 0,
              let children = Box.children(of: bytes, in: udta.payload)
        else { return nil }
        var body: [UInt8] = []
        for child in children {
            if child.type == "chpl" {
                if !list.isEmpty { body += neroBox(list) }
            } else {
                body += bytes[child.start..<child.end]
            }
        }
        return header(size: 8 + body.count, type: "udta") + body
    }

    /// A QuickTime text sample holding `title`: its UTF-8 length and bytes, and for the
    /// `text` format an `encd` box saying UTF-8 (as ffmpeg writes chapter samples).
    static func textSample(_ title: String, format: String) -> [UInt8] {
        var text = Array(title.utf8)
        if text.count > 0xFFFF {
            var cut = 0xFFFF
            while cut > 0, text[cut] & 0xC0 == 0x80 { cut -= 1 }
            text = Array(text[..<cut])
        }
        var sample = [UInt8(text.count >> 8), UInt8(text.count & 0xFF)] + text
        if format == "text" { sample += header(size: 12, type: "encd") + [0, 0, 1, 0] }
        return sample
    }

    private static func header(size: Int, type: String) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: size >> (24 - 8 * $0)) } + Array(type.utf8.prefix(4))
    }
}

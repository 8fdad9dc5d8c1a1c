/// What an MP4 or QuickTime movie's headers say, read without its sample tables: for
/// listing many files fast (`camrec ls`). Only the top-level box headers, and inside `moov`
/// the small boxes (`mvhd`; per track `tkhd`, `mdhd`, `hdlr`, the first `stsd` entry and
/// the 12-byte head of `stsz`, whose sample count is the frame count) and the QuickTime
/// metadata box are read: never the `stsz`/`stco`/`stss` bodies, nor any sample.
public struct MovieSummary: Sendable, Equatable {
    /// One track's header fields.
    public struct TrackSummary: Sendable, Equatable {
        /// The handler: `vide`, `soun`, or another.
        public var handler: String
        /// The first sample entry's four-character code (`avc1`, `hvc1`, `mp4a`, `Opus`, …).
        public var codec: String
        /// Video: the sample entry's width and height (0 for sound).
        public var width: Int
        /// Video: the sample entry's height.
        public var height: Int
        /// Samples in the track's own sample table (`stsz`): in a fragmented movie only
        /// those of the first part.
        public var sampleCount: Int
        /// The media header's timescale and duration.
        public var timescale: UInt32
        /// The media header's duration, in `timescale` units.
        public var duration: UInt64

        /// The media duration in seconds.
        public var seconds: Double { timescale > 0 ? Double(duration) / Double(timescale) : 0 }
    }

    /// The file type box's major brand (`isom`, `qt  `, …); nil without one.
    public var majorBrand: String?
    /// The movie header's creation time, seconds since 1904-01-01 (0: unknown).
    public var creationTime: UInt64
    /// The capture time to the millisecond (`com.apple.quicktime.creationdate`, ISO 8601),
    /// when the movie box holds it.
    public var captureTime: String?
    /// Whether the movie box announces fragments (`mvex`): a hybrid MP4 that was never
    /// finalised, or another fragmented movie.
    public var fragmented: Bool
    /// The tracks, in file order.
    public var tracks: [TrackSummary]

    /// The first video track.
    public var video: TrackSummary? { tracks.first { $0.handler == "vide" } }
    /// The first sound track.
    public var sound: TrackSummary? { tracks.first { $0.handler == "soun" } }

    /// Why a file cannot be summarised: not an MP4/QuickTime file, or no whole movie box.
    public struct Unreadable: Error, Sendable, Equatable {
        /// What is wrong, for a person: "cut short: the file ends inside its 'mdat' box".
        public var reason: String
    }

    /// Reads the headers of the movie at `path`.
    ///
    /// - Throws: ``Unreadable`` when the file cannot be opened, is not ISO base media, or
    ///   has no whole movie box (cut short, or a plain MP4 whose recording was killed).
    public static func read(path: String) throws(Unreadable) -> MovieSummary {
        let file: SampleFile
        do { file = try SampleFile(path: path) } catch { throw Unreadable(reason: error.message) }
        var reader = HeaderReader(file: file)
        return try read(&reader)
    }

    private static func read(_ reader: inout HeaderReader) throws(Unreadable) -> MovieSummary {
        var summary = MovieSummary(majorBrand: nil, creationTime: 0, captureTime: nil, fragmented: false, tracks: [])
        var offset: UInt64 = 0
        var movie: (start: UInt64, end: UInt64)?
        var first = true
        while offset + 8 <= reader.size {
            guard let box = reader.box(at: offset, end: reader.size) else {
                let header = reader.bytes(at: offset + 4, count: 4).map { String(decoding: $0, as: UTF8.self) } ?? "?"
                if first { throw Unreadable(reason: "not an MP4 or QuickTime movie") }
                if movie == nil {
                    throw Unreadable(reason: "cut short: the file ends inside its '\(header)' box, before any movie box (moov)")
                }
                break
            }
            if first {
                guard ["ftyp", "moov", "mdat", "free", "wide", "skip", "pnot"].contains(box.type) else {
                    throw Unreadable(reason: "not an MP4 or QuickTime movie")
                }
                first = false
            }
            switch box.type {
            case "ftyp":
                summary.majorBrand = reader.bytes(at: box.payload, count: 4).map { String(decoding: $0, as: UTF8.self) }
            case "moov" where movie == nil:
                movie = (box.payload, box.end)
            case "moof":
                summary.fragmented = true
            default: break
            }
            offset = box.end
        }
        guard let movie else {
            throw Unreadable(reason: first ? "not an MP4 or QuickTime movie" : "no movie box (moov): the recording was stopped before its muxer wrote one")
        }
        for child in reader.boxes(from: movie.start, to: movie.end) {
            switch child.type {
            case "mvhd":
                if let head = reader.bytes(at: child.payload, count: 12) {
                    var fields = ByteReader(head)
                    let version = fields.uint8() ?? 0
                    _ = fields.skip(3)
                    summary.creationTime = (version == 1 ? fields.uint64() : fields.uint32().map(UInt64.init)) ?? 0
                }
            case "mvex": summary.fragmented = true
            case "trak": if let track = Self.track(&reader, child) { summary.tracks.append(track) }
            case "meta":
                // Our QuickTime metadata box is small; read it whole and parse it as a movie box would be.
                let size = child.end - child.start
                if size < 1 << 16, let bytes = reader.bytes(at: child.start, count: Int(size)) {
                    var wrapper = ByteWriter()
                    wrapper.box("moov") { $0.append(bytes) }
                    if let time = CaptureTimeStamp.read(moov: wrapper.bytes) { summary.captureTime = time }
                }
            default: break
            }
        }
        return summary
    }

    /// One `trak`'s header fields; nil when it lacks a media header or handler.
    private static func track(_ reader: inout HeaderReader, _ trak: HeaderReader.Found) -> TrackSummary? {
        guard let mdia = reader.boxes(from: trak.payload, to: trak.end).first(where: { $0.type == "mdia" }) else { return nil }
        let media = reader.boxes(from: mdia.payload, to: mdia.end)
        guard let mdhd = media.first(where: { $0.type == "mdhd" }), let hdlr = media.first(where: { $0.type == "hdlr" }),
              let handlerBytes = reader.bytes(at: hdlr.payload + 8, count: 4),
              let mediaHead = reader.bytes(at: mdhd.payload, count: 32)
        else { return nil }
        var fields = ByteReader(mediaHead)
        let version = fields.uint8() ?? 0
        _ = fields.skip(3 + (version == 1 ? 16 : 8))
        let timescale = fields.uint32() ?? 0
        let duration = (version == 1 ? fields.uint64() : fields.uint32().map(UInt64.init)) ?? 0
        var track = TrackSummary(handler: String(decoding: handlerBytes, as: UTF8.self), codec: "", width: 0, height: 0,
                                 sampleCount: 0, timescale: timescale, duration: duration)
        guard let minf = media.first(where: { $0.type == "minf" }),
              let stbl = reader.boxes(from: minf.payload, to: minf.end).first(where: { $0.type == "stbl" })
        else { return track }
        for part in reader.boxes(from: stbl.payload, to: stbl.end) {
            switch part.type {
            case "stsd":
                // version/flags, entry count, then the first entry: size, format, 6 reserved,
                // data reference index; a visual entry has its width and height 24 bytes on.
                if let entry = reader.bytes(at: part.payload, count: 8 + 8 + 8 + 16 + 4) {
                    var fields = ByteReader(entry)
                    _ = fields.skip(12)
                    track.codec = fields.fourCC() ?? ""
                    if track.handler == "vide", fields.skip(8 + 16) {
                        track.width = Int(fields.uint16() ?? 0)
                        track.height = Int(fields.uint16() ?? 0)
                    }
                }
            case "stsz", "stz2":
                // version/flags, sample size (stz2: reserved and field size), sample count.
                if let head = reader.bytes(at: part.payload, count: 12) {
                    var fields = ByteReader(head)
                    _ = fields.skip(8)
                    track.sampleCount = Int(fields.uint32() ?? 0)
                }
            default: break
            }
        }
        return track
    }
}

/// Reads a file's box headers through a small cache of 16 KB pages, so that the few
/// boxes of a movie header cost a read or two, however large the tables between them.
struct HeaderReader {
    /// A box found in the file: its type and offsets.
    struct Found {
        var type: String
        var start: UInt64
        var payload: UInt64
        var end: UInt64
    }

    private static let page = 16 << 10
    let file: SampleFile
    private var pages: [(index: UInt64, bytes: [UInt8])] = []

    init(file: SampleFile) { self.file = file }

    var size: UInt64 { file.size }

    /// `count` bytes at `offset`; nil when the file ends before them.
    mutating func bytes(at offset: UInt64, count: Int) -> [UInt8]? {
        guard count >= 0, offset <= file.size, UInt64(count) <= file.size - offset else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(count)
        var position = offset
        let end = offset + UInt64(count)
        while position < end {
            let index = position / UInt64(Self.page)
            guard let page = page(index) else { return nil }
            let start = Int(position - index * UInt64(Self.page))
            let take = min(page.count - start, Int(end - position))
            guard take > 0 else { return nil }
            result.append(contentsOf: page[start..<start + take])
            position += UInt64(take)
        }
        return result
    }

    private mutating func page(_ index: UInt64) -> [UInt8]? {
        if let cached = pages.first(where: { $0.index == index }) { return cached.bytes }
        let start = index * UInt64(Self.page)
        guard start < file.size, let bytes = try? file.read(offset: start, count: Int(min(UInt64(Self.page), file.size - start)))
        else { return nil }
        if pages.count >= 4 { pages.removeFirst() }
        pages.append((index, bytes))
        return bytes
    }

    /// The box whose header is at `offset`, if it is whole before `end`.
    mutating func box(at offset: UInt64, end: UInt64) -> Found? {
        guard let head = bytes(at: offset, count: Int(min(16, end - offset))), head.count >= 8 else { return nil }
        var fields = ByteReader(head)
        guard let size32 = fields.uint32(), let type = fields.fourCC() else { return nil }
        var size = UInt64(size32)
        var headerSize: UInt64 = 8
        if size32 == 1 {
            guard let large = fields.uint64() else { return nil }
            size = large
            headerSize = 16
        } else if size32 == 0 {
            size = end - offset
        }
        guard size >= headerSize, size <= end - offset else { return nil }
        return Found(type: type, start: offset, payload: offset + headerSize, end: offset + size)
    }

    /// The whole boxes laid one after another from `start` to `end`.
    mutating func boxes(from start: UInt64, to end: UInt64) -> [Found] {
        var found: [Found] = []
        var offset = start
        while offset + 8 <= end, let box = box(at: offset, end: end) {
            found.append(box)
            offset = box.end
        }
        return found
    }
}

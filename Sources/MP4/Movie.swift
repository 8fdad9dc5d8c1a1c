#if canImport(Glibc)
import Glibc
#endif

/// A plain (not fragmented) ISO base media movie: MP4 or QuickTime, as far as copying
/// its samples needs: the file type, the movie timescale and each track's sample table.
public struct Movie: Sendable {
    /// The `ftyp` box, whole; nil for old QuickTime files without one.
    public var fileType: [UInt8]?
    /// The movie timescale (ticks per second of `mvhd`, edit lists and track durations).
    public var timescale: UInt32
    /// The tracks, in file order.
    public var tracks: [Track]
    /// Its dates and tags.
    public var metadata = MovieMetadata()

    /// Reads the movie box of `path` and expands every track's sample table.
    ///
    /// - Throws: ``MP4Error`` when the file is not a plain ISO base media movie this reader
    ///   handles: no `moov`, a fragmented movie, several sample descriptions in a track,
    ///   samples that lie outside the file, or a truncated or corrupt box.
    public static func read(path: String) throws(MP4Error) -> Movie {
        let file = try SampleFile(path: path)
        var fileType: [UInt8]?
        var moov: [UInt8]?
        let boxes = try Box.topLevel(in: file)
        if let last = boxes.last, UInt64(last.end) < file.size, file.size - UInt64(last.end) >= 8 {
            throw MP4Error("a box at \(last.end) runs past the end of the file")
        }
        for box in boxes {
            let size = box.end - box.start
            switch box.type {
            case "ftyp" where size < 1 << 16:
                fileType = try file.read(offset: UInt64(box.start), count: size)
            case "moov":
                guard size < 1 << 30 else { throw MP4Error("the movie box is too large") }
                moov = try file.read(offset: UInt64(box.start), count: size)
            case "moof":
                throw MP4Error("the movie is fragmented")
            default:
                break
            }
        }
        guard let moov else { throw MP4Error("the file has no movie box (moov)") }
        let movie = try parse(moov: moov, fileType: fileType, fileSize: file.size)
        for track in movie.tracks {
            for sample in track.samples where sample.offset > file.size || UInt64(sample.size) > file.size - sample.offset {
                throw MP4Error("track \(track.id) has samples past the end of the file (truncated?)")
            }
        }
        return movie
    }

    /// Parses a whole `moov` box of a file of `fileSize` bytes (a bound on what its tables
    /// may describe). A movie box with movie extends (`mvex`: its samples continue in
    /// fragments) is refused unless `fragmented`, when its own tables are read as they are.
    static func parse(moov: [UInt8], fileType: [UInt8]?, fileSize: UInt64 = .max, fragmented: Bool = false) throws(MP4Error) -> Movie {
        guard let top = Box.children(of: moov, in: 0..<moov.count), let box = top.first("moov"),
              let children = Box.children(of: moov, in: box.payload)
        else { throw MP4Error("the movie box is corrupt") }
        guard fragmented || children.first("mvex") == nil else { throw MP4Error("the movie is fragmented") }
        guard let mvhd = children.first("mvhd") else { throw MP4Error("the movie box has no header") }
        var reader = ByteReader(moov, range: mvhd.payload)
        guard let version = reader.uint8(), reader.skip(3), reader.skip(version == 1 ? 16 : 8),
              let timescale = reader.uint32(), timescale > 0
        else { throw MP4Error("the movie header is corrupt") }
        var tracks: [Track] = []
        for trak in children where trak.type == "trak" {
            tracks.append(try TrackParser(bytes: moov, trak: trak, fileSize: fileSize).parse())
        }
        return Movie(fileType: fileType, timescale: timescale, tracks: tracks,
                     metadata: MovieMetadata.read(moov, mvhd: mvhd, children: children))
    }
}

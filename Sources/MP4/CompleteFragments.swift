/// Everything of a movie whose samples are on disk, as tracks a plain movie can be written
/// from with ``MovieWriter``: how a crash-left fragmented MP4 or MOV becomes a normal one.
///
/// The movie box (`moov`) gives the tracks, their sample descriptions and the samples of
/// its own table (in mp4mux's hybrid layout, the first fragment); each movie fragment
/// (`moof`, before or after its `mdat`) adds samples, taken while their bytes lie whole
/// inside the file's `mdat` boxes. The first sample that is not on disk ends the track and
/// the reading: what follows is a torn fragment or data that lost its index. Times stay
/// exact: a fragment's decode time (`tfdt`) past the end of the samples before it
/// lengthens the last of them, so every sample keeps its time, and a track whose first
/// sample comes late keeps its start through its edit list.
public struct CompleteFragments: Sendable {
    /// The `ftyp` box, whole (nil when the file has none).
    public var fileType: [UInt8]?
    /// The movie timescale.
    public var movieTimescale: UInt32
    /// The tracks that have samples on disk, with their rebuilt edit lists.
    public var tracks: [OutputTrack]
    /// Movie fragments whose samples were taken (not counting the movie box's own table).
    public var fragments: Int
    /// Whether the file is fragmented (false: a plain movie, read for its samples on disk).
    public var isFragmented: Bool
    /// Whether every sample the file's tables describe was taken: nothing was torn off.
    public var isWhole: Bool
    /// Where what was taken ends; the bytes after it are a torn or unindexed tail.
    public var completeEnd: UInt64
    /// The file's size in bytes.
    public var fileSize: UInt64
    /// The movie box's dates and tags.
    public var metadata: MovieMetadata

    /// Reads the movie at `path`.
    ///
    /// - Throws: ``MP4Error`` when the file cannot be read, has no whole movie box, or the
    ///   movie box is corrupt or describes what cannot be copied (several sample descriptions).
    public static func read(path: String) throws(MP4Error) -> CompleteFragments {
        let file = try SampleFile(path: path)
        let layout = try FileLayout(file: file)
        guard let moovBox = layout.boxes.first("moov") else {
            throw MP4Error("the file has no movie box (moov)")
        }
        let moovSize = moovBox.end - moovBox.start
        guard moovSize < 1 << 30 else { throw MP4Error("the movie box is too large") }
        let moov = try file.read(offset: UInt64(moovBox.start), count: moovSize)
        var fileType: [UInt8]?
        if let ftyp = layout.boxes.first("ftyp"), ftyp.end - ftyp.start < 1 << 16 {
            fileType = try file.read(offset: UInt64(ftyp.start), count: ftyp.end - ftyp.start)
        }
        let movie = try Movie.parse(moov: moov, fileType: fileType, fileSize: file.size, fragmented: true)
        let defaults = TrackExtends.read(moov: moov)
        let isFragmented = !defaults.isEmpty || layout.boxes.contains { $0.type == "moof" }

        var builders = movie.tracks.map(TrackBuilder.init)
        var reader = Reading(layout: layout, completeEnd: UInt64(moovBox.end))
        for index in builders.indices {
            let taken = builders[index].takeTable(on: layout)
            reader.note(taken)
            if !taken.whole { reader.stopped = true }
        }
        var fragments = 0
        for box in layout.boxes where box.type == "moof" && !reader.stopped {
            let size = box.end - box.start
            guard size < 1 << 26,
                  let bytes = try? file.read(offset: UInt64(box.start), count: size),
                  var parsed = MovieFragmentParser.parse(moof: bytes, at: UInt64(box.start), fileSize: file.size,
                                                         defaults: defaults),
                  layout.inferSizes(&parsed)
            else {
                reader.stopped = true
                break
            }
            var tookAny = false
            for fragment in parsed {
                guard let index = builders.firstIndex(where: { $0.template.id == fragment.trackID }) else { continue }
                let taken = builders[index].take(fragment, on: layout)
                tookAny = tookAny || taken.count > 0
                reader.note(taken)
                if !taken.whole { reader.stopped = true }
            }
            if tookAny {
                fragments += 1
                reader.completeEnd = max(reader.completeEnd, UInt64(box.end))
            }
        }
        let tracks = builders.filter { !$0.samples.isEmpty }.map { $0.output(movieTimescale: movie.timescale) }
        let whole = !reader.stopped && layout.tornBox == nil
        return CompleteFragments(
            fileType: fileType, movieTimescale: movie.timescale, tracks: tracks, fragments: fragments,
            isFragmented: isFragmented, isWhole: whole, completeEnd: reader.completeEnd, fileSize: file.size,
            metadata: movie.metadata
        )
    }

    /// Where the samples taken so far end, and whether reading stopped at a missing sample.
    private struct Reading {
        let layout: FileLayout
        var completeEnd: UInt64
        var stopped = false

        mutating func note(_ taken: TrackBuilder.Taken) {
            if let end = taken.dataEnd { completeEnd = max(completeEnd, end) }
        }
    }
}

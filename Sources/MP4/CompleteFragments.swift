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
    /// Frames that no box indexed, found by walking their H.264 data (the first fragment
    /// of a file killed before its first `moov`, or the fragment being written).
    public var unindexedFrames: Int = 0
    /// Whether those frames' times assume 30 frames per second (their stream gave no rate).
    public var assumedFrameRate = false

    /// Reads the movie at `path`.
    ///
    /// A movie box renamed `hoov` (finalising was cut short) is read as the movie box; a file
    /// with none at all is read as H.264 frames that index themselves.
    ///
    /// - Throws: ``MP4Error`` when the file cannot be read, has no whole movie box and no
    ///   H.264 frames with their parameter sets, or the movie box is corrupt or describes
    ///   what cannot be copied (several sample descriptions).
    public static func read(path: String) throws(MP4Error) -> CompleteFragments {
        let file = try SampleFile(path: path)
        var layout = try FileLayout(file: file)
        if let cut = try layout.finalisationCutShort() { layout = cut }
        // A `hoov` is the first movie box, renamed when finalising began (see FileLayout).
        guard let moovBox = layout.boxes.first("moov") ?? layout.boxes.first("hoov") else {
            return try unindexed(file: file, layout: layout)
        }
        let moovSize = moovBox.end - moovBox.start
        guard moovSize < 1 << 30 else { throw MP4Error("the movie box is too large") }
        var moov = try file.read(offset: UInt64(moovBox.start), count: moovSize)
        if moovBox.type == "hoov", moov.count >= 8 { moov.replaceSubrange(4..<8, with: Array("moov".utf8)) }
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
        // The fragment being written when the recording stopped: its data is on disk, its
        // `moof` (written after the data) is not. One H.264 track is indexed from its own
        // data; with several tracks the chunks interleave and cannot be told apart.
        var unindexed = 0
        if !reader.stopped, builders.count == 1, builders[0].template.isVideo,
           ["avc1", "avc3"].contains(builders[0].template.format),
           let tail = layout.data.last, tail.start >= reader.completeEnd {
            let walk = AVCAccessUnits.walk(file, from: tail.start, to: tail.end)
            unindexed = builders[0].takeUnindexed(walk.units, frameDuration: nil)
            if unindexed > 0 { reader.completeEnd = max(reader.completeEnd, walk.end) }
        }
        let tracks = builders.filter { !$0.samples.isEmpty }.map { $0.output(movieTimescale: movie.timescale) }
        let whole = !reader.stopped && layout.tornBox == nil && unindexed == 0
        return CompleteFragments(
            fileType: fileType, movieTimescale: movie.timescale, tracks: tracks, fragments: fragments,
            isFragmented: isFragmented, isWhole: whole, completeEnd: reader.completeEnd, fileSize: file.size,
            metadata: movie.metadata, unindexedFrames: unindexed
        )
    }

    /// A file with no movie box: killed before mp4mux wrote its first `moov` (it comes after
    /// the first fragment's data). The frames in the first `mdat` are found by walking
    /// their NAL units, and described from their own parameter sets (H.264 only).
    private static func unindexed(file: SampleFile, layout: FileLayout) throws(MP4Error) -> CompleteFragments {
        guard let range = layout.data.first else { throw MP4Error("the file has no movie box (moov)") }
        let walk = AVCAccessUnits.walk(file, from: range.start, to: range.end)
        let units = walk.units.drop { !$0.isSync }
        guard !units.isEmpty, let sps = walk.sequenceParameterSet, let pps = walk.pictureParameterSet,
              let made = UnindexedTrack.template(id: 1, sequenceParameterSet: sps, pictureParameterSet: pps)
        else {
            throw MP4Error("the file has no movie box (moov), and its data is not H.264 frames with their parameter sets")
        }
        var builder = TrackBuilder(template: made.track)
        let taken = builder.takeUnindexed(Array(units), frameDuration: made.frameDuration)
        var fileType: [UInt8]?
        if let ftyp = layout.boxes.first("ftyp"), ftyp.end - ftyp.start < 1 << 16 {
            fileType = try file.read(offset: UInt64(ftyp.start), count: ftyp.end - ftyp.start)
        }
        let movieTimescale: UInt32 = 1000
        return CompleteFragments(
            fileType: fileType, movieTimescale: movieTimescale, tracks: [builder.output(movieTimescale: movieTimescale)],
            fragments: 0, isFragmented: false, isWhole: false, completeEnd: walk.end, fileSize: file.size,
            metadata: MovieMetadata(), unindexedFrames: taken, assumedFrameRate: !made.rateKnown
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

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
            isFragmented: isFragmented, isWhole: whole, completeEnd: reader.completeEnd, fileSize: file.size
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

/// The top-level boxes of a file and where sample data may lie: the payloads of its whole
/// `mdat` boxes, and of a torn last `mdat` up to the end of the file.
struct FileLayout {
    /// A byte range samples may lie in, and where the box holding it ends.
    struct DataRange {
        var start: UInt64
        var end: UInt64
        /// The end of the whole box (the file's end for a torn one).
        var boxEnd: UInt64
    }

    let file: SampleFile
    let boxes: [Box]
    /// Sorted by start, not overlapping.
    let data: [DataRange]
    /// The type of the box the file ends inside, if any.
    let tornBox: String?

    init(file: SampleFile) throws(MP4Error) {
        self.file = file
        boxes = try Box.topLevel(in: file)
        var data = boxes.filter { $0.type == "mdat" }.map {
            DataRange(start: UInt64($0.payloadStart), end: UInt64($0.end), boxEnd: UInt64($0.end))
        }
        let walked = UInt64(boxes.last?.end ?? 0)
        var torn: String?
        if walked + 8 <= file.size, let header = try? file.read(offset: walked, count: Int(min(16, file.size - walked))) {
            var reader = ByteReader(header)
            let size = reader.uint32()
            torn = reader.fourCC()
            if torn == "mdat" {
                let headerSize: UInt64 = size == 1 ? 16 : 8
                if walked + headerSize <= file.size {
                    data.append(DataRange(start: walked + headerSize, end: file.size, boxEnd: file.size))
                }
            }
        } else if walked < file.size {
            torn = ""
        }
        self.data = data
        tornBox = torn
    }

    /// The data range holding all of `size` bytes at `offset`, if any.
    func range(holding offset: UInt64, size: UInt64) -> DataRange? {
        var low = 0
        var high = data.count
        while low < high {
            let middle = (low + high) / 2
            if data[middle].end <= offset { low = middle + 1 } else { high = middle }
        }
        guard low < data.count, data[low].start <= offset, size <= data[low].end - offset else { return nil }
        return data[low]
    }

    /// Gives each sample of unknown size the bytes up to the next sample of the fragment
    /// (any track) or the end of its `mdat`; false when that cannot be told.
    func inferSizes(_ fragments: inout [TrackFragment]) -> Bool {
        let starts = fragments.flatMap { $0.samples.map(\.offset) }.sorted()
        for fragmentIndex in fragments.indices {
            for sampleIndex in fragments[fragmentIndex].samples.indices
            where fragments[fragmentIndex].samples[sampleIndex].size == nil {
                let offset = fragments[fragmentIndex].samples[sampleIndex].offset
                guard let container = range(holding: offset, size: 1) else { return false }
                let next = starts.first { $0 > offset && $0 < container.end } ?? container.end
                guard next - offset <= UInt64(UInt32.max) else { return false }
                fragments[fragmentIndex].samples[sampleIndex].size = UInt32(next - offset)
            }
        }
        return true
    }
}

/// One track's samples as they are taken from the movie box and the fragments.
struct TrackBuilder {
    /// What one call took.
    struct Taken {
        var count = 0
        /// Whether every sample offered was on disk.
        var whole = true
        /// The end of the box holding the last sample taken (its own end in a torn `mdat`).
        var dataEnd: UInt64?
    }

    let template: Track
    private(set) var samples: [OutputSample] = []
    /// The source decode time of the first sample.
    private var firstDecode: UInt64 = 0
    /// The source decode time just after the last sample.
    private var decodeEnd: UInt64 = 0
    /// The last duration a box gave: what a sample without one lasts.
    private var knownDuration: UInt32 = 0

    init(template: Track) {
        self.template = template
    }

    /// Takes the samples of the movie box's own table that are on disk.
    mutating func takeTable(on layout: FileLayout) -> Taken {
        var taken = Taken()
        for sample in template.samples {
            guard let range = layout.range(holding: sample.offset, size: UInt64(sample.size)) else {
                taken.whole = false
                break
            }
            append(OutputSample(source: .file(offset: sample.offset, size: sample.size), duration: sample.duration,
                                compositionOffset: sample.compositionOffset, isSync: sample.isSync))
            if sample.duration > 0 { knownDuration = sample.duration }
            taken.count += 1
            taken.dataEnd = dataEnd(of: sample.offset, size: UInt64(sample.size), in: range)
        }
        return taken
    }

    /// Takes a fragment's samples that are on disk, placing them at its decode time.
    mutating func take(_ fragment: TrackFragment, on layout: FileLayout) -> Taken {
        var taken = Taken()
        if let start = fragment.decodeTime {
            if samples.isEmpty {
                firstDecode = start
                decodeEnd = start
            } else if start > decodeEnd {
                // The gap goes to the last sample: every sample keeps its decode time.
                let gap = start - decodeEnd
                guard let last = samples.last, gap <= UInt64(UInt32.max - last.duration) else {
                    taken.whole = false
                    return taken
                }
                samples[samples.count - 1].duration = last.duration + UInt32(gap)
                decodeEnd = start
            }
        }
        for sample in fragment.samples {
            guard let size = sample.size, let range = layout.range(holding: sample.offset, size: UInt64(size)) else {
                taken.whole = false
                break
            }
            if let duration = sample.duration { knownDuration = duration }
            append(OutputSample(source: .file(offset: sample.offset, size: size), duration: sample.duration ?? knownDuration,
                                compositionOffset: sample.compositionOffset, isSync: sample.isSync))
            taken.count += 1
            taken.dataEnd = dataEnd(of: sample.offset, size: UInt64(size), in: range)
        }
        return taken
    }

    private mutating func append(_ sample: OutputSample) {
        samples.append(sample)
        decodeEnd = TimeScale.add(decodeEnd, UInt64(sample.duration))
    }

    private func dataEnd(of offset: UInt64, size: UInt64, in range: FileLayout.DataRange) -> UInt64 {
        range.boxEnd == range.end ? range.boxEnd : offset + size
    }

    /// The track to write: its samples, and the source's edit list made to cover them all.
    func output(movieTimescale: UInt32) -> OutputTrack {
        var bare = template
        bare.samples = []   // the source table, no longer needed
        return OutputTrack(template: bare, edits: edits(movieTimescale: movieTimescale), samples: samples)
    }

    /// The source's leading gaps, then one edit from the source's media start to the end
    /// of the last sample's presentation. The media is rebased to start at the first
    /// sample; a track that started late (`firstDecode` > 0) keeps its start as a gap.
    func edits(movieTimescale: UInt32) -> [Edit] {
        let source = template.edits ?? []
        guard !source.isEmpty || firstDecode > 0 else { return [] }
        var gap = source.prefix { $0.isEmpty }.reduce(UInt64(0)) { TimeScale.add($0, $1.segmentDuration) }
        let media = source.first { !$0.isEmpty }
        // Both bounded, so that garbage cannot overflow the difference.
        let bound = Int64(1) << 62
        let shift = min(max(media?.mediaTime ?? 0, 0), bound) - min(Int64(clamping: firstDecode), bound)
        var mediaTime: Int64 = shift
        if shift < 0 {
            gap = TimeScale.add(gap, TimeScale.convert(UInt64(-shift), from: template.timescale, to: movieTimescale))
            mediaTime = 0
        }
        var presentationEnd: Int64 = 0
        var decode: Int64 = 0
        for sample in samples {
            presentationEnd = max(presentationEnd, decode + Int64(sample.compositionOffset) + Int64(sample.duration))
            decode += Int64(sample.duration)
        }
        let length = UInt64(max(0, presentationEnd - mediaTime))
        var edits: [Edit] = []
        if gap > 0 { edits.append(Edit(segmentDuration: gap, mediaTime: -1)) }
        edits.append(Edit(segmentDuration: TimeScale.convert(length, from: template.timescale, to: movieTimescale),
                          mediaTime: mediaTime, rate: media?.rate ?? 1))
        return edits
    }
}

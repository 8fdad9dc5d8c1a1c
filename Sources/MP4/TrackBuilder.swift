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

    /// Takes frames found by walking their data (no box gave their times): each lasts
    /// `frameDuration`, or as long as the last sample a box described. Returns how many.
    mutating func takeUnindexed(_ units: [AVCAccessUnits.Unit], frameDuration: UInt32?) -> Int {
        guard let duration = frameDuration ?? (knownDuration > 0 ? knownDuration : nil) else { return 0 }
        for unit in units {
            append(OutputSample(source: .file(offset: unit.offset, size: unit.size), duration: duration,
                                compositionOffset: 0, isSync: unit.isSync))
        }
        return units.count
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

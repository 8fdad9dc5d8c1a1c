/// Where the samples of a written movie go in `mdat`.
///
/// Samples from the source file keep the source's order and interleaving: they are sorted
/// by source offset and copied in runs that bridge gaps of up to ``maximumGap`` unused
/// bytes, so the body of a cut is one long kernel copy however finely the source
/// interleaves audio and video. Samples held in memory follow, track by track. Chunks are
/// then the runs of a track's samples that lie back to back in the output.
struct SampleLayout {
    /// A byte range of the source copied as one piece.
    struct CopyRun: Equatable {
        var sourceOffset: UInt64
        var size: UInt64
    }

    /// Unused source bytes a run may carry between two samples rather than start a new run.
    static let maximumGap: UInt64 = 4 << 10

    /// The runs, in source (and output) order.
    let runs: [CopyRun]
    /// For each track and sample: the run holding it and its offset in the run (nil: in memory).
    let placement: [[(run: Int, delta: UInt64)?]]

    init(tracks: [OutputTrack]) {
        var fileSamples: [(track: Int, sample: Int, offset: UInt64, size: UInt64)] = []
        for (trackIndex, track) in tracks.enumerated() {
            for (sampleIndex, sample) in track.samples.enumerated() {
                if case .file(let offset, let size) = sample.source {
                    fileSamples.append((trackIndex, sampleIndex, offset, UInt64(size)))
                }
            }
        }
        fileSamples.sort { ($0.offset, $0.track, $0.sample) < ($1.offset, $1.track, $1.sample) }
        var runs: [CopyRun] = []
        var placement = tracks.map { [(run: Int, delta: UInt64)?](repeating: nil, count: $0.samples.count) }
        for item in fileSamples {
            // A sample that overlaps the run before (not seen in practice) gets a run of its own.
            if var last = runs.last, item.offset >= last.sourceOffset + last.size,
               item.offset - (last.sourceOffset + last.size) <= Self.maximumGap {
                last.size = item.offset + item.size - last.sourceOffset
                runs[runs.count - 1] = last
            } else {
                runs.append(CopyRun(sourceOffset: item.offset, size: item.size))
            }
            placement[item.track][item.sample] = (runs.count - 1, item.offset - runs[runs.count - 1].sourceOffset)
        }
        self.runs = runs
        self.placement = placement
    }

    /// Chunk offsets and samples per chunk of one track whose samples landed at `offsets`:
    /// a new chunk wherever a sample does not follow the previous one directly.
    static func chunks(offsets: [UInt64], sizes: [Int]) -> (offsets: [UInt64], samplesPerChunk: [Int]) {
        var chunkOffsets: [UInt64] = []
        var counts: [Int] = []
        var end: UInt64?
        for (offset, size) in zip(offsets, sizes) {
            if offset == end, !counts.isEmpty {
                counts[counts.count - 1] += 1
            } else {
                chunkOffsets.append(offset)
                counts.append(1)
            }
            end = offset + UInt64(size)
        }
        return (chunkOffsets, counts)
    }
}

/// Splits each track's samples into chunks and orders the chunks of all tracks by time,
/// so that audio and video lie interleaved in `mdat` as players read them.
struct ChunkLayout {
    struct Chunk {
        var track: Int
        var samples: Range<Int>
        /// Decoding time of the first sample, in seconds.
        var start: Double
        /// Whether its samples' bytes are pending (written after every other chunk).
        var isPending: Bool
    }

    /// A stretch of bytes to write.
    enum Run {
        case file(offset: UInt64, size: Int)
        case bytes([UInt8])
    }

    /// All chunks, in file order.
    let ordered: [Chunk]
    /// Samples per chunk, per track, in each track's chunk order.
    let samplesPerChunk: [[Int]]

    init(tracks: [OutputTrack]) {
        var all: [Chunk] = []
        var perChunk: [[Int]] = []
        for (trackIndex, track) in tracks.enumerated() {
            let chunks = Self.chunks(of: track, index: trackIndex)
            perChunk.append(chunks.map(\.samples.count))
            all.append(contentsOf: chunks)
        }
        // A stable order: by start time, then by track.
        ordered = all.enumerated().sorted { lhs, rhs in
            (lhs.element.start, lhs.element.track, lhs.offset) < (rhs.element.start, rhs.element.track, rhs.offset)
        }.map(\.element)
        samplesPerChunk = perChunk
    }

    /// A new chunk starts when the source switches between file, memory and pending, when
    /// file samples stop being contiguous, or after a second of media or ``MovieWriter/chunkBytes``.
    /// Pending samples count as empty, so the layout does not change once their bytes are known.
    private static func chunks(of track: OutputTrack, index: Int) -> [Chunk] {
        let timescale = Double(track.template.timescale)
        var chunks: [Chunk] = []
        var time: Int64 = 0
        var chunkStart = 0
        var chunkTime: Int64 = 0
        var chunkBytes = 0
        var previousEnd: UInt64?
        for (sampleIndex, sample) in track.samples.enumerated() {
            var continues = sampleIndex > chunkStart
            switch sample.source {
            case .file(let offset, _):
                continues = continues && previousEnd == offset
                previousEnd = offset + UInt64(sample.source.size)
            case .bytes, .pending:
                continues = continues && previousEnd == nil && kind(track.samples[sampleIndex - 1]) == kind(sample)
                previousEnd = nil
            }
            continues = continues && Double(time - chunkTime) < timescale
                && chunkBytes + sample.source.size <= MovieWriter.chunkBytes
            if !continues, sampleIndex > chunkStart {
                chunks.append(chunk(track, index, chunkStart..<sampleIndex, time: chunkTime))
                chunkStart = sampleIndex
                chunkTime = time
                chunkBytes = 0
            }
            chunkBytes += sample.source.size
            time += Int64(sample.duration)
        }
        if chunkStart < track.samples.count {
            chunks.append(chunk(track, index, chunkStart..<track.samples.count, time: chunkTime))
        }
        return chunks
    }

    private static func kind(_ sample: OutputSample) -> Int {
        switch sample.source {
        case .file: 0
        case .bytes: 1
        case .pending: 2
        }
    }

    private static func chunk(_ track: OutputTrack, _ index: Int, _ samples: Range<Int>, time: Int64) -> Chunk {
        let pending = samples.first.map { kind(track.samples[$0]) == 2 } ?? false
        return Chunk(track: index, samples: samples, start: Double(time) / Double(track.template.timescale), isPending: pending)
    }

    /// The chunk's bytes as few runs as possible (contiguous file samples in one run).
    func runs(of chunk: Chunk, in track: OutputTrack) -> [Run] {
        var runs: [Run] = []
        for sample in track.samples[chunk.samples] {
            switch sample.source {
            case .file(let offset, let size):
                if case .file(let start, let length)? = runs.last, start + UInt64(length) == offset {
                    runs[runs.count - 1] = .file(offset: start, size: length + Int(size))
                } else {
                    runs.append(.file(offset: offset, size: Int(size)))
                }
            case .bytes(let bytes):
                runs.append(.bytes(bytes))
            case .pending:
                continue
            }
        }
        return runs
    }
}

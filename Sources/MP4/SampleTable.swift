/// Expands a sample table (`stts`, `ctts`, `stss`, `stsz`, `stsc`, `stco`/`co64`) into
/// one ``Sample`` per sample.
struct SampleTable {
    let bytes: [UInt8]
    let boxes: [Box]
    let track: UInt32
    /// The size of the file: a table of more sample bytes than that is corrupt (and would
    /// otherwise make a garbage count allocate gigabytes).
    let fileSize: UInt64

    func samples() throws(MP4Error) -> [Sample] {
        let sizes = try sampleSizes()
        let count = sizes.count
        let durations = try runs("stts", count: count, signed: false).map { UInt32(truncatingIfNeeded: $0) }
        let offsets = boxes.first("ctts") == nil
            ? [Int32](repeating: 0, count: count)
            : try runs("ctts", count: count, signed: true).map { Int32(truncatingIfNeeded: $0) }
        let sync = try syncSamples(count: count)
        let positions = try samplePositions(sizes: sizes)
        var samples: [Sample] = []
        samples.reserveCapacity(count)
        var time: Int64 = 0
        for index in 0..<count {
            samples.append(Sample(
                offset: positions[index], size: sizes[index], decodeTime: time, duration: durations[index],
                compositionOffset: offsets[index], isSync: sync.map { $0[index] } ?? true
            ))
            time &+= Int64(durations[index])
        }
        return samples
    }

    private func table(_ type: String) throws(MP4Error) -> ByteReader {
        guard let box = boxes.first(type) else { throw MP4Error("track \(track) has no \(type) table") }
        var reader = ByteReader(bytes, range: box.payload)
        guard reader.skip(4) else { throw MP4Error("track \(track): the \(type) table is corrupt") }
        return reader
    }

    private func corrupt(_ type: String) -> MP4Error { MP4Error("track \(track): the \(type) table is corrupt") }

    private func sampleSizes() throws(MP4Error) -> [UInt32] {
        if boxes.first("stsz") == nil, boxes.first("stz2") != nil {
            throw MP4Error("track \(track) uses compact sample sizes (stz2)")
        }
        var reader = try table("stsz")
        guard let constant = reader.uint32(), let count = reader.uint32() else { throw corrupt("stsz") }
        if constant != 0 {
            guard UInt64(count) * UInt64(constant) <= fileSize else { throw corrupt("stsz") }
            return [UInt32](repeating: constant, count: Int(count))
        }
        guard reader.remaining >= Int(count) * 4 else { throw corrupt("stsz") }
        var sizes: [UInt32] = []
        sizes.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let size = reader.uint32() else { throw corrupt("stsz") }
            sizes.append(size)
        }
        return sizes
    }

    /// A run-length table (`stts`, `ctts`) expanded to `count` values.
    private func runs(_ type: String, count: Int, signed: Bool) throws(MP4Error) -> [Int64] {
        var reader = try table(type)
        guard let entries = reader.uint32(), reader.remaining >= Int(entries) * 8 else { throw corrupt(type) }
        var values: [Int64] = []
        values.reserveCapacity(count)
        for _ in 0..<entries {
            guard let run = reader.uint32(), let raw = reader.uint32() else { throw corrupt(type) }
            // ctts version 0 offsets are unsigned but writers put negative ones there too.
            let value = signed ? Int64(Int32(bitPattern: raw)) : Int64(raw)
            let take = min(Int(run), count - values.count)
            values.append(contentsOf: repeatElement(value, count: take))
        }
        guard values.count == count else {
            throw MP4Error("track \(track): the \(type) table covers \(values.count) of \(count) samples")
        }
        return values
    }

    private func syncSamples(count: Int) throws(MP4Error) -> [Bool]? {
        guard boxes.first("stss") != nil else { return nil }
        var reader = try table("stss")
        guard let entries = reader.uint32() else { throw corrupt("stss") }
        var sync = [Bool](repeating: false, count: count)
        for _ in 0..<entries {
            guard let number = reader.uint32() else { throw corrupt("stss") }
            guard number >= 1, Int(number) <= count else { throw corrupt("stss") }
            sync[Int(number) - 1] = true
        }
        return sync
    }

    private func chunkOffsets() throws(MP4Error) -> [UInt64] {
        let wide = boxes.first("co64") != nil
        var reader = try table(wide ? "co64" : "stco")
        guard let entries = reader.uint32(), reader.remaining >= Int(entries) * (wide ? 8 : 4) else {
            throw corrupt("stco")
        }
        var offsets: [UInt64] = []
        offsets.reserveCapacity(Int(entries))
        for _ in 0..<entries {
            guard let offset = wide ? reader.uint64() : reader.uint32().map(UInt64.init) else { throw corrupt("stco") }
            offsets.append(offset)
        }
        return offsets
    }

    private func samplePositions(sizes: [UInt32]) throws(MP4Error) -> [UInt64] {
        let chunks = try chunkOffsets()
        var reader = try table("stsc")
        guard let entries = reader.uint32() else { throw corrupt("stsc") }
        var rules: [(firstChunk: Int, perChunk: Int)] = []
        for _ in 0..<entries {
            guard let first = reader.uint32(), let perChunk = reader.uint32(), let description = reader.uint32() else {
                throw corrupt("stsc")
            }
            guard description == 1 else { throw MP4Error("track \(track) switches sample descriptions") }
            guard first >= 1, rules.last.map({ Int(first) > $0.firstChunk }) ?? true else { throw corrupt("stsc") }
            rules.append((Int(first) - 1, Int(perChunk)))
        }
        var positions: [UInt64] = []
        positions.reserveCapacity(sizes.count)
        for (ruleIndex, rule) in rules.enumerated() {
            let lastChunk = ruleIndex + 1 < rules.count ? rules[ruleIndex + 1].firstChunk : chunks.count
            guard lastChunk <= chunks.count else { throw corrupt("stsc") }
            for chunk in rule.firstChunk..<max(rule.firstChunk, lastChunk) {
                var position = chunks[chunk]
                for _ in 0..<rule.perChunk where positions.count < sizes.count {
                    positions.append(position)
                    // Wrapping: a garbage chunk offset gives a position past the file, which
                    // callers reject, instead of a trap.
                    position &+= UInt64(sizes[positions.count - 1])
                }
            }
        }
        guard positions.count == sizes.count else {
            throw MP4Error("track \(track): the chunk tables place \(positions.count) of \(sizes.count) samples")
        }
        return positions
    }
}

/// Builds the `moov` box of a written movie from its tracks and where their chunks went.
struct MovieBox {
    let movieTimescale: UInt32
    let tracks: [OutputTrack]
    let chunkOffsets: [[UInt64]]
    let samplesPerChunk: [[Int]]
    /// Dates (written to every header) and user data.
    var metadata = MovieMetadata()

    func bytes() -> [UInt8] {
        let durations = tracks.map(movieDuration)
        var writer = ByteWriter()
        writer.box("moov") { moov in
            let duration = durations.max() ?? 0
            moov.fullBox("mvhd", version: isWide(duration) ? 1 : 0) { box in
                times(&box, duration: duration, timescale: movieTimescale)
                box.uint32(0x0001_0000)  // rate 1.0
                box.uint16(0x0100)  // volume 1.0
                box.append([UInt8](repeating: 0, count: 10))
                box.append(Self.identityMatrix)
                box.append([UInt8](repeating: 0, count: 24))
                box.uint32(UInt32(tracks.count + 1))
            }
            for index in tracks.indices { track(&moov, index: index, duration: durations[index]) }
            if let userData = metadata.userData { moov.append(userData) }
        }
        return writer.bytes
    }

    static let identityMatrix: [UInt8] = [
        0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0,
    ]

    /// Whether a header with `duration` needs its 64-bit form (version 1).
    private func isWide(_ duration: UInt64) -> Bool {
        duration > UInt64(UInt32.max) || max(metadata.creationTime, metadata.modificationTime) > UInt64(UInt32.max)
    }

    /// Creation and modification time, timescale and duration, 32 or 64 bits as `isWide` says.
    private func times(_ box: inout ByteWriter, duration: UInt64, timescale: UInt32) {
        if isWide(duration) {
            box.uint64(metadata.creationTime)
            box.uint64(metadata.modificationTime)
            box.uint32(timescale)
            box.uint64(duration)
        } else {
            box.uint32(UInt32(metadata.creationTime))
            box.uint32(UInt32(metadata.modificationTime))
            box.uint32(timescale)
            box.uint32(UInt32(duration))
        }
    }

    /// The track's length on the movie timeline: its edits, else its media.
    private func movieDuration(_ track: OutputTrack) -> UInt64 {
        if !track.edits.isEmpty { return track.edits.reduce(0) { TimeScale.add($0, $1.segmentDuration) } }
        let duration = track.mediaDuration.multipliedFullWidth(by: UInt64(movieTimescale))
        let timescale = UInt64(max(track.template.timescale, 1))
        guard duration.high < timescale else { return .max }
        return timescale.dividingFullWidth(duration).quotient
    }

    private func track(_ moov: inout ByteWriter, index: Int, duration: UInt64) {
        let track = tracks[index]
        moov.box("trak") { trak in
            let wide = isWide(duration)
            trak.fullBox("tkhd", version: wide ? 1 : 0, flags: track.template.header.flags) { box in
                if wide {
                    box.uint64(metadata.creationTime)
                    box.uint64(metadata.modificationTime)
                } else {
                    box.uint32(UInt32(metadata.creationTime))
                    box.uint32(UInt32(metadata.modificationTime))
                }
                box.uint32(UInt32(index + 1))
                box.uint32(0)
                if wide { box.uint64(duration) } else { box.uint32(UInt32(duration)) }
                box.append(track.template.header.tail)
            }
            if !track.edits.isEmpty { editList(&trak, track.edits) }
            trak.box("mdia") { mdia in
                let mediaDuration = track.mediaDuration
                mdia.fullBox("mdhd", version: isWide(mediaDuration) ? 1 : 0) { box in
                    times(&box, duration: mediaDuration, timescale: track.template.timescale)
                    box.uint16(track.template.language)
                    box.uint16(0)
                }
                mdia.append(track.template.handlerBox)
                mdia.box("minf") { minf in
                    minf.append(track.template.mediaHeaderBox)
                    minf.box("dinf") { dinf in
                        dinf.fullBox("dref", version: 0) { dref in
                            dref.uint32(1)
                            dref.fullBox("url ", version: 0, flags: 1) { _ in }
                        }
                    }
                    sampleTable(&minf, index: index)
                }
            }
            if let userData = track.template.userData { trak.append(userData) }
        }
    }

    private func editList(_ trak: inout ByteWriter, _ edits: [Edit]) {
        let wide = edits.contains {
            $0.segmentDuration > UInt64(UInt32.max) || $0.mediaTime > Int64(Int32.max) || $0.mediaTime < Int64(Int32.min)
        }
        trak.box("edts") { edts in
            edts.fullBox("elst", version: wide ? 1 : 0) { box in
                box.uint32(UInt32(edits.count))
                for edit in edits {
                    if wide {
                        box.uint64(edit.segmentDuration)
                        box.int64(edit.mediaTime)
                    } else {
                        box.uint32(UInt32(edit.segmentDuration))
                        box.int32(Int32(edit.mediaTime))
                    }
                    box.uint16(UInt16(bitPattern: edit.rate))
                    box.uint16(0)
                }
            }
        }
    }

    private func sampleTable(_ minf: inout ByteWriter, index: Int) {
        let samples = tracks[index].samples
        minf.box("stbl") { stbl in
            stbl.fullBox("stsd", version: 0) { box in
                box.uint32(1)
                box.append(tracks[index].sampleEntry)
            }
            runLengthTable(&stbl, "stts", version: 0, values: samples.map { Int64($0.duration) })
            if samples.contains(where: { $0.compositionOffset != 0 }) {
                let negative = samples.contains { $0.compositionOffset < 0 }
                runLengthTable(&stbl, "ctts", version: negative ? 1 : 0, values: samples.map { Int64($0.compositionOffset) })
            }
            if samples.contains(where: { !$0.isSync }) {
                stbl.fullBox("stss", version: 0) { box in
                    let numbers = samples.indices.filter { samples[$0].isSync }
                    box.uint32(UInt32(numbers.count))
                    for number in numbers { box.uint32(UInt32(number + 1)) }
                }
            }
            stbl.fullBox("stsz", version: 0) { box in
                let sizes = samples.map { UInt32($0.source.size) }
                let constant = sizes.allSatisfy { $0 == sizes.first } ? sizes.first ?? 0 : 0
                box.uint32(constant)
                box.uint32(UInt32(sizes.count))
                if constant == 0 { for size in sizes { box.uint32(size) } }
            }
            stbl.fullBox("stsc", version: 0) { box in
                var entries: [(first: Int, count: Int)] = []
                for (chunk, count) in samplesPerChunk[index].enumerated() where entries.last?.count != count {
                    entries.append((chunk + 1, count))
                }
                box.uint32(UInt32(entries.count))
                for entry in entries {
                    box.uint32(UInt32(entry.first))
                    box.uint32(UInt32(entry.count))
                    box.uint32(1)
                }
            }
            let offsets = chunkOffsets[index]
            if (offsets.max() ?? 0) > UInt64(UInt32.max) {
                stbl.fullBox("co64", version: 0) { box in
                    box.uint32(UInt32(offsets.count))
                    for offset in offsets { box.uint64(offset) }
                }
            } else {
                stbl.fullBox("stco", version: 0) { box in
                    box.uint32(UInt32(offsets.count))
                    for offset in offsets { box.uint32(UInt32(offset)) }
                }
            }
        }
    }

    private func runLengthTable(_ stbl: inout ByteWriter, _ type: String, version: UInt8, values: [Int64]) {
        var runs: [(count: UInt32, value: Int64)] = []
        for value in values {
            if let last = runs.last, last.value == value {
                runs[runs.count - 1].count += 1
            } else {
                runs.append((1, value))
            }
        }
        stbl.fullBox(type, version: version) { box in
            box.uint32(UInt32(runs.count))
            for run in runs {
                box.uint32(run.count)
                box.uint32(UInt32(truncatingIfNeeded: run.value))
            }
        }
    }
}

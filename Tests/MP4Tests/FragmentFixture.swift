import Foundation
@testable import MP4

/// Fragmented movies made byte by byte, as mp4mux 1.22 lays them out (its "hybrid" mode:
/// `ftyp`, the first fragment's `mdat`, a `moov` whose tables hold that fragment, then each
/// further fragment's `mdat` followed by its `moof`) or as the usual fragmented layout
/// does (`moof` then `mdat`), with what a reader must find in them.
struct FragmentFixture {
    /// The file's bytes.
    var bytes: [UInt8] = []
    /// Each track's samples as a reader must give them: bytes, duration, offset, sync.
    var expected: [[(bytes: [UInt8], duration: UInt32, compositionOffset: Int32, isSync: Bool)]] = [[], []]

    /// A sample's bytes: `count` bytes, all `value`.
    static func payload(_ value: UInt8, _ count: Int) -> [UInt8] { [UInt8](repeating: value, count: count) }

    /// Video (timescale 3000, track 1) and audio (timescale 48000, track 2).
    static let timescales: [UInt32] = [3000, 48000]

    /// mp4mux's hybrid layout: three video frames and two audio packets in `moov`'s own
    /// table, then one fragment after its data: video with a decode time one tick past the
    /// table's end (mp4mux rounds so) and composition offsets; audio whose last run gives
    /// neither size nor duration (mp4mux 1.22 leaves them out).
    static func hybrid(videoEdits: [Edit] = []) -> FragmentFixture {
        var fixture = FragmentFixture()
        var writer = ByteWriter()
        writer.append(MovieWriter.defaultFileType)
        // The first fragment's data: v0 a0 v1 a1 v2.
        let first: [(track: Int, bytes: [UInt8])] = [
            (0, payload(0x10, 10)), (1, payload(0x20, 5)), (0, payload(0x11, 11)), (1, payload(0x21, 6)), (0, payload(0x12, 12)),
        ]
        var offsets: [[UInt64]] = [[], []]
        writer.box("mdat") { box in
            for (track, bytes) in first {
                offsets[track].append(UInt64(box.bytes.count))
                box.append(bytes)
            }
        }
        let durations: [UInt32] = [100, 1024]
        let syncs: [[Bool]] = [[true, false, false], [true, true]]
        var tracks: [OutputTrack] = []
        for track in 0..<2 {
            let samples = first.filter { $0.track == track }.enumerated().map { index, sample in
                OutputSample(source: .file(offset: offsets[track][index], size: UInt32(sample.bytes.count)),
                             duration: durations[track], compositionOffset: 0, isSync: syncs[track][index])
            }
            for (index, sample) in first.filter({ $0.track == track }).enumerated() {
                fixture.expected[track].append((sample.bytes, durations[track], 0, syncs[track][index]))
            }
            let template = MovieRoundTripTests.template(handler: track == 0 ? "vide" : "soun", timescale: timescales[track],
                                                        entry: MovieRoundTripTests.entry(track == 0 ? "tst1" : "tst2"))
            tracks.append(OutputTrack(template: template, edits: track == 0 ? videoEdits : [], samples: samples))
        }
        let moov = MovieBox(movieTimescale: 1000, tracks: tracks, chunkOffsets: offsets,
                            samplesPerChunk: offsets.map { $0.map { _ in 1 } }).bytes()
        writer.append(Self.addingMovieExtends(to: moov))
        // The second fragment's data, then its moof: v3 v4 v5 (one run), a2 and a3 (a run each).
        let second: [(track: Int, bytes: [UInt8])] = [
            (0, payload(0x13, 13)), (0, payload(0x14, 14)), (0, payload(0x15, 15)), (1, payload(0x22, 7)), (1, payload(0x23, 8)),
        ]
        var secondOffsets: [[UInt64]] = [[], []]
        writer.box("mdat") { box in
            for (track, bytes) in second {
                secondOffsets[track].append(UInt64(box.bytes.count))
                box.append(bytes)
            }
        }
        let videoOffsets: [Int32] = [200, 0, 100]
        writer.box("moof") { moof in
            moof.fullBox("mfhd", version: 0) { $0.uint32(1) }
            // Video: its own base offset, a tfdt of 301 (the table ends at 300), every field per sample.
            moof.box("traf") { traf in
                traf.fullBox("tfhd", version: 0, flags: 0x01) { box in
                    box.uint32(1)
                    box.uint64(secondOffsets[0][0])
                }
                traf.fullBox("tfdt", version: 1) { $0.uint64(301) }
                traf.fullBox("trun", version: 0, flags: 0xF01) { box in
                    box.uint32(3)
                    box.int32(0)
                    for index in 0..<3 {
                        box.uint32(100)
                        box.uint32(UInt32(13 + index))
                        box.uint32(index == 0 ? 0 : 0x0001_0000)
                        box.int32(videoOffsets[index])
                    }
                }
            }
            // Audio: two runs of one sample; the second gives neither size nor duration.
            moof.box("traf") { traf in
                traf.fullBox("tfhd", version: 0, flags: 0x01) { box in
                    box.uint32(2)
                    box.uint64(secondOffsets[1][0])
                }
                traf.fullBox("tfdt", version: 0) { $0.uint32(2048) }
                traf.fullBox("trun", version: 0, flags: 0x301) { box in
                    box.uint32(1)
                    box.int32(0)
                    box.uint32(1024)
                    box.uint32(7)
                }
                traf.fullBox("trun", version: 0, flags: 0x001) { box in
                    box.uint32(1)
                    box.int32(Int32(secondOffsets[1][1] - secondOffsets[1][0]))
                }
            }
        }
        fixture.expected[0][2].duration = 101   // up to the fragment's decode time
        for (index, sample) in second.filter({ $0.track == 0 }).enumerated() {
            fixture.expected[0].append((sample.bytes, 100, videoOffsets[index], index == 0))
        }
        for sample in second.filter({ $0.track == 1 }) {
            fixture.expected[1].append((sample.bytes, 1024, 0, true))
        }
        fixture.bytes = writer.bytes
        return fixture
    }

    /// The usual layout, with an empty movie box: `moof` (data offsets from the `moof`,
    /// default-base-is-moof) then `mdat`, twice; audio starts 10 ms after video.
    static func moofFirst() -> FragmentFixture {
        var fixture = FragmentFixture()
        var writer = ByteWriter()
        writer.append(MovieWriter.defaultFileType)
        var tracks: [OutputTrack] = []
        for track in 0..<2 {
            let template = MovieRoundTripTests.template(handler: track == 0 ? "vide" : "soun", timescale: timescales[track],
                                                        entry: MovieRoundTripTests.entry(track == 0 ? "tst1" : "tst2"))
            tracks.append(OutputTrack(template: template, edits: [], samples: []))
        }
        let moov = MovieBox(movieTimescale: 1000, tracks: tracks, chunkOffsets: [[], []], samplesPerChunk: [[], []]).bytes()
        writer.append(Self.addingMovieExtends(to: moov, defaultDurations: [100, 1024]))
        for fragment in 0..<2 {
            let video = (0..<2).map { payload(UInt8(0x40 + fragment * 2 + $0), 9 + $0) }
            let audio = payload(UInt8(0x60 + fragment), 4)
            // The data follows the moof: its size is measured with a placeholder offset first.
            let makeMoof = { (dataStart: Int32) -> [UInt8] in
                var moof = ByteWriter()
                moof.box("moof") { box in
                    box.fullBox("mfhd", version: 0) { $0.uint32(UInt32(fragment + 1)) }
                    box.box("traf") { traf in
                        traf.fullBox("tfhd", version: 0, flags: 0x02_0000 | 0x20) { header in
                            header.uint32(1)
                            header.uint32(0x0001_0000)   // non-sync by default
                        }
                        traf.fullBox("tfdt", version: 0) { $0.uint32(UInt32(fragment * 200)) }
                        traf.fullBox("trun", version: 0, flags: 0x205) { run in
                            run.uint32(2)
                            run.int32(dataStart)
                            run.uint32(0)   // the first sample is a sync sample
                            for sample in video { run.uint32(UInt32(sample.count)) }
                        }
                    }
                    box.box("traf") { traf in
                        traf.fullBox("tfhd", version: 0, flags: 0x02_0000) { $0.uint32(2) }
                        traf.fullBox("tfdt", version: 0) { $0.uint32(UInt32(480 + fragment * 1024)) }
                        traf.fullBox("trun", version: 0, flags: 0x201) { run in
                            run.uint32(1)
                            run.int32(dataStart + Int32(video.reduce(0) { $0 + $1.count }))
                            run.uint32(UInt32(audio.count))
                        }
                    }
                }
                return moof.bytes
            }
            let moof = makeMoof(Int32(makeMoof(0).count + 8))
            writer.append(moof)
            writer.box("mdat") { box in
                for sample in video { box.append(sample) }
                box.append(audio)
            }
            for (index, sample) in video.enumerated() { fixture.expected[0].append((sample, 100, 0, index == 0)) }
            fixture.expected[1].append((audio, 1024, 0, true))
        }
        fixture.bytes = writer.bytes
        return fixture
    }

    /// `moov` with an `mvex` holding a `trex` per track (ids 1 and 2).
    static func addingMovieExtends(to moov: [UInt8], defaultDurations: [UInt32] = [0, 0]) -> [UInt8] {
        var mvex = ByteWriter()
        mvex.box("mvex") { box in
            for track in 0..<2 {
                box.fullBox("trex", version: 0) { trex in
                    trex.uint32(UInt32(track + 1))
                    trex.uint32(1)
                    trex.uint32(defaultDurations[track])
                    trex.uint32(0)
                    trex.uint32(0)
                }
            }
        }
        var result = moov + mvex.bytes
        let size = UInt32(result.count)
        for index in 0..<4 { result[index] = UInt8(truncatingIfNeeded: size >> (24 - 8 * UInt32(index))) }
        return result
    }
}

import Foundation
@testable import MP4
import Testing

/// ``CompleteFragments`` reads what a crash-left fragmented movie holds, and
/// ``MovieWriter`` writes it as a plain movie: every sample on disk, at its exact time,
/// with its flags; nothing torn; never a trap, whatever the bytes.
@Suite("MP4 complete fragments")
struct CompleteFragmentsTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("mp4-fragments-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let file = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// The samples read from `movie` match the fixture's, track by track: bytes, durations,
    /// composition offsets and sync flags (the first `counts[track]` of them).
    func expectSamples(_ movie: CompleteFragments, _ fixture: FragmentFixture, source: [UInt8], counts: [Int]? = nil) {
        for track in 0..<2 {
            let count = counts?[track] ?? fixture.expected[track].count
            let samples = movie.tracks.first { $0.template.handler == (track == 0 ? "vide" : "soun") }?.samples ?? []
            #expect(samples.count == count, "track \(track): \(samples.count) samples, want \(count)")
            for (sample, want) in zip(samples, fixture.expected[track].prefix(count)) {
                guard case .file(let offset, let size) = sample.source else {
                    Issue.record("a sample not from the file")
                    continue
                }
                #expect(Array(source[Int(offset)..<Int(offset) + Int(size)]) == want.bytes)
                #expect(sample.duration == want.duration)
                #expect(sample.compositionOffset == want.compositionOffset)
                #expect(sample.isSync == want.isSync)
            }
        }
    }

    @Test func hybridLayoutGivesEverySampleAtItsTime() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = FragmentFixture.hybrid()
        let movie = try CompleteFragments.read(path: try write(fixture.bytes, "hybrid.mp4"))
        expectSamples(movie, fixture, source: fixture.bytes)
        #expect(movie.isFragmented && movie.isWhole)
        #expect(movie.fragments == 1)
        #expect(movie.completeEnd == UInt64(fixture.bytes.count))
        #expect(movie.movieTimescale == 1000)
        // No edit list in the source, nothing late: none in the copy.
        #expect(movie.tracks.map(\.edits) == [[], []])
    }

    @Test func writtenMovieReadsBackWithEverySampleAndTime() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = FragmentFixture.hybrid()
        let source = try write(fixture.bytes, "hybrid.mp4")
        let movie = try CompleteFragments.read(path: source)
        let output = path("plain.mp4")
        try MovieWriter.write(path: output, sourcePath: source, fileType: movie.fileType, movieTimescale: movie.movieTimescale,
                              tracks: movie.tracks)
        let plain = try Movie.read(path: output)
        let file = try SampleFile(path: output)
        for (track, expected) in zip(plain.tracks, fixture.expected) {
            var time: Int64 = 0
            for (sample, want) in zip(track.samples, expected) {
                #expect(try file.read(offset: sample.offset, count: Int(sample.size)) == want.bytes)
                #expect(sample.decodeTime == time)
                #expect(sample.compositionOffset == want.compositionOffset)
                #expect(sample.isSync == want.isSync)
                time += Int64(want.duration)
            }
            #expect(track.samples.count == expected.count)
        }
        // Video decode times as the source gave them: 0, 100, 200, then the fragment's 301.
        #expect(plain.tracks[0].samples.map(\.decodeTime) == [0, 100, 200, 301, 401, 501])
    }

    @Test func moofBeforeItsDataAndALateAudioStart() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = FragmentFixture.moofFirst()
        let movie = try CompleteFragments.read(path: try write(fixture.bytes, "moof-first.mp4"))
        expectSamples(movie, fixture, source: fixture.bytes)
        #expect(movie.fragments == 2 && movie.isWhole)
        // Audio's first decode time is 480/48000 s: 10 ms of the movie's 1000 ticks a second.
        #expect(movie.tracks[1].edits == [Edit(segmentDuration: 10, mediaTime: -1), Edit(segmentDuration: 43, mediaTime: 0)])
        #expect(movie.tracks[0].edits == [])
    }

    @Test func anEditListIsMadeToCoverEveryFrame() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // As mp4mux writes for B-frames: a short gap, then media from the first frame's composition offset.
        let fixture = FragmentFixture.hybrid(videoEdits: [Edit(segmentDuration: 4, mediaTime: -1),
                                                          Edit(segmentDuration: 100, mediaTime: 200)])
        let movie = try CompleteFragments.read(path: try write(fixture.bytes, "edits.mp4"))
        // Presentation ends at the latest decode + offset + duration: 501 + 100 + 100 = 701 ticks of
        // 3000 a second; from media time 200 that is 501 ticks, 167 ms (rounded).
        #expect(movie.tracks[0].edits == [Edit(segmentDuration: 4, mediaTime: -1), Edit(segmentDuration: 167, mediaTime: 200)])
    }

    @Test func aTornTailIsLeftOutAndMeasured() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = FragmentFixture.hybrid()
        // The next fragment's data, cut short: its mdat says 4096 bytes, 20 are there.
        let torn = fixture.bytes + [0, 0, 0x10, 0] + Array("mdat".utf8) + [UInt8](repeating: 7, count: 20)
        let movie = try CompleteFragments.read(path: try write(torn, "torn.mp4"))
        expectSamples(movie, fixture, source: torn)
        #expect(!movie.isWhole)
        #expect(movie.completeEnd == UInt64(fixture.bytes.count))
        #expect(movie.fileSize == UInt64(torn.count))
    }

    @Test func aCutInsideAFragmentKeepsWhatCameBefore() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var fixture = FragmentFixture.hybrid()
        // Its moov's samples end one tick before the fragment's time (300, not 301): with no
        // fragment after them, nothing stretches the last one.
        fixture.expected[0][2].duration = 100
        let boxes = try #require(Box.children(of: fixture.bytes, in: 0..<fixture.bytes.count))
        let moov = try #require(boxes.first("moov"))
        let moof = try #require(boxes.first("moof"))
        // Cut inside the second fragment's moof: only the movie box's own samples remain.
        let cut = Array(fixture.bytes[..<(moof.start + 30)])
        let movie = try CompleteFragments.read(path: try write(cut, "cut.mp4"))
        expectSamples(movie, fixture, source: cut, counts: [3, 2])
        #expect(movie.fragments == 0 && !movie.isWhole)
        #expect(movie.completeEnd == UInt64(moov.end))
        // Cut before the moov: there is nothing to read.
        let noMovie = Array(fixture.bytes[..<(moov.start + 100)])
        #expect(throws: MP4Error.self) { try CompleteFragments.read(path: try write(noMovie, "nomoov.mp4")) }
    }

    /// A fragmented MP4 that ffmpeg (an independent writer) made, with B-frames and AAC,
    /// becomes a plain movie with the same packets: times, flags, sizes and bytes.
    @Test func ffmpegFragmentedMovieBecomesTheSamePlainMovie() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = path("frag.mp4")
        try Tool.run("ffmpeg", [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30:duration=3",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=3",
            "-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "15", "-pix_fmt", "yuv420p", "-c:a", "aac",
            "-metadata", "creation_time=2024-01-02T03:04:05Z", "-metadata", "title=recovered",
            "-movflags", "frag_keyframe+empty_moov+default_base_moof", input,
        ])
        let movie = try CompleteFragments.read(path: input)
        #expect(movie.isFragmented && movie.isWhole && movie.fragments >= 6)
        let output = path("plain.mp4")
        try MovieWriter.write(path: output, sourcePath: input, fileType: movie.fileType, movieTimescale: movie.movieTimescale,
                              tracks: movie.tracks, metadata: movie.metadata)
        #expect(try Tool.run("ffmpeg", ["-v", "error", "-i", output, "-f", "null", "-"]).isEmpty)
        // The date and the tags are kept.
        let tags = ["-v", "error", "-show_entries", "format_tags=creation_time,title", "-of", "csv=p=0"]
        #expect(try Tool.run("ffprobe", tags + [output]) == Tool.run("ffprobe", tags + [input]))
        #expect(try Tool.run("ffprobe", tags + [output]).contains("2024-01-02T03:04:05"))
        for stream in ["v:0", "a:0"] {
            let arguments = ["-v", "error", "-select_streams", stream, "-show_entries", "packet=pts,dts,flags,size", "-of", "csv=p=0"]
            #expect(try Tool.run("ffprobe", arguments + [output]) == Tool.run("ffprobe", arguments + [input]))
        }
        let md5 = ["-map", "0", "-c", "copy", "-v", "error", "-f", "framemd5", "-"]
        let hashes = { (file: String) in
            try Tool.run("ffmpeg", ["-i", file] + md5).split(separator: "\n").filter { !$0.hasPrefix("#") }
                .map { $0.split(separator: ",").last ?? "" }
        }
        #expect(try hashes(output) == hashes(input))
    }

    /// Every truncation of a fixture reads without trapping, and keeps at least as many
    /// samples as any shorter one (a longer file never loses what a shorter one had).
    @Test func everyTruncationReadsWithoutTrapping() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        for fixture in [FragmentFixture.hybrid(), FragmentFixture.moofFirst()] {
            var previous = 0
            for length in 0...fixture.bytes.count {
                let file = try write(Array(fixture.bytes[..<length]), "cut.mp4")
                let count = exercise(file)
                #expect(count >= previous, "\(length) bytes give \(count) samples, \(length - 1) gave \(previous)")
                previous = count
            }
            #expect(previous == fixture.expected.map(\.count).reduce(0, +))
        }
    }

    /// Random bytes, and valid files with random bytes changed, never trap a reader.
    @Test func garbageNeverTraps() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = SplitMix(seed: 0x5EED)
        for round in 0..<300 {
            var bytes = (0..<Int(random.next() % 2048)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            // Half of them start like a movie, so that the walk goes further in.
            if round % 2 == 0, bytes.count >= 16 {
                bytes.replaceSubrange(0..<8, with: [0, 0, 0, 8] + Array("ftyp".utf8))
                bytes.replaceSubrange(12..<16, with: Array(["moov", "moof", "mdat"][round % 3].utf8))
            }
            _ = exercise(try write(bytes, "random.mp4"))
        }
        for fixture in [FragmentFixture.hybrid(), FragmentFixture.moofFirst()] {
            for _ in 0..<400 {
                var bytes = fixture.bytes
                for _ in 0..<(1 + random.next() % 4) {
                    let index = Int(random.next() % UInt64(bytes.count))
                    // Sizes and counts are the fields that matter: often all ones or zeros.
                    bytes[index] = [0xFF, 0x00, UInt8(truncatingIfNeeded: random.next())][Int(random.next() % 3)]
                }
                _ = exercise(try write(bytes, "flipped.mp4"))
            }
        }
    }

    /// Reads `file` every way the MP4 module can, writes what it found, and returns the
    /// number of samples found (0 when refused).
    private func exercise(_ file: String) -> Int {
        _ = try? Movie.read(path: file)
        _ = try? FragmentedMovie.scan(path: file)
        guard let movie = try? CompleteFragments.read(path: file) else { return 0 }
        try? MovieWriter.write(path: path("out.mp4"), sourcePath: file, fileType: movie.fileType,
                               movieTimescale: movie.movieTimescale, tracks: movie.tracks)
        return movie.tracks.map(\.samples.count).reduce(0, +)
    }
}

/// A small seeded generator, so that a failing fuzz case can be replayed.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

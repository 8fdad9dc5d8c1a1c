import Foundation
@testable import MP4
import Testing

/// Movies that follow each other read as one (``MovieSeries``, ``SampleFile/init(concatenating:)``):
/// synthetic movies with known samples, and a joined series written and read back by ffprobe.
@Suite("MP4 series")
struct MovieSeriesTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("mp4-series-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// A file of `count` bytes, byte i being `(seed + i) % 251`.
    func file(_ name: String, count: Int, seed: Int) throws -> String {
        try Data((0..<count).map { UInt8((seed + $0) % 251) }).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    static func track(_ handler: String, timescale: UInt32, entry: [UInt8], samples: [Sample], edits: [Edit]? = nil) -> Track {
        var track = MovieRoundTripTests.template(handler: handler, timescale: timescale, entry: entry)
        track.samples = samples
        track.edits = edits
        return track
    }

    /// `count` samples from `offset` on, `size` bytes and `duration` ticks each.
    static func samples(_ count: Int, offset: UInt64, size: UInt32, duration: UInt32, start: Int64 = 0, syncEvery: Int = 1) -> [Sample] {
        (0..<count).map { index in
            Sample(offset: offset + UInt64(index) * UInt64(size), size: size, decodeTime: start + Int64(index) * Int64(duration),
                   duration: duration, compositionOffset: 0, isSync: index % syncEvery == 0)
        }
    }

    /// A movie of `frames` video frames at 30 fps (timescale 90 000) and sound packets of
    /// 1024 ticks at 48 kHz starting `soundLead` ticks before the video (negative: after).
    static func movie(frames: Int, sound packets: Int, soundStart: Int64 = 0, entry: [UInt8] = MovieRoundTripTests.entry("tst1")) -> Movie {
        let video = track("vide", timescale: 90_000, entry: entry, samples: samples(frames, offset: 0, size: 10, duration: 3000, syncEvery: 10))
        var sound = track("soun", timescale: 48_000, entry: MovieRoundTripTests.entry("tst2"),
                          samples: samples(packets, offset: UInt64(frames) * 10, size: 4, duration: 1024))
        if soundStart > 0 {
            // Sound that starts after the video: an empty edit before it.
            sound.edits = [Edit(segmentDuration: UInt64(soundStart) * 1000 / 48_000, mediaTime: -1), Edit(segmentDuration: 0, mediaTime: 0)]
        }
        return Movie(fileType: nil, timescale: 1000, tracks: [video, sound])
    }

    @Test func aConcatenatedFileReadsEachPartAtItsBase() throws {
        let a = try file("a.bin", count: 100, seed: 0)
        let b = try file("b.bin", count: 50, seed: 7)
        let file = try SampleFile(concatenating: [a, b])
        #expect(file.size == 150)
        #expect(file.base(ofPart: 1) == 100)
        #expect(try file.read(offset: 98, count: 4) == [98, 99, 7, 8])
        #expect(try file.read(offset: 100, count: 3) == [7, 8, 9])
        #expect(throws: MP4Error.self) { try file.read(offset: 149, count: 2) }
    }

    @Test func videoRunsOnAndSoundStaysInStepAtEachBoundary() throws {
        // Three movies of 1 s of video (30 frames); the sound of each is 47 packets (1.0027 s),
        // so without care it would drift 2.7 ms per boundary and overlap the next movie.
        let movies = (0..<3).map { _ in Self.movie(frames: 30, sound: 47) }
        let paths = try (0..<3).map { try file("m\($0).bin", count: 30 * 10 + 47 * 4, seed: $0) }
        let joined = try MovieSeries.join(movies, file: SampleFile(concatenating: paths))
        let video = try #require(joined.tracks.first { $0.isVideo })
        let sound = try #require(joined.tracks.first { $0.isAudio })
        #expect(video.samples.count == 90)
        #expect(video.samples.map(\.decodeTime) == (0..<90).map { Int64($0) * 3000 })
        #expect(video.samples.allSatisfy { $0.duration == 3000 })
        // Offsets moved into each movie's part of the whole.
        #expect(video.samples[30].offset == 30 * 10 + 47 * 4)
        #expect(video.samples[60].offset == 2 * (30 * 10 + 47 * 4))
        // Each movie's sound begins where its video does, within half a packet; decoding
        // times stay contiguous (what the sample tables can say).
        for boundary in 1...2 {
            let videoStart = Double(boundary)
            let first = try #require(sound.samples.first { $0.offset >= UInt64(boundary * (30 * 10 + 47 * 4)) })
            #expect(abs(Double(first.decodeTime) / 48_000 - videoStart) <= 512.0 / 48_000, "boundary \(boundary): \(first.decodeTime)")
        }
        for (previous, next) in zip(sound.samples, sound.samples.dropFirst()) {
            #expect(previous.decodeTime + Int64(previous.duration) == next.decodeTime)
        }
        // The overlapping packet at each boundary is left out: 47 + 46 + 46 or so, never more.
        #expect(sound.samples.count >= 139 && sound.samples.count <= 141, "\(sound.samples.count)")
    }

    @Test func soundStartingLateKeepsItsPlaceAgainstTheVideo() throws {
        // The second movie's sound starts 480 ticks (10 ms) after its video.
        let movies = [Self.movie(frames: 30, sound: 47), Self.movie(frames: 30, sound: 46, soundStart: 480)]
        let paths = try (0..<2).map { try file("l\($0).bin", count: 30 * 10 + 47 * 4, seed: $0) }
        let joined = try MovieSeries.join(movies, file: SampleFile(concatenating: paths))
        let sound = try #require(joined.tracks.first { $0.isAudio })
        let first = try #require(sound.samples.first { $0.offset >= UInt64(30 * 10 + 47 * 4) })
        #expect(abs(first.decodeTime - (48_000 + 480)) <= 512, "\(first.decodeTime)")
    }

    @Test func moviesWithOtherParametersDoNotJoin() throws {
        let first = Self.movie(frames: 3, sound: 2)
        let other = Self.movie(frames: 3, sound: 2, entry: MovieRoundTripTests.entry("tst9"))
        #expect(MovieSeries.difference(first, other)?.contains("the video is tst9") == true)
        var noSound = first
        noSound.tracks.removeLast()
        #expect(MovieSeries.difference(first, noSound)?.contains("other tracks") == true)
        // Bit rates measured per file (btrt) do not count.
        func withBitRate(_ rate: UInt32) -> Movie {
            var movie = first
            var writer = ByteWriter()
            writer.box("tst1") { box in
                box.append([0, 0, 0, 0, 0, 0, 0, 1])
                box.append([UInt8](repeating: 0, count: 70))
                box.box("test") { $0.uint32(7) }
                box.box("btrt") { $0.uint32(0); $0.uint32(rate); $0.uint32(rate) }
            }
            movie.tracks[0].sampleEntry = writer.bytes
            return movie
        }
        #expect(MovieSeries.difference(withBitRate(1000), withBitRate(2000)) == nil)
        let paths = try (0..<2).map { try file("d\($0).bin", count: 100, seed: $0) }
        #expect(throws: MP4Error.self) { try MovieSeries.join([first, other], file: SampleFile(concatenating: paths)) }
    }

    @Test func aJoinedSeriesWrittenOutReadsBackWhole() throws {
        let movies = (0..<2).map { _ in Self.movie(frames: 30, sound: 47) }
        let paths = try (0..<2).map { try file("w\($0).bin", count: 30 * 10 + 47 * 4, seed: $0) }
        let sourceFile = try SampleFile(concatenating: paths)
        let joined = try MovieSeries.join(movies, file: sourceFile)
        let tracks = joined.tracks.map { track in
            OutputTrack(template: track, edits: [], samples: track.samples.map {
                OutputSample(source: .file(offset: $0.offset, size: $0.size), duration: $0.duration, compositionOffset: 0, isSync: $0.isSync)
            })
        }
        let output = path("joined.mp4")
        try MovieWriter.write(path: output, source: sourceFile, fileType: nil, movieTimescale: 1000, tracks: tracks)
        let written = try Movie.read(path: output)
        let reader = try SampleFile(path: output)
        let video = try #require(written.tracks.first { $0.isVideo })
        #expect(video.samples.count == 60)
        // Frame 30 is the second movie's first: its bytes came from the second file.
        #expect(try reader.read(offset: video.samples[30].offset, count: 10) == (0..<10).map { UInt8((1 + $0) % 251) })
        #expect(try reader.read(offset: video.samples[29].offset, count: 10) == (290..<300).map { UInt8($0 % 251) })
    }
}

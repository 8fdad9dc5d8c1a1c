import Foundation
@testable import MP4
import Testing

/// Writes movies with ``MovieWriter`` and reads them back with ``Movie/read(path:)``, and
/// checks written files with ffprobe (an independent reader).
@Suite("MP4 write and read")
struct MovieRoundTripTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("mp4-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// A track template as a source movie would give it.
    static func template(handler: String, timescale: UInt32, entry: [UInt8], matrix: [UInt8] = MovieBox.identityMatrix) -> Track {
        var hdlr = ByteWriter()
        hdlr.fullBox("hdlr", version: 0) { box in
            box.uint32(0)
            box.fourCC(handler)
            box.append([UInt8](repeating: 0, count: 12))
            box.append(Array("camrec\0".utf8))
        }
        var mediaHeader = ByteWriter()
        if handler == "vide" {
            mediaHeader.fullBox("vmhd", version: 0, flags: 1) { $0.append([UInt8](repeating: 0, count: 8)) }
        } else {
            mediaHeader.fullBox("smhd", version: 0) { $0.uint32(0) }
        }
        let tail = [UInt8](repeating: 0, count: 16) + matrix + [0, 64, 0, 0, 0, 48, 0, 0]
        return Track(
            id: 1, handler: handler, timescale: timescale, language: 0x55C4, header: TrackHeader(flags: 3, tail: tail),
            handlerBox: hdlr.bytes, mediaHeaderBox: mediaHeader.bytes, sampleEntry: entry, edits: nil, samples: []
        )
    }

    /// A sample entry of an unknown format (players skip it; the tables are what is tested).
    static func entry(_ format: String) -> [UInt8] {
        var writer = ByteWriter()
        writer.box(format) { box in
            box.append([0, 0, 0, 0, 0, 0, 0, 1])
            box.append([UInt8](repeating: 0, count: 70))
            box.box("test") { $0.uint32(7) }
        }
        return writer.bytes
    }

    @Test func samplesTimesFlagsAndEditsSurviveARoundTrip() throws {
        // The source: 300 bytes, each sample's bytes are its own index.
        let source = path("source.bin")
        let sourceBytes = (0..<300).map { UInt8($0 % 251) }
        try Data(sourceBytes).write(to: URL(fileURLWithPath: source))
        let rotated: [UInt8] = [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0]
        let videoSamples: [OutputSample] = [
            OutputSample(source: .bytes([9, 9, 9]), duration: 512, compositionOffset: 1024, isSync: true),
            OutputSample(source: .file(offset: 10, size: 20), duration: 512, compositionOffset: 1536, isSync: false),
            OutputSample(source: .file(offset: 30, size: 5), duration: 512, compositionOffset: 0, isSync: false),
            OutputSample(source: .file(offset: 100, size: 40), duration: 512, compositionOffset: 512, isSync: true),
        ]
        let audioSamples = (0..<5).map { index in
            OutputSample(source: .file(offset: UInt64(200 + index * 10), size: 10), duration: 1024, compositionOffset: 0, isSync: true)
        }
        let video = OutputTrack(
            template: Self.template(handler: "vide", timescale: 15360, entry: Self.entry("tst1"), matrix: rotated),
            edits: [Edit(segmentDuration: 133, mediaTime: 1024)], samples: videoSamples
        )
        let audio = OutputTrack(
            template: Self.template(handler: "soun", timescale: 48000, entry: Self.entry("tst2")),
            edits: [Edit(segmentDuration: 21, mediaTime: -1), Edit(segmentDuration: 106, mediaTime: 0)],
            samples: audioSamples
        )
        let output = path("out.mp4")
        try MovieWriter.write(path: output, sourcePath: source, fileType: nil, movieTimescale: 1000, tracks: [video, audio])

        let movie = try Movie.read(path: output)
        #expect(movie.timescale == 1000)
        #expect(movie.tracks.count == 2)
        let readVideo = try #require(movie.tracks.first { $0.isVideo })
        let readAudio = try #require(movie.tracks.first { $0.isAudio })
        #expect(readVideo.timescale == 15360 && readAudio.timescale == 48000)
        #expect(readVideo.header.matrix == rotated)
        #expect(readVideo.language == 0x55C4)
        #expect(readVideo.format == "tst1" && readAudio.format == "tst2")
        #expect(readVideo.samples.map(\.decodeTime) == [0, 512, 1024, 1536])
        #expect(readVideo.samples.map(\.compositionOffset) == [1024, 1536, 0, 512])
        #expect(readVideo.samples.map(\.isSync) == [true, false, false, true])
        #expect(readVideo.edits == [Edit(segmentDuration: 133, mediaTime: 1024)])
        #expect(readAudio.edits == audio.edits)
        #expect(readAudio.samples.map(\.decodeTime) == (0..<5).map { Int64($0 * 1024) })
        // Every sample's bytes are where the tables say.
        let file = try SampleFile(path: output)
        let expected: [[UInt8]] = [[9, 9, 9], Array(sourceBytes[10..<30]), Array(sourceBytes[30..<35]), Array(sourceBytes[100..<140])]
        for (sample, bytes) in zip(readVideo.samples, expected) {
            #expect(try file.read(offset: sample.offset, count: Int(sample.size)) == bytes)
        }
        for (index, sample) in readAudio.samples.enumerated() {
            #expect(try file.read(offset: sample.offset, count: 10) == Array(sourceBytes[200 + index * 10..<210 + index * 10]))
        }
    }

    @Test func fileSamplesAreCopiedInFewRunsInSourceOrder() {
        let track = { (handler: String, offsets: [UInt64], size: UInt32) in
            OutputTrack(
                template: Self.template(handler: handler, timescale: 30, entry: Self.entry("tst1")), edits: [],
                samples: offsets.map { OutputSample(source: .file(offset: $0, size: size), duration: 1, compositionOffset: 0, isSync: true) }
            )
        }
        // Video and audio interleaved in the source, then (past a gap too big to bridge) more video.
        let video = track("vide", [0, 150, 300, 20_000], 100)
        let audio = track("soun", [100, 250, 10_400], 50)
        let layout = SampleLayout(tracks: [video, audio])
        #expect(layout.runs == [
            SampleLayout.CopyRun(sourceOffset: 0, size: 400),  // interleaved, back to back
            SampleLayout.CopyRun(sourceOffset: 10_400, size: 50),  // 10 000 bytes later: its own run
            SampleLayout.CopyRun(sourceOffset: 20_000, size: 100),  // 9 550 bytes later
        ])
        #expect(layout.placement[0].map { $0?.run } == [0, 0, 0, 2])
        #expect(layout.placement[1].map { $0?.delta } == [100, 250, 0])
        // Chunks: a track's samples that lie back to back.
        let chunks = SampleLayout.chunks(offsets: [16, 116, 300, 400, 900], sizes: [100, 100, 100, 100, 10])
        #expect(chunks.offsets == [16, 300, 900])
        #expect(chunks.samplesPerChunk == [2, 2, 1])
    }

    @Test func pendingSamplesAreFilledInAfterTheFileSamples() throws {
        let source = path("source.bin")
        try Data((0..<100).map { UInt8($0) }).write(to: URL(fileURLWithPath: source))
        let samples = [
            OutputSample(source: .pending, duration: 1, compositionOffset: 0, isSync: false),
            OutputSample(source: .pending, duration: 1, compositionOffset: 0, isSync: false),
            OutputSample(source: .file(offset: 0, size: 50), duration: 1, compositionOffset: 0, isSync: true),
        ]
        let track = OutputTrack(
            template: Self.template(handler: "vide", timescale: 30, entry: Self.entry("tst1")), edits: [], samples: samples
        )
        let output = path("pending.mp4")
        try MovieWriter.write(path: output, sourcePath: source, fileType: nil, movieTimescale: 1000, tracks: [track]) { tracks in
            tracks[0].samples[0].source = .bytes([0xAA, 0xAA])
            tracks[0].samples[0].isSync = true
            tracks[0].samples[1].source = .bytes([0xBB])
            tracks[0].sampleEntry = Self.entry("tst3")
        }
        let read = try #require(try Movie.read(path: output).tracks.first)
        #expect(read.format == "tst3")
        #expect(read.samples.map(\.size) == [2, 1, 50])
        #expect(read.samples.map(\.isSync) == [true, false, true])
        // The file samples were written first; the pending ones follow them.
        #expect(read.samples[0].offset > read.samples[2].offset)
        let file = try SampleFile(path: output)
        #expect(try file.read(offset: read.samples[0].offset, count: 3) == [0xAA, 0xAA, 0xBB])
        #expect(try file.read(offset: read.samples[2].offset, count: 50) == (0..<50).map { UInt8($0) })
        // A completion that leaves a sample pending is an error.
        #expect(throws: MP4Error.self) {
            try MovieWriter.write(path: path("left.mp4"), sourcePath: source, fileType: nil, movieTimescale: 1000, tracks: [track])
        }
    }

    @Test func corruptAndUnsupportedFilesAreErrors() throws {
        let noMovie = path("nomoov.mp4")
        try Data([0, 0, 0, 8] + Array("free".utf8) + [0, 0, 0, 12] + Array("mdat".utf8) + [1, 2, 3, 4]).write(to: URL(fileURLWithPath: noMovie))
        #expect(throws: MP4Error.self) { try Movie.read(path: noMovie) }
        let tooLong = path("long.mp4")
        try Data([0, 0, 1, 0] + Array("moov".utf8) + [0, 0]).write(to: URL(fileURLWithPath: tooLong))
        #expect(throws: MP4Error.self) { try Movie.read(path: tooLong) }
        let fragment = path("frag.mp4")
        try Data([0, 0, 0, 8] + Array("moof".utf8)).write(to: URL(fileURLWithPath: fragment))
        #expect(throws: MP4Error("the movie is fragmented")) { try Movie.read(path: fragment) }
        #expect(throws: MP4Error.self) { try Movie.read(path: path("missing.mp4")) }
    }

    @Test("a copy of a real movie plays and matches its source (checked with ffprobe)")
    func copyOfARealMovie() throws {
        let input = path("in.mp4")
        try run("ffmpeg", [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=2",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2",
            "-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "15", "-pix_fmt", "yuv420p", "-c:a", "aac", input,
        ])
        let movie = try Movie.read(path: input)
        let tracks = movie.tracks.map { track in
            OutputTrack(template: track, edits: track.edits ?? [], samples: track.samples.map { sample in
                OutputSample(
                    source: .file(offset: sample.offset, size: sample.size), duration: sample.duration,
                    compositionOffset: sample.compositionOffset, isSync: sample.isSync
                )
            })
        }
        let output = path("copy.mp4")
        try MovieWriter.write(path: output, sourcePath: input, fileType: movie.fileType, movieTimescale: movie.timescale, tracks: tracks)
        #expect(try run("ffmpeg", ["-v", "error", "-i", output, "-f", "null", "-"]).isEmpty)
        for stream in ["v:0", "a:0"] {
            let arguments = ["-v", "error", "-select_streams", stream, "-show_entries", "packet=pts_time,dts_time,flags,size", "-of", "csv=p=0"]
            #expect(try run("ffprobe", arguments + [output]) == run("ffprobe", arguments + [input]))
        }
        let md5 = ["-v", "error", "-f", "framemd5", "-"]
        #expect(try run("ffmpeg", ["-i", output] + md5) == run("ffmpeg", ["-i", input] + md5))
    }

    /// Runs a tool; returns stdout and stderr together, throwing on a non-zero exit.
    @discardableResult
    func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else { throw MP4Error("\(tool) failed: \(text)") }
        return text
    }
}

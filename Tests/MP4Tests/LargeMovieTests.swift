import Foundation
@testable import MP4
import Testing

/// The 64-bit forms of ISO base media files, which movies past 4 GiB need: box sizes in a
/// `largesize` field (size 1), and chunk offsets in `co64` instead of `stco`. Our writer
/// only uses them when it must, so the inputs are made by hand from a real movie, and
/// ffprobe/ffmpeg (independent readers) confirm that each hand-made file is the same movie
/// before our reader is asked about it.
@Suite("MP4 64-bit boxes and co64")
struct LargeMovieTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("mp4-large-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// A 1-second H.264 (with B-frames) and AAC movie made by ffmpeg: `ftyp`, `free`, `mdat`,
    /// then `moov` with 32-bit sizes and `stco`.
    func sourceMovie() throws -> String {
        let input = path("in.mp4")
        try Tool.run("ffmpeg", [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30:duration=1",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=1",
            "-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "10", "-pix_fmt", "yuv420p", "-c:a", "aac", input,
        ])
        return input
    }

    /// Every top-level box of a file, and every box inside `moov`, rewritten with a 64-bit
    /// size, and each `stco` as a `co64` whose offsets follow the samples (8 more bytes per
    /// top-level header before them). `moov` must come after the samples.
    @Test func largeSizesAndCo64ReadLikeTheShortForms() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try sourceMovie()
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: input)))
        let top = try #require(Box.children(of: original, in: 0..<original.count))
        #expect(top.map(\.type).last == "moov", "ffmpeg put the movie box first: \(top.map(\.type))")
        let shift = { (offset: UInt64) in offset + 8 * UInt64(top.count { UInt64($0.start) <= offset }) }
        let wide = try Widen.file(original, shift: shift)
        let widePath = path("wide.mp4")
        try Data(wide).write(to: URL(fileURLWithPath: widePath))

        // The hand-made file is well formed: 64-bit sizes at the top, co64 and no stco inside,
        // and ffmpeg reads the same packets and decodes the same frames from it.
        let wideTop = try #require(Box.children(of: wide, in: 0..<wide.count))
        #expect(wideTop.map(\.type) == top.map(\.type))
        #expect(wideTop.allSatisfy { Array(wide[$0.start..<$0.start + 4]) == [0, 0, 0, 1] })
        #expect(Widen.types(in: wide).contains("co64") && !Widen.types(in: wide).contains("stco"))
        for stream in ["v:0", "a:0"] {
            #expect(try Tool.packets(widePath, stream: stream) == Tool.packets(input, stream: stream), "stream \(stream)")
        }
        #expect(try Tool.frameHashes(widePath) == Tool.frameHashes(input))

        // Our reader sees the same movie, its samples 8 bytes further per top-level header.
        let before = try Movie.read(path: input)
        let after = try Movie.read(path: widePath)
        #expect(after.timescale == before.timescale)
        #expect(after.tracks.count == 2 && after.tracks.count == before.tracks.count)
        for (wideTrack, track) in zip(after.tracks, before.tracks) {
            #expect(wideTrack.handler == track.handler && wideTrack.format == track.format)
            #expect(wideTrack.edits == track.edits)
            #expect(wideTrack.samples.count == track.samples.count)
            #expect(wideTrack.samples.map(\.offset) == track.samples.map { shift($0.offset) })
            var moved = track.samples
            for index in moved.indices { moved[index].offset = shift(moved[index].offset) }
            #expect(wideTrack.samples == moved, "\(track.handler): sizes, times and sync flags")
        }
        let wideFile = try SampleFile(path: widePath), file = try SampleFile(path: input)
        for (wideSample, sample) in zip(after.tracks[0].samples, before.tracks[0].samples) {
            #expect(try wideFile.read(offset: wideSample.offset, count: Int(wideSample.size))
                    == file.read(offset: sample.offset, count: Int(sample.size)))
        }

        // And the writer copies from it: the copy decodes like the original.
        let tracks = after.tracks.map { track in
            OutputTrack(template: track, edits: track.edits ?? [], samples: track.samples.map {
                OutputSample(source: .file(offset: $0.offset, size: $0.size), duration: $0.duration,
                             compositionOffset: $0.compositionOffset, isSync: $0.isSync)
            })
        }
        let copy = path("copy.mp4")
        try MovieWriter.write(path: copy, sourcePath: widePath, fileType: after.fileType, movieTimescale: after.timescale,
                              tracks: tracks)
        #expect(try Tool.frameHashes(copy) == Tool.frameHashes(input))
    }

    /// Chunk offsets past 4 GiB are written as `co64`, durations past 2^32 ticks in version-1
    /// headers, and both read back exactly (the movie box alone; no file needed).
    @Test func offsetsAndDurationsPastThirtyTwoBitsRoundTrip() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let sizes: [UInt32] = [1000, 20, 300, 4000]
        let samples = sizes.enumerated().map { index, size in
            OutputSample(source: .file(offset: 0, size: size), duration: 0x8000_0000, compositionOffset: 0, isSync: index == 0)
        }
        let track = OutputTrack(
            template: MovieRoundTripTests.template(handler: "vide", timescale: 1000, entry: MovieRoundTripTests.entry("tst1")),
            edits: [], samples: samples)
        let first: UInt64 = 5_000_000_000, second: UInt64 = 0x1_0000_0000 * 3 + 17
        let moov = MovieBox(movieTimescale: 1000, tracks: [track], chunkOffsets: [[first, second]], samplesPerChunk: [[3, 1]]).bytes()
        let types = Widen.types(in: moov)
        #expect(types.contains("co64") && !types.contains("stco"), "\(types)")
        let movie = try Movie.parse(moov: moov, fileType: nil)
        let read = try #require(movie.tracks.first)
        #expect(movie.timescale == 1000 && read.timescale == 1000)
        #expect(read.samples.map(\.offset) == [first, first + 1000, first + 1020, second])
        #expect(read.samples.map(\.size) == sizes)
        #expect(read.samples.map(\.duration) == [UInt32](repeating: 0x8000_0000, count: 4))
        #expect(read.samples.map(\.decodeTime) == [0, 1, 2, 3].map { Int64($0) * 0x8000_0000 })
        #expect(read.samples.map(\.isSync) == [true, false, false, false])
    }

    /// A real movie whose samples lie past 4 GiB in a sparse file (a few kilobytes on disk):
    /// one `mdat` with a 64-bit size spanning them, `co64` offsets. ffprobe finds every
    /// packet where our reader does, and ffmpeg decodes the original's frames from it.
    @Test func samplesPastFourGibibytes() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try sourceMovie()
        let source = try Movie.read(path: input)
        let sourceFile = try SampleFile(path: input)
        let fileType = source.fileType ?? MovieWriter.defaultFileType
        let mdatStart = UInt64(fileType.count)
        // Each track's samples back to back, the first at 4 GiB + 4 KiB, the next track 1 MiB on.
        var next: UInt64 = 0x1_0000_0000 + 4096
        var placed: [[UInt64]] = []
        for track in source.tracks {
            var offsets: [UInt64] = []
            for sample in track.samples {
                offsets.append(next)
                next += UInt64(sample.size)
            }
            placed.append(offsets)
            next += 1 << 20
        }
        let moovStart = next
        var chunkOffsets: [[UInt64]] = [], samplesPerChunk: [[Int]] = []
        for (track, offsets) in zip(source.tracks, placed) {
            let chunks = SampleLayout.chunks(offsets: offsets, sizes: track.samples.map { Int($0.size) })
            chunkOffsets.append(chunks.offsets)
            samplesPerChunk.append(chunks.samplesPerChunk)
        }
        let tracks = source.tracks.map { track in
            OutputTrack(template: track, edits: track.edits ?? [], samples: track.samples.map {
                OutputSample(source: .file(offset: $0.offset, size: $0.size), duration: $0.duration,
                             compositionOffset: $0.compositionOffset, isSync: $0.isSync)
            })
        }
        let moov = MovieBox(movieTimescale: source.timescale, tracks: tracks, chunkOffsets: chunkOffsets,
                            samplesPerChunk: samplesPerChunk).bytes()
        var head = ByteWriter()
        head.append(fileType)
        head.uint32(1)
        head.fourCC("mdat")
        head.uint64(moovStart - mdatStart)

        let big = path("big.mp4")
        _ = FileManager.default.createFile(atPath: big, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: big))
        try handle.write(contentsOf: head.bytes)
        for (track, offsets) in zip(source.tracks, placed) {
            for (sample, offset) in zip(track.samples, offsets) {
                try handle.seek(toOffset: offset)
                try handle.write(contentsOf: try sourceFile.read(offset: sample.offset, count: Int(sample.size)))
            }
        }
        try handle.seek(toOffset: moovStart)
        try handle.write(contentsOf: moov)
        try handle.close()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: big)[.size] as? UInt64)
        #expect(size == moovStart + UInt64(moov.count))

        // ffprobe and ffmpeg: packets where we put them, the original's frames.
        let positions = try Tool.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pos",
                                                 "-of", "csv=p=0", big])
            .split(whereSeparator: \.isNewline).compactMap { UInt64($0.trimmingCharacters(in: .punctuationCharacters)) }
        #expect(positions.sorted() == placed[0], "ffprobe's packet positions")
        #expect(try Tool.packets(big, stream: "v:0") == Tool.packets(input, stream: "v:0"))
        #expect(try Tool.frameHashes(big) == Tool.frameHashes(input))

        // Our reader: the same samples at the offsets past 4 GiB, with the same bytes.
        let movie = try Movie.read(path: big)
        #expect(movie.tracks.count == source.tracks.count)
        let bigFile = try SampleFile(path: big)
        for ((track, original), offsets) in zip(zip(movie.tracks, source.tracks), placed) {
            #expect(track.samples.map(\.offset) == offsets)
            #expect(track.samples.map(\.size) == original.samples.map(\.size))
            #expect(track.samples.map(\.decodeTime) == original.samples.map(\.decodeTime))
            #expect(track.samples.map(\.compositionOffset) == original.samples.map(\.compositionOffset))
            #expect(track.samples.map(\.isSync) == original.samples.map(\.isSync))
            for (sample, from) in zip(track.samples, original.samples).prefix(5) {
                #expect(try bigFile.read(offset: sample.offset, count: Int(sample.size))
                        == sourceFile.read(offset: from.offset, count: Int(from.size)))
            }
        }
    }

    /// A 64-bit size that runs past the end, or a header cut inside its 64-bit size, is an
    /// error, not a crash or a box read from beyond the file.
    @Test func truncatedLargeSizesAreErrors() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let pastEnd = path("past.mp4")
        var writer = ByteWriter()
        writer.uint32(1)
        writer.fourCC("mdat")
        writer.uint64(1 << 40)
        writer.append([1, 2, 3, 4])
        try Data(writer.bytes).write(to: URL(fileURLWithPath: pastEnd))
        #expect(throws: MP4Error.self) { try Movie.read(path: pastEnd) }
        let cut = path("cut.mp4")
        try Data([0, 0, 0, 1] + Array("moov".utf8) + [0, 0, 0]).write(to: URL(fileURLWithPath: cut))
        #expect(throws: MP4Error.self) { try Movie.read(path: cut) }
        // Inside a movie box, the same: a child's 64-bit size larger than its parent.
        var moov = ByteWriter()
        moov.box("moov") { box in
            box.uint32(1)
            box.fourCC("trak")
            box.uint64(1 << 20)
        }
        #expect(throws: MP4Error.self) { try Movie.parse(moov: moov.bytes, fileType: nil) }
    }
}

/// Rewrites boxes into their 64-bit forms.
enum Widen {
    /// Boxes that hold nothing but boxes, down to the sample table.
    static let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl", "edts", "dinf"]

    /// A box with a 64-bit size.
    static func largeBox(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        var writer = ByteWriter()
        writer.uint32(1)
        writer.fourCC(type)
        writer.uint64(UInt64(16 + payload.count))
        writer.append(payload)
        return writer.bytes
    }

    static func file(_ bytes: [UInt8], shift: (UInt64) -> UInt64) throws -> [UInt8] {
        let top = try #require(Box.children(of: bytes, in: 0..<bytes.count))
        var out: [UInt8] = []
        for box in top {
            out += containers.contains(box.type)
                ? largeBox(box.type, try children(of: box, in: bytes, shift: shift))
                : largeBox(box.type, Array(bytes[box.payload]))
        }
        return out
    }

    private static func children(of box: Box, in bytes: [UInt8], shift: (UInt64) -> UInt64) throws -> [UInt8] {
        let children = try #require(Box.children(of: bytes, in: box.payload))
        var out: [UInt8] = []
        for child in children {
            switch child.type {
            case "stco":
                out += largeBox("co64", try co64(Array(bytes[child.payload]), shift: shift))
            case let type where containers.contains(type):
                out += largeBox(type, try self.children(of: child, in: bytes, shift: shift))
            default:
                out += largeBox(child.type, Array(bytes[child.payload]))
            }
        }
        return out
    }

    /// An `stco` payload (version and flags, count, 32-bit offsets) as a `co64` payload.
    private static func co64(_ payload: [UInt8], shift: (UInt64) -> UInt64) throws -> [UInt8] {
        var reader = ByteReader(payload)
        let versionAndFlags = reader.uint32(), count = reader.uint32()
        var writer = ByteWriter()
        writer.uint32(try #require(versionAndFlags))
        writer.uint32(try #require(count))
        for _ in 0..<(count ?? 0) {
            let offset = reader.uint32()
            writer.uint64(shift(UInt64(try #require(offset))))
        }
        return writer.bytes
    }

    /// The types of all boxes inside the containers of `bytes`, depth first.
    static func types(in bytes: [UInt8]) -> [String] {
        func walk(_ range: Range<Int>) -> [String] {
            (Box.children(of: bytes, in: range) ?? []).flatMap { box in
                [box.type] + (containers.contains(box.type) ? walk(box.payload) : [])
            }
        }
        return walk(0..<bytes.count)
    }
}

/// ffmpeg and ffprobe, as independent readers.
enum Tool {
    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Runs a tool; returns its stdout, throwing on a non-zero exit (with its stderr).
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("mp4-tool-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: scratch.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let errors = try FileHandle(forWritingTo: scratch)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? errors.close()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(tool) failed: \((try? String(contentsOf: scratch, encoding: .utf8)) ?? "")")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Each packet's times, size and flags, in file order (not its position).
    static func packets(_ path: String, stream: String) throws -> String {
        try run("ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries", "packet=pts_time,dts_time,duration_time,size,flags",
                            "-of", "csv=p=0", path])
    }

    /// A hash of every decoded frame of every stream.
    static func frameHashes(_ path: String) throws -> String {
        try run("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-f", "framemd5", "-"])
    }
}

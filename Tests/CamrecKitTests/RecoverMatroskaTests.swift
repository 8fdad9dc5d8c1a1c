@testable import CamrecKit
@testable import CamrecCore
@testable import Recover
import Foundation
import MP4
import Testing

/// Finishing Matroska files that matroskamux never finalised: the scan, the finished copy,
/// and garbage. Movies are made by gst-launch (video and Opus audio); ffprobe and the
/// recorder's own Matroska scan (a separate reader) check what comes out.
@Suite(.serialized) struct RecoverMatroskaTests {
    let folder: URL

    init() throws {
        folder = Self.scratch.appendingPathComponent("camrec-recover-mkv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Where the movies go: memory (/dev/shm) where there is one. Each recovery syncs its
    /// output to disk, and the cut and fuzz tests recover or finish thousands of files: on
    /// a disk the syncs, not the recoveries, take most of the time. What is checked (the
    /// scan, the finished copy) does not depend on the file system.
    static let scratch: URL = {
        let memory = URL(fileURLWithPath: "/dev/shm")
        return access(memory.path, W_OK) == 0 ? memory : FileManager.default.temporaryDirectory
    }()

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Two seconds of 160x120 H.264 at 30 fps (a keyframe every 10 frames) and Opus audio,
    /// finalised by matroskamux at EOS; `streamable` leaves the sizes, index and duration out.
    func makeMovie(_ name: String, streamable: Bool = false) throws -> String {
        try Self.makeMovie(at: path(name), streamable: streamable)
    }

    /// The same movie at `output` (also ls's tests' Matroska movie).
    @discardableResult
    static func makeMovie(at output: String, streamable: Bool = false) throws -> String {
        try ProcessRunner.check("gst-launch-1.0", [
            "-q", "videotestsrc", "num-buffers=60", "!", "video/x-raw,width=160,height=120,framerate=30/1", "!",
            "x264enc", "key-int-max=10", "speed-preset=ultrafast", "!", "h264parse", "!",
            "matroskamux", "name=mux", "streamable=\(streamable)", "!", "filesink", "location=\(output)",
            "audiotestsrc", "num-buffers=94", "samplesperbuffer=1024", "!", "audio/x-raw,rate=48000", "!", "audioconvert", "!",
            "opusenc", "!", "mux.",
        ])
        return output
    }

    /// Recovers `input` into the folder `out` (replacing what an earlier call wrote there).
    func recover(_ input: String) throws -> RecoverResult {
        try? FileManager.default.createDirectory(atPath: path("out"), withIntermediateDirectories: true)
        return try MovieRecovery.recover(input, to: .folder(path("out")), force: true, control: RecoverControl())
    }

    func probeFrames(_ file: String) throws -> Int { try Self.probeFrames(file) }

    /// The video frames ffprobe decodes in `file`.
    static func probeFrames(_ file: String) throws -> Int {
        let output = try ProcessRunner.check("ffprobe", [
            "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", file,
        ])
        return Int(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test func aFinalisedMovieIsCompleteAndLeftAlone() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = try makeMovie("done.mkv")
        let before = try Data(contentsOf: URL(fileURLWithPath: movie))
        let result = try recover(movie)
        #expect(result.status == .complete)
        #expect(result.frames == 60)
        #expect(result.output == nil)
        #expect(result.tracks?.map(\.kind) == ["video", "audio"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: movie)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: path("out")).isEmpty)
    }

    /// A streamed Matroska (no seek head, no segment or cluster sizes, no index, no
    /// duration) becomes a finished one with the same blocks, sizes and an index. Without
    /// a Duration element to fill in, it has no duration, as before.
    @Test func aStreamedMovieIsFinished() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = try makeMovie("live.mkv", streamable: true)
        let result = try recover(movie)
        #expect(result.status == .recovered)
        let output = try #require(result.output)
        #expect(output == path("out/live-recovered.mkv"))
        #expect(result.frames == 60)
        #expect(result.lostTailBytes == 0)
        #expect(try probeFrames(output) == 60)
        let layout = try MatroskaLayout.scan(try SampleFile(path: output))
        #expect(layout.isFinalised)
        #expect(!layout.cues.isEmpty)
        // Every block is the same, bit for bit and time for time.
        let packets = ["-v", "error", "-show_entries", "packet=stream_index,pts,flags,size", "-of", "csv=p=0"]
        #expect(try ProcessRunner.check("ffprobe", packets + [output]).stdout == ProcessRunner.check("ffprobe", packets + [movie]).stdout)
        #expect(try ProcessRunner.check("ffmpeg", ["-v", "error", "-ss", "1.5", "-i", output, "-f", "null", "-"]).stderr.isEmpty)
    }

    /// A movie cut at any byte (a full disk, a power cut) keeps every whole block: as many
    /// as the recorder's own scan counts in the cut file, as many as ffprobe then decodes.
    @Test func aMovieCutAnywhereKeepsItsWholeBlocks() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = try makeMovie("whole.mkv")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: movie)))
        var random = SplitMix(seed: 42)
        var probed = 0
        for index in 0..<40 {
            let length = index < 4 ? [300, 700, 1500, 4000][index] : 8000 + Int(random.next() % UInt64(bytes.count - 8000))
            let cut = path("cut-\(length).mkv")
            try Data(bytes[..<length]).write(to: URL(fileURLWithPath: cut))
            let scan = try #require(MatroskaScan.scan(path: cut))
            guard let result = try? recover(cut) else {
                #expect(scan.frames == 0, "a cut at \(length) with \(scan.frames) whole frames was refused")
                continue
            }
            #expect(result.status == .recovered)
            #expect(result.frames == scan.frames, "cut at \(length)")
            // The recorder's scan keeps the start of a cluster that no whole block followed; this cuts it.
            let scanLost = Int64(length) - Int64(scan.completeEnd)
            #expect((scanLost..<scanLost + 64).contains(result.lostTailBytes ?? -1), "cut at \(length)")
            let output = try #require(result.output)
            let written = try MatroskaLayout.scan(try SampleFile(path: output))
            #expect(written.isFinalised)
            if index % 8 == 7 {
                #expect(try probeFrames(output) == result.frames, "cut at \(length)")
                // The duration placeholder is filled in: the whole blocks' span and the last one's length.
                let probe = try ProcessRunner.check("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", output])
                let duration = Double(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
                #expect(abs(duration - (result.duration ?? 0)) < 0.002, "cut at \(length)")
                #expect(abs(duration - Double(result.frames ?? 0) / 30) < 0.05, "cut at \(length): \(duration) s")
                probed += 1
            }
        }
        #expect(probed >= 3)
    }

    /// Truncated headers, flipped bytes and random files never trap the scan or the
    /// finisher; what they cannot read is refused.
    @Test func garbageNeverTraps() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = try makeMovie("small.mkv", streamable: true)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: movie)))
        let scratch = path("fuzz.mkv")
        let finished = path("fuzz-finished.mkv")
        func exercise(_ data: [UInt8]) throws {
            try Data(data).write(to: URL(fileURLWithPath: scratch))
            guard let file = try? SampleFile(path: scratch), let layout = try? MatroskaLayout.scan(file) else { return }
            let descriptor = open(finished, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            defer { close(descriptor) }
            try? MatroskaFinisher(layout: layout).write(from: scratch, to: descriptor, outputPath: finished)
        }
        for length in stride(from: 0, through: min(bytes.count, 3000), by: 1) {
            try exercise(Array(bytes[..<length]))
        }
        var random = SplitMix(seed: 7)
        for _ in 0..<300 {
            var data = Array(bytes.prefix(20_000))
            for _ in 0..<(1 + random.next() % 5) {
                let index = Int(random.next() % UInt64(data.count))
                data[index] = [0xFF, 0x00, 0x01, UInt8(truncatingIfNeeded: random.next())][Int(random.next() % 4)]
            }
            try exercise(data)
        }
        for _ in 0..<100 {
            var data = (0..<Int(random.next() % 4096)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            if data.count > 4 { data.replaceSubrange(0..<4, with: [0x1A, 0x45, 0xDF, 0xA3]) }
            try exercise(data)
        }
        // What is not Matroska is told apart from what is cut short.
        try Data(bytes.prefix(30)).write(to: URL(fileURLWithPath: scratch))
        #expect(throws: MatroskaLayout.Refusal.self) { try MatroskaLayout.scan(try SampleFile(path: scratch)) }
        #expect(throws: CamrecError.self) { try recover(scratch) }
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

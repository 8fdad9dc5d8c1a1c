import Foundation
@testable import MP4
import Testing

/// ``MovieSummary`` reads a movie's headers only: the counts and codecs it gives agree
/// with ffprobe's (an independent reader), and it tells finished, fragmented, cut and
/// foreign files apart.
@Suite("MP4 header summary")
struct MovieSummaryTests {
    let rounds: MovieRoundTripTests

    init() throws { rounds = try MovieRoundTripTests() }

    func movie(_ name: String, flags: [String] = []) throws -> String {
        let path = rounds.path(name)
        try rounds.run("ffmpeg", [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30:duration=2",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2",
            "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac",
        ] + flags + [path])
        return path
    }

    @Test(arguments: ["a.mp4", "a.mov"])
    func aFinishedMovieSaysItsTracksFramesAndTime(name: String) throws {
        let path = try movie(name)
        var summary = try MovieSummary.read(path: path)
        #expect(!summary.fragmented)
        #expect(summary.captureTime == nil)
        let video = try #require(summary.video)
        #expect(video.codec == "avc1" && video.width == 160 && video.height == 120)
        let probed = try rounds.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path])
        #expect(video.sampleCount == Int(probed.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(abs(video.seconds - 2) < 0.001)
        #expect(summary.sound?.codec == "mp4a")
        #expect(summary.majorBrand == (name.hasSuffix(".mov") ? "qt  " : "isom"))
        let stamp = CaptureTimeStamp(unixMilliseconds: 1_796_115_870_250, utcOffsetSeconds: 3600)
        try stamp.write(into: path)
        summary = try MovieSummary.read(path: path)
        #expect(summary.captureTime == "2026-12-01T10:04:30.250+01:00")
        #expect(summary.creationTime == 1_796_115_870 + 2_082_844_800)
        #expect(summary.video?.sampleCount == video.sampleCount)
    }

    @Test func aFragmentedMovieIsMarked() throws {
        let path = try movie("f.mp4", flags: ["-movflags", "frag_keyframe+empty_moov"])
        #expect(try MovieSummary.read(path: path).fragmented)
        // mp4mux's hybrid layout (a moov with mvex after the first fragment's data).
        let hybrid = rounds.path("hybrid.mp4")
        try Data(FragmentFixture.hybrid().bytes).write(to: URL(fileURLWithPath: hybrid))
        let summary = try MovieSummary.read(path: hybrid)
        #expect(summary.fragmented)
        #expect(summary.video?.codec == "tst1" && summary.video?.sampleCount == 3)
    }

    @Test func aCutOrForeignFileIsUnreadableWithWhy() throws {
        let path = try movie("cut.mp4")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        #expect { try MovieSummary.read(path: path) } throws: { error in
            (error as? MovieSummary.Unreadable)?.reason.contains("cut short") == true
        }
        let text = rounds.path("notes.mp4")
        try Data("just some notes, not a movie".utf8).write(to: URL(fileURLWithPath: text))
        #expect { try MovieSummary.read(path: text) } throws: { error in
            (error as? MovieSummary.Unreadable)?.reason == "not an MP4 or QuickTime movie"
        }
    }
}

@testable import CamrecKit
@testable import Trim
import Foundation
import Testing

/// A Matroska input is indexed from its block headers (issue 30 item 13): the frames are
/// those the demuxer gives, the Cues (or, without them, the cluster headers and a scan from
/// the end) lead to the cut, and only the clusters of the cut are read.
@Suite("Matroska block index", .serialized)
struct MatroskaBlockIndexTests {
    /// An ffmpeg Matroska file (with Cues unless `cues` is false: written to a pipe, as a
    /// live stream is, ffmpeg writes none), H.264 with B-frames and AAC.
    static func movie(_ media: MediaFactory, _ name: String, seconds: Int, size: String = "320x240", cues: Bool = true,
                      options: [String] = TrimBFrameTests.bFrames) throws -> String {
        let output = media.path(name)
        let arguments = ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=30:duration=\(seconds)",
                         "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)"]
            + options + ["-c:a", "aac", "-b:a", "64k", "-f", "matroska"]
        if cues {
            try ProcessRunner.check("ffmpeg", arguments + [output])
        } else {
            let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
            try ProcessRunner.check("sh", ["-c", "ffmpeg \(quoted) pipe:1 > '\(output)'"])
        }
        return output
    }

    static func seconds(_ value: Double) -> TimeSpec { TimeSpec(nanoseconds: Int64(value * 1e9)) }

    @Test("the frames are the demuxer's, from the keyframe before the start", arguments: [true, false])
    func sameFramesAsTheDemuxer(cues: Bool) throws {
        let media = try MediaFactory()
        let input = try Self.movie(media, "in.mkv", seconds: 6, cues: cues)
        let full = try GStreamerInput.indexWholeFile(path: input)
        let opened = try #require(try GStreamerInput.openMatroska(
            path: input, start: Self.seconds(2.4), end: Self.seconds(4.1), control: TrimControl()
        ))
        #expect(opened.cost.usedCues == cues)
        let window = opened.input.index
        #expect(window.videoCaps == full.videoCaps)
        #expect(window.streams == full.streams)
        let first = try #require(window.video.first)
        #expect(first.isKeyframe && first.isIDR && first.pts <= 2_400_000_000)
        let start = try #require(full.video.firstIndex { $0.pts == first.pts })
        let matching = Array(full.video[start..<min(full.video.count, start + window.video.count)])
        #expect(window.video.count == matching.count)
        #expect(window.video.map(\.pts) == matching.map(\.pts))
        #expect(window.video.map(\.duration) == matching.map(\.duration))
        #expect(window.video.map(\.isKeyframe) == matching.map(\.isKeyframe))
        #expect(window.video.map(\.isIDR) == matching.map(\.isIDR))
        #expect((window.video.last?.pts ?? 0) > 4_100_000_000)
    }

    @Test("negative times count back from the end the demuxer sees", arguments: [true, false])
    func videoEndAsTheDemuxer(cues: Bool) throws {
        let media = try MediaFactory()
        let input = try Self.movie(media, "in.mkv", seconds: 5, cues: cues)
        let full = try GStreamerInput.indexWholeFile(path: input)
        let opened = try #require(try GStreamerInput.openMatroska(
            path: input, start: nil, end: Self.seconds(-1), control: TrimControl()
        ))
        #expect(opened.cost.readVideoEnd)
        #expect(opened.input.index.videoEnd == full.videoEnd)
        #expect(opened.input.index.video.first?.pts == full.video.first?.pts)
    }

    /// 100 s at 30 fps, a keyframe every second: long enough that reading all of it shows.
    static func long(_ media: MediaFactory, cues: Bool) throws -> String {
        try movie(media, cues ? "long.mkv" : "long-live.mkv", seconds: 100, size: "320x240", cues: cues, options: [
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "30", "-sc_threshold", "0",
        ])
    }

    @Test("a cut near the end reads only the last clusters", arguments: [true, false])
    func tailCutReadsTheTail(cues: Bool) throws {
        let media = try MediaFactory()
        let input = try Self.long(media, cues: cues)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: input)[.size] as? Int)
        let opened = try #require(try GStreamerInput.openMatroska(
            path: input, start: Self.seconds(-6), end: nil, control: TrimControl()
        ))
        #expect(opened.cost.usedCues == cues)
        // The last 6 s of 100, a keyframe before them, the header, the Cues, the first
        // cluster's first block and the hops over cluster headers: well under a fifth.
        #expect(opened.cost.bytesRead < UInt64(size / 5), "\(opened.cost) of \(size) bytes")
        // ffmpeg writing to a pipe closes a cluster every ~0.3 s (about 330 in all).
        #expect(opened.cost.clustersRead < 40, "\(opened.cost)")
        let frames = opened.input.index.video
        #expect(frames.count >= 180 && frames.count <= 180 + 31, "\(frames.count)")
        // ffmpeg starts the video at 21 ms (the AAC priming it moves to 0).
        let full = try GStreamerInput.indexWholeFile(path: input)
        #expect(opened.input.index.videoEnd == full.videoEnd)
        #expect(frames.last?.pts == full.video.last?.pts)
    }

    @Test("--end -90 on 100 s reads the first 10 s, not the whole file", arguments: [true, false])
    func headCutReadsTheHead(cues: Bool) throws {
        let media = try MediaFactory()
        let input = try Self.long(media, cues: cues)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: input)[.size] as? Int)
        let opened = try #require(try GStreamerInput.openMatroska(
            path: input, start: nil, end: Self.seconds(-90), control: TrimControl()
        ))
        #expect(opened.cost.bytesRead < UInt64(size / 4), "\(opened.cost) of \(size) bytes")
        let frames = opened.input.index.video
        #expect(frames.first?.pts == 21_000_000)  // ffmpeg's video starts at 21 ms
        #expect(frames.count >= 300 && frames.count <= 321, "\(frames.count)")
    }

    @Test("a written file's video blocks are counted as the demuxer counts its frames")
    func countsFrames() throws {
        let media = try MediaFactory()
        let input = try Self.movie(media, "in.mkv", seconds: 3)
        var blocks = try #require(MatroskaBlockIndex(path: input, videoCaps: nil))
        #expect(blocks.videoFrameCount() == 90)
        let recorded = try media.camrecLike("gst.mkv", seconds: 2)
        var fromGStreamer = try #require(MatroskaBlockIndex(path: recorded, videoCaps: nil))
        #expect(fromGStreamer.videoFrameCount() == 60)
    }

    @Test("a file that is not Matroska, or has no video, is left to the demuxer")
    func notMatroska() throws {
        let media = try MediaFactory()
        let mp4 = try media.camrecLike("in.mp4", seconds: 1, audio: false)
        #expect(MatroskaBlockIndex(path: mp4, videoCaps: nil) == nil)
        let sound = media.path("sound.mka")
        try ProcessRunner.check("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "sine=duration=1", sound])
        #expect(MatroskaBlockIndex(path: sound, videoCaps: nil) == nil)
    }
}

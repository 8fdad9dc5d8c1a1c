@testable import CamrecKit
@testable import Trim
import Foundation
import Testing

/// The index read from the sample tables equals the one qtdemux gives (an independent
/// reader of the same file): same frames, times, flags, edit-list offsets and audio packets.
@Suite("MP4 sample-table index", .serialized)
struct MP4InputTests {
    static func expectSameIndex(_ path: String, container: MediaContainer = .mp4) throws {
        let tables = try #require(MP4Input.open(path: path, container: container)).index
        let demuxed = try GStreamerInput.indexWholeFile(path: path)
        #expect(tables.video.count == demuxed.video.count)
        #expect(tables.video.map(\.pts) == demuxed.video.map(\.pts))
        #expect(tables.video.map(\.dts) == demuxed.video.map(\.dts))
        #expect(tables.video.map(\.isKeyframe) == demuxed.video.map(\.isKeyframe))
        #expect(tables.video.map(\.isIDR) == demuxed.video.map(\.isIDR))
        #expect(tables.presentationOffset == demuxed.presentationOffset)
        #expect(abs(tables.videoEnd - demuxed.videoEnd) <= 1000)  // each rounds to the nanosecond its own way
        // qtdemux drops packets around its edit list's segment (on an input cut by ffmpeg also
        // the last half second); the tables keep them all and trim picks audio by presentation time.
        let audio = tables.audio.map(\.pts)
        let first = audio.firstIndex(of: demuxed.audio.first?.pts ?? -1) ?? 0
        #expect(Array(audio.dropFirst(first).prefix(demuxed.audio.count)) == demuxed.audio.map(\.pts))
        #expect(tables.audio.count >= demuxed.audio.count)
        #expect(tables.audioPresentationOffset == demuxed.audioPresentationOffset)
        #expect(tables.codecData == demuxed.codecData)
    }

    @Test("B-frames with ffmpeg's edit list, AAC with its priming edit", arguments: ["mp4", "mov"])
    func bFrames(container: String) throws {
        let media = try MediaFactory()
        let input = try media.ffmpeg("in.\(container)", seconds: 3, videoOptions: TrimBFrameTests.bFrames, audio: true)
        try Self.expectSameIndex(input, container: container == "mov" ? .mov : .mp4)
    }

    @Test("open GOP: I-frames that are not IDR pictures")
    func openGOP() throws {
        let media = try MediaFactory()
        let input = try media.ffmpeg("in.mp4", seconds: 3, videoOptions: TrimInputVarietyTests.openGOPOptions)
        try Self.expectSameIndex(input)
        let frames = try #require(MP4Input.open(path: input, container: .mp4)).index.video
        #expect(frames.contains { $0.isKeyframe && !$0.isIDR })
    }

    @Test("an input cut mid-GOP by ffmpeg (an edit list that hides frames)")
    func cutByFFmpeg() throws {
        let media = try MediaFactory()
        let source = try media.ffmpeg("source.mp4", seconds: 4, videoOptions: TrimBFrameTests.bFrames, audio: true)
        let input = media.path("in.mp4")
        try ProcessRunner.check("ffmpeg", ["-nostdin", "-v", "error", "-ss", "1.5", "-i", source, "-c", "copy", input])
        try Self.expectSameIndex(input)
    }

    @Test("audio that starts a second after the video (an empty edit)")
    func lateAudio() throws {
        let media = try MediaFactory()
        let input = try media.lateAudio("in.mp4", seconds: 3)
        try Self.expectSameIndex(input)
    }

    @Test("camrec-like GStreamer recording")
    func camrecLike() throws {
        let media = try MediaFactory()
        try Self.expectSameIndex(try media.camrecLike("in.mp4", seconds: 3))
    }

    @Test("fragmented and Matroska movies are left to the demuxer")
    func notPlain() throws {
        let media = try MediaFactory()
        let fragmented = try media.ffmpeg(
            "frag.mp4", seconds: 2, videoOptions: ["-c:v", "libx264", "-movflags", "+frag_keyframe+empty_moov"]
        )
        #expect(MP4Input.open(path: fragmented, container: .mp4) == nil)
        let matroska = try media.ffmpeg("in.mkv", seconds: 2, videoOptions: ["-c:v", "libx264"])
        #expect(MP4Input.open(path: matroska, container: .matroska) == nil)
    }
}

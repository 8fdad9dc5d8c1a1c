import CamrecKit
import Foundation
import Testing

/// End to end: every track of the input is in the output (two sound tracks, subtitles, a
/// QuickTime timecode), cut at the same instant or shifted to the new start; a track that
/// cannot be kept is named in the result's warnings. Checked with ffprobe and ffmpeg.
@Suite("Trim keeps every track", .serialized)
struct TrimTracksTests {
    /// The cut: from 1.3 s to 2.8 s of a 3 s input at 30 fps (frames 39 to 83).
    static let start = 1.3
    static let end = 2.8

    static func request(_ input: String, _ output: String, mode: TrimMode = .accurate) -> TrimRequest {
        TrimRequest(
            input: input, start: .init(nanoseconds: 1_300_000_000), end: .init(nanoseconds: 2_800_000_000), mode: mode,
            destination: .path(output)
        )
    }

    /// The input's cues (as ffmpeg reads them) as the output should show them: each cut to
    /// the output's window (first frame to the end of the last), from the output's 0.
    static func expectedCues(of input: String, firstFrame: Double, end: Double) throws -> [(text: String, start: Double, end: Double)] {
        try FFprobe.cues(input).compactMap { cue in
            guard cue.end > firstFrame, cue.start < end else { return nil }
            return (cue.text, max(cue.start, firstFrame) - firstFrame, min(cue.end, end) - firstFrame)
        }
    }

    /// Sound, subtitle and video checks shared by every container.
    static func checkTracks(input: String, output: String, result: TrimResult) throws {
        try TrimExpectations(input: input, output: output, start: start, end: end).checkAccurate(result)
        #expect(try FFprobe.decodeErrorsOfAllStreams(output) == "")
        // Both sound tracks start with the video (within one AAC frame) and last as long.
        for (stream, rate) in [("a:0", 48000.0), ("a:1", 44100.0)] {
            let span = try #require(try FFprobe.audioSpan(output, stream: stream), "no \(stream)")
            let frame = 1024 / rate
            #expect(span.start >= -0.002 && span.start < frame + 0.002, "\(stream) starts at \(span.start)")
            #expect(abs(span.end - result.duration) < frame * 1.5, "\(stream) ends at \(span.end), video \(result.duration)")
        }
        // The cues, shifted to the new start and cut to the window.
        let firstFrame = result.firstFrameTime
        let expected = try expectedCues(of: input, firstFrame: firstFrame, end: firstFrame + result.duration)
        #expect(expected.count == 2)
        let cues = try FFprobe.cues(output)
        #expect(cues.map(\.text) == expected.map(\.text), "\(cues)")
        for (cue, wanted) in zip(cues, expected) {
            #expect(abs(cue.start - wanted.start) < 0.002 && abs(cue.end - wanted.end) < 0.002, "\(cue) against \(wanted)")
        }
    }

    @Test("MOV and MP4 (camrec's own writer): two sound tracks, subtitles and timecode kept", arguments: ["mov", "mp4"])
    func quickTimeAndMP4(container: String) throws {
        let media = try MediaFactory()
        let input = try media.manyTracks("in.\(container)")
        let output = media.path("out.\(container)")
        let result = try Trimmer.run(Self.request(input, output))
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        let inputStreams = try FFprobe.streams(input)
        let outputStreams = try FFprobe.streams(output)
        // The same tracks in the same order (ffprobe: type, codec and tag).
        #expect(outputStreams.map(\.type) == inputStreams.map(\.type), "\(outputStreams)")
        #expect(outputStreams.map(\.tag) == inputStreams.map(\.tag), "\(outputStreams)")
        #expect(result.tracks.map(\.kind) == inputStreams.map { stream -> TrimTrack.Kind in
            switch stream.type {
            case "video": .video
            case "audio": .audio
            case "subtitle": .subtitle
            default: .timecode
            }
        })
        try Self.checkTracks(input: input, output: output, result: result)
        // The timecode is the first frame's: 01:00:00:00 + 39 frames at 30 fps, on the
        // timecode track and (through the video's track reference to it) on the video.
        let timecodes = outputStreams.compactMap(\.timecode)
        #expect(timecodes == ["01:00:01:09", "01:00:01:09"], "\(outputStreams)")
    }

    @Test("drop-frame NTSC timecode moves by frames, not seconds")
    func dropFrameTimecode() throws {
        let media = try MediaFactory()
        let input = try media.manyTracks("in.mov", timecode: "00:59:59;28", rate: "30000/1001")
        let output = media.path("out.mov")
        let result = try Trimmer.run(Self.request(input, output))
        // The first frame at or after 1.3 s is frame 39 (1.3013 s): 00:59:59;28 + 39 frames.
        // Minute 60 is a tenth minute, so its frames ;00 and ;01 are not dropped.
        #expect(abs(result.firstFrameTime - 1.301) < 0.002)
        let timecodes = try FFprobe.streams(output).compactMap(\.timecode)
        #expect(timecodes == ["01:00:01;07", "01:00:01;07"], "\(timecodes)")
    }

    @Test("keyframe mode keeps every track too")
    func keyframeMode() throws {
        let media = try MediaFactory()
        let input = try media.manyTracks("in.mov")
        let output = media.path("out.mov")
        let result = try Trimmer.run(Self.request(input, output, mode: .keyframe))
        #expect(result.mode == .keyframe && result.firstFrameTime == 1.0)
        #expect(result.tracks.count == 5 && result.warnings.isEmpty, "\(result.tracks) \(result.warnings)")
        #expect(try FFprobe.streams(output).compactMap(\.timecode) == ["01:00:01:00", "01:00:01:00"])
        let cues = try FFprobe.cues(output)
        #expect(cues.map(\.text) == ["first", "second"])
        #expect(abs((cues.first?.end ?? 0) - 0.5) < 0.002, "\(cues)")
    }

    @Test("MKV (GStreamer's muxer): two sound tracks and subtitles kept")
    func matroska() throws {
        let media = try MediaFactory()
        let input = try media.manyTracks("in.mkv")
        let output = media.path("out.mkv")
        let result = try Trimmer.run(Self.request(input, output))
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        #expect(try FFprobe.streams(output).map(\.codec) == ["h264", "aac", "aac", "subrip"])
        #expect(result.tracks.map(\.kind) == [.video, .audio, .audio, .subtitle])
        // ffmpeg shifts every Matroska stream by the B-frame delay (23 ms): cues, sound and the
        // result's times are all on that timeline.
        try Self.checkTracks(input: input, output: output, result: result)
    }

    @Test("another container: what its muxer cannot write is named, the rest kept")
    func containerChange() throws {
        let media = try MediaFactory()
        // MOV with PCM as its second sound track and a timecode, written as MP4 by mp4mux.
        let input = try media.manyTracks("in.mov", secondAudio: ["-c:a:1", "pcm_s16le"])
        let output = media.path("out.mp4")
        let result = try Trimmer.run(Self.request(input, output))
        #expect(try FFprobe.streams(output).map(\.codec) == ["h264", "aac", "mov_text"])
        #expect(result.tracks.map(\.kind) == [.video, .audio, .subtitle])
        #expect(result.warnings.count == 2, "\(result.warnings)")
        #expect(result.warnings.contains { $0.contains("audio/x-raw") && $0.contains("mp4mux cannot write it") },
                "\(result.warnings)")
        #expect(result.warnings.contains { $0.contains("timecode, tmcd") && $0.contains("does not read it") },
                "\(result.warnings)")
        #expect(try FFprobe.decodeErrorsOfAllStreams(output) == "")
    }
}

import Foundation
import Testing
@testable import CamrecKit

/// The lines `RecordingPrinter` shows for a recording's events and result, for people and
/// (with --json) for scripts.
@Suite struct RecordingPrinterTests {
    private func start(device: String = "/dev/video0", format: String = "MJPG", path: String = "out.mp4",
                       maxDuration: Double? = 600) -> RecordingStart {
        RecordingStart(path: path, partialPath: "out.partial.mp4", device: device, format: format, size: "1280x720",
                       fps: "30", formatReason: "MJPEG: the camera's only format at 1280x720 30 fps",
                       maxDuration: maxDuration, pipeline: "v4l2src ! fakesink", encodingReason: "H.264 with x264enc (software)",
                       bitrate: 2000, keyframeInterval: 1)
    }

    @Test func startedSaysWhatIsRecordedWhereForHowLong() {
        let (output, error) = (CapturedStream(), CapturedStream())
        RecordingPrinter(console: Console(json: true, output: output, error: error)).show(.started(start()))
        #expect(error.lines == [
            "camrec: recording /dev/video0 (MJPG) at 1280x720 30 fps to out.mp4 for up to 00:10:00",
            "camrec: format: MJPEG: the camera's only format at 1280x720 30 fps",
            "camrec: encoding: H.264 with x264enc (software); 2000 kbit/s; a keyframe every 1 s",
        ])
        let line = output.lines.first ?? ""
        #expect(line.hasPrefix(#"{"type":"started","bitrate":2000,"#), "\(line)")
        #expect(line.contains(#""partial_path":"out.partial.mp4""#) && line.contains(#""max_duration":600"#), "\(line)")
        #expect(!line.contains("partialPath"))
    }

    @Test func standbyWithSeveralCamerasNamesEachCamerasClips() {
        let (output, error) = (CapturedStream(), CapturedStream())
        var started = start(device: "test", format: "test", path: "cam-1.mp4", maxDuration: nil)
        started.standby = true
        started.bitrate = nil
        started.keyframeInterval = nil
        var second = StartedCamera(index: 2, start: start(device: "/dev/video2", format: "YUYV", path: "cam-2.mp4"))
        second.size = "640x480"
        started.cameras = [StartedCamera(index: 1, start: started), second]
        RecordingPrinter(console: Console(json: false, output: output, error: error)).show(.started(started))
        #expect(error.lines == [
            "camrec: standby on the test pattern at 1280x720 30 fps: no movie, clips on triggers (named after cam-1.mp4) until stopped",
            "camrec: and camera 2, /dev/video2 (YUYV) at 640x480 clips named after cam-2.mp4, on the same clock",
            "camrec: format: MJPEG: the camera's only format at 1280x720 30 fps",
            "camrec: encoding: H.264 with x264enc (software)",
        ])
        #expect(output.text.isEmpty)
    }

    @Test func severalCamerasRecordingSaysWhereEachGoes() {
        let (output, error) = (CapturedStream(), CapturedStream())
        var started = start(path: "m-1.mp4")
        started.cameras = [StartedCamera(index: 1, start: started),
                           StartedCamera(index: 2, start: start(device: "/dev/video2", path: "m-2.mp4"))]
        RecordingPrinter(console: Console(json: false, output: output, error: error)).show(.started(started))
        #expect(error.lines.prefix(2) == [
            "camrec: recording /dev/video0 (MJPG) at 1280x720 30 fps to m-1.mp4 for up to 00:10:00",
            "camrec: and camera 2, /dev/video2 (MJPG) at 1280x720 to m-2.mp4, on the same clock",
        ])
    }

    @Test func progressIsOneRewrittenLineOnATerminalAndNothingElsewhere() {
        let progress = RecordingProgress(seconds: 65.4, frames: 1962, bytes: 3_420_000, limit: 90.5, fps: 29.96)
        let (output, error) = (CapturedStream(), CapturedStream())
        RecordingPrinter(console: Console(json: true, terminal: true, output: output, error: error)).show(.progress(progress))
        #expect(error.text == "\r\u{1B}[2K● 00:01:05 / 00:01:30.500  3.4 MB  30.0 fps")
        #expect(output.text.isEmpty, "no JSON progress line for a recording")
        let (quietOutput, plain) = (CapturedStream(), CapturedStream())
        RecordingPrinter(console: Console(json: false, terminal: false, output: quietOutput, error: plain)).show(.progress(progress))
        #expect(plain.text.isEmpty)
    }

    @Test func aStillDuringARecordingGivesItsMovieTime() {
        var file = ResultFile(path: "out-still-0001.jpg", kind: "still", duration: nil, frames: nil, bytes: 81_200)
        file.pts = 2.5
        let (output, error) = (CapturedStream(), CapturedStream())
        RecordingPrinter(console: Console(json: true, output: output, error: error)).show(.still(file))
        #expect(error.lines == ["camrec: still out-still-0001.jpg (movie time 2.500 s)"])
        #expect(output.lines.first?.hasPrefix(#"{"type":"still","bytes":81200,"#) == true, "\(output.text)")
    }

    @Test func aStillWithoutAMovieGivesItsSize() {
        let file = ResultFile(path: "photo.jpg", kind: "still", duration: nil, frames: nil, bytes: 81_200)
        let (output, error) = (CapturedStream(), CapturedStream())
        let printer = RecordingPrinter(console: Console(json: true, output: output, error: error))
        printer.showWithoutMovie(.still(file))
        printer.showWithoutMovie(.warning("the light is low"))
        #expect(error.lines == ["camrec: still photo.jpg (81 KB)", "camrec: warning: the light is low"])
        #expect(output.lines.count == 2 && output.lines[0].hasPrefix(#"{"type":"still","#))
    }

    @Test func aWarningIsALineAndAJSONWarning() {
        let (output, error) = (CapturedStream(), CapturedStream())
        RecordingPrinter(console: Console(json: true, output: output, error: error)).show(.warning("the camera is slow"))
        #expect(error.lines == ["camrec: warning: the camera is slow"])
        #expect(output.lines == [#"{"type":"warning","message":"the camera is slow"}"#])
    }

    @Test func theResultSumsUpWhatWasMadeAndLost() {
        var result = RecordingResult(reason: .maxDuration, files: [
            ResultFile(path: "out.mp4", kind: "movie", duration: 3, frames: 90, bytes: 1_234_567),
            ResultFile(path: "out-still-0001.jpg", kind: "still", duration: nil, frames: nil, bytes: 80_000),
            ResultFile(path: "out-still-0002.jpg", kind: "still", duration: nil, frames: nil, bytes: 80_000),
            ResultFile(path: "out-clip-0001.mp4", kind: "clip", duration: 2, frames: 60, bytes: 500_000),
        ], droppedFrames: 1)
        result.droppedAudioMs = 40
        let (output, error) = (CapturedStream(), CapturedStream())
        RecordingPrinter(console: Console(json: true, output: output, error: error)).show(result)
        #expect(error.lines == [
            "camrec: saved out.mp4 (90 frames, 3.00 s, 1.2 MB)",
            "camrec: 1 clip saved",
            "camrec: 2 stills taken",
            "camrec: 1 frame dropped",
            "camrec: 40 ms of sound lost by the source, recorded as silence so that the sound stays in step",
        ])
        let line = output.lines.first ?? ""
        #expect(line.hasPrefix(#"{"type":"result","#) && line.contains(#""dropped_frames":1"#), "\(line)")
        #expect(!line.contains("dropped_lines"), "only a queued stream counts dropped lines")
    }

    @Test func segmentsAreSummedUp() {
        var first = ResultFile(path: "m-0001.mp4", kind: "movie", duration: 2, frames: 60, bytes: 600_000)
        first.index = 1
        var second = ResultFile(path: "m-0002.mp4", kind: "movie", duration: 1.5, frames: 45, bytes: 400_000)
        second.index = 2
        let (output, error) = (CapturedStream(), CapturedStream())
        RecordingPrinter(console: Console(json: false, output: output, error: error))
            .show(RecordingResult(reason: .signal, files: [first, second], droppedFrames: 0))
        #expect(error.lines == ["camrec: 2 movies kept (105 frames, 3.50 s, 1.0 MB)"])
    }
}

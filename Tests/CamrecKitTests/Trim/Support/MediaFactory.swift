import Foundation

/// Makes small test movies with gst-launch-1.0 and ffmpeg in a temporary folder (tests only;
/// nothing is committed).
final class MediaFactory {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("camrec-trim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// A camrec-like movie: 320x240, 30 fps, H.264 without B-frames, closed GOP of
    /// `gop` frames, `seconds` long, with AAC audio when `audio` is set.
    func camrecLike(_ name: String, seconds: Int = 4, gop: Int = 30, audio: Bool = true) throws -> String {
        let output = path(name)
        let frames = seconds * 30
        let container = name.hasSuffix(".mkv") ? "matroskamux name=mux" : (name.hasSuffix(".mov") ? "qtmux name=mux" : "mp4mux name=mux")
        var description = "videotestsrc num-buffers=\(frames) pattern=ball ! video/x-raw,format=I420,width=320,height=240,framerate=30/1"
            + " ! x264enc bframes=0 key-int-max=\(gop) speed-preset=ultrafast ! h264parse ! queue ! \(container)"
            + " ! filesink location=\(output)"
        if audio {
            description += " audiotestsrc num-buffers=\(seconds * 48000 / 1024) samplesperbuffer=1024 wave=ticks"
                + " ! audio/x-raw,rate=48000,channels=2 ! avenc_aac ! aacparse ! queue ! mux."
        }
        try ProcessRunner.check("gst-launch-1.0", ["-q", "-e"] + description.split(separator: " ").map(String.init))
        return output
    }

    /// An H.264 movie made with ffmpeg (B-frames, long GOPs and other shapes).
    func ffmpeg(_ name: String, seconds: Int = 4, videoOptions: [String], audio: Bool = false,
                extraInput: [String] = [], size: String = "320x240", rate: Int = 30) throws -> String {
        let output = path(name)
        var arguments = ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate):duration=\(seconds)"]
        if audio { arguments += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)"] }
        arguments += extraInput + videoOptions
        if audio { arguments += ["-c:a", "aac", "-b:a", "96k"] }
        arguments.append(output)
        try ProcessRunner.check("ffmpeg", arguments)
        return output
    }

    /// An H.264 + AAC movie whose audio starts a second after its video (an empty edit in
    /// the audio track): `seconds` of video, one second less of audio.
    func lateAudio(_ name: String, seconds: Int = 4) throws -> String {
        let output = path(name)
        try ProcessRunner.check("ffmpeg", [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=\(seconds)",
            "-itsoffset", "1", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds - 1)",
            "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-bf", "0", "-g", "30",
            "-c:a", "aac", output,
        ])
        return output
    }

    /// Two subtitle cues as SubRip: "first" from 0.5 s to 1.5 s, "second" from 1.8 s to 2.6 s.
    static let cues: [(text: String, start: Double, end: Double)] = [("first", 0.5, 1.5), ("second", 1.8, 2.6)]

    /// A movie with every kind of track a camera or an editor writes: H.264 video (30 fps,
    /// B-frames, 1 s GOP), two AAC tracks (48 kHz and 44.1 kHz, as two microphones), the
    /// two ``cues`` as subtitles (`mov_text` in MP4/MOV, SubRip in MKV) and, in MP4/MOV, a
    /// QuickTime timecode track starting at `timecode`. `secondAudio` gives the second sound
    /// track's codec options (e.g. PCM).
    func manyTracks(
        _ name: String, seconds: Int = 3, timecode: String = "01:00:00:00", rate: String = "30",
        secondAudio: [String] = ["-c:a:1", "aac"]
    ) throws -> String {
        let output = path(name)
        let subtitles = path("cues.srt")
        let srt = Self.cues.enumerated().map { index, cue in
            "\(index + 1)\n\(Self.srtTime(cue.start)) --> \(Self.srtTime(cue.end))\n\(cue.text)\n"
        }.joined(separator: "\n")
        try Data(srt.utf8).write(to: URL(fileURLWithPath: subtitles))
        let isMatroska = name.hasSuffix(".mkv")
        var arguments = [
            "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=\(rate):duration=\(seconds)",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)",
            "-f", "lavfi", "-i", "sine=frequency=660:sample_rate=44100:duration=\(seconds)",
            "-i", subtitles, "-map", "0:v", "-map", "1:a", "-map", "2:a", "-map", "3:s",
            "-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-sc_threshold", "0", "-pix_fmt", "yuv420p",
            "-c:a:0", "aac",
        ] + secondAudio + ["-c:s", isMatroska ? "srt" : "mov_text"]
        if !isMatroska { arguments += ["-timecode", timecode] }
        arguments.append(output)
        try ProcessRunner.check("ffmpeg", arguments)
        return output
    }

    static func srtTime(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        return String(
            format: "%02d:%02d:%02d,%03d", milliseconds / 3_600_000, milliseconds / 60_000 % 60, milliseconds / 1000 % 60,
            milliseconds % 1000
        )
    }

    /// A file with the given bytes.
    func file(_ name: String, bytes: [UInt8]) throws -> String {
        let output = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: output))
        return output
    }
}

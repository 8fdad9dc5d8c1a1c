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

    /// A file with the given bytes.
    func file(_ name: String, bytes: [UInt8]) throws -> String {
        let output = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: output))
        return output
    }
}

import ArgumentParsing
import CamrecKit

/// The options every camera-using subcommand shares, declared once.
public enum CameraOptions {
    /// The options, with their help.
    public static let specs = [
        OptionSpec(["--device", "-d"], value: "DEV", help: "camera: a path (/dev/video0), an index (0), part of its name, or 'test' for a built-in test pattern (default: the first camera); record: file:PATH plays a movie (MP4, MOV, MKV, WebM, …) in real time in place of a camera; record: give it again for each further camera, each into its own movie (NAME-1.EXT, NAME-2.EXT, …) or, with --layout, all onto one canvas in one movie", summary: "a path, index, name, test or file:MOVIE"),
        OptionSpec(["--size", "-s"], value: "WxH", help: "frame size, e.g. 1280x720 or 720p (default: 1280x720 when the camera can)", summary: "frame size, e.g. 1280x720 or 720p"),
        OptionSpec(["--fps", "-r"], value: "N", help: "frame rate, e.g. 30 or 29.97 (default: 30 when the camera can)", summary: "frame rate, e.g. 30 or 29.97"),
    ]

    /// `--loop` (record).
    public static let loopSpec = OptionSpec(["--loop"], help: "with --device file:PATH, play the movie again from its start each time it ends, until --max-duration or a stop (without it, the recording ends with the movie: reason source-ended)", summary: "play a --device file: movie again at its end")

    /// `--camera-buffers` (record).
    public static let buffersSpec = OptionSpec(["--camera-buffers"], value: "N", help: "have the camera fill N buffers while camrec's capture thread waits for a CPU (4 to 32; default: half a second of frames, at most 16 MiB; gst-launch-1.0's v4l2src queues 4, ffmpeg 32): more lose fewer frames on a loaded machine, fewer take less memory", summary: "camera buffers, 4-32 (default: 0.5 s of frames)")
}

import ArgumentParsing
import CamrecKit

/// The encoding options of `camrec` (record): what the movie's video is and how it is made.
public enum EncodingOptions {
    /// The options, with their help.
    public static let specs = [
        OptionSpec(["--codec", "-c"], value: "CODEC", help: "auto (default: the camera's own H.264 stored as it comes when it delivers H.264 at the size and rate, else H.264), h264, h265 (x265; tagged hvc1 in MP4), mjpeg (MKV/MOV) or copy (the camera's own H.264 or MJPEG, never decoded)", summary: "auto, h264, h265, mjpeg or copy"),
        OptionSpec(["--encoder", "-e"], value: "NAME", help: "auto (default: a hardware encoder that works here, else software), software, or a GStreamer element such as vah264enc (see camrec encoders)", summary: "auto, software or an element (camrec encoders)"),
        OptionSpec(["--quality", "-Q"], value: "Q", help: "auto (default for h265: medium's bits, the encoder's effort timed on test frames here and lowered until it keeps up), low, medium (default for h264 and mjpeg), high or max: bits per pixel and encoder effort (about 1, 2, 4 and 8 Mbit/s for 720p30 H.264)", summary: "auto, low, medium, high or max"),
        OptionSpec(["--bitrate", "-b"], value: "RATE", help: "the video bitrate to aim at, e.g. 800k or 4M (overrides --quality's; not for mjpeg)", summary: "the video bitrate, e.g. 800k or 4M"),
    ]

    /// The help's paragraph on these options.
    public static let discussion = """
        Encoding: by default camrec stores an H.264 camera's own stream without decoding it
        (the cheapest path: no encoder runs), else encodes H.264 with a hardware encoder that
        works on this machine (each is tried on a few frames first), else with x264. The
        started line says what was picked and why. An encoder too slow for the frames is
        found in the first seconds of the recording: a warning says so and names a cheaper
        setting (--quality auto, a lower --quality, --codec h264, --fps).
        """
}

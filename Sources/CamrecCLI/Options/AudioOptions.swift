import ArgumentParsing
import CamrecKit

/// The sound options of `camrec` (record).
public enum AudioOptions {
    /// The options, with their help.
    public static let specs = [
        OptionSpec(["--audio", "-a"], value: "SOURCE", help: "record sound: default (the sound server's default input, else ALSA's), camera (the camera's own microphone), test (a tone), file (the sound of a --device file: movie), a sound-server source name, an ALSA device (hw:1,0), or none (default); camrec devices lists them", summary: "default, camera, test, a source, hw:1,0 or none"),
        OptionSpec(["--audio-bitrate"], value: "RATE", help: "the sound's bitrate, e.g. 96k (default: AAC 128k, Opus 96k; mono 96k, 64k)", summary: "the sound's bitrate, e.g. 96k"),
    ]

    /// The help's paragraph on these options.
    public static let discussion = """
        Sound (--audio): AAC in MP4 and MOV, Opus in MKV, with the source's channels (a mono
        microphone stays mono). Sound and picture start and end together and stay together:
        the pipeline runs on the system's monotonic clock, which the camera's timestamps are
        on, and camrec places the sound on it, correcting the sound card's own clock by
        repeating or dropping single samples (the result's audio_clock_ppm says how far off
        it was); sound the source loses becomes silence of the same length (the result's
        dropped_audio_ms), so it never shifts.
        """
}

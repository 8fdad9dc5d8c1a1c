import ArgumentParsing
import CamrecKit

/// `camrec devices [--json] [--check]`: lists cameras by our own V4L2 probing, and sound
/// sources (`SoundCatalog`).
public enum DevicesCommand {
    /// What the command takes and says: its options, arguments and help (`--help`, the man
    /// page, the completions and docs/cli.md are made from it).
    public static let spec = CommandSpec(
        name: "camrec devices",
        abstract: "List the cameras (formats, sizes, frame rates, controls) and the sound sources.",
        usage: "",
        options: [
            OptionSpec(["--json"], help: "print one JSON object on stdout"),
            OptionSpec(["--check"], help: "print nothing; exit 0 when a camera that can capture exists, else 66 (none), 75 (busy) or 77 (not permitted); sound sources are not looked at"),
            OptionSpec(["--controls"], help: "also list each camera's controls (always in --json)"),
        ],
        positionals: [],
        discussion: """
            Probes /dev/video0 … /dev/video63 and the colon-separated paths in
            $CAMREC_DEVICE_PATHS (GStreamer's device monitor sees only udev devices).
            Sound sources: the sound server's sources (PulseAudio or PipeWire, through
            GStreamer's pulse device provider), then the ALSA capture devices (hw:C,D, used
            directly); each with its channels and rate when known, the server's default
            marked, and the camera it belongs to (same USB device). --audio takes a
            source's name; see docs/sound.md.
            """
    )
}

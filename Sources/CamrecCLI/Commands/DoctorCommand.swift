import ArgumentParsing
import CamrecKit

/// `camrec doctor [options] [OUTPUT]`: checks what a recording needs and says how to fix
/// each problem in one line.
public enum DoctorCommand {
    /// The exit codes doctor can return, with what each means for it.
    public static let exitCodes: [(status: ExitStatus, meaning: String)] = [
        (.success, "a recording has everything it needs (there may be warnings)"),
        (.usage, "usage error"),
        (.noCamera, "no camera (or not the one --device names)"),
        (.unavailable, "GStreamer or a plugin camrec needs is missing (the fix names the Debian package)"),
        (.cannotCreateOutput, "the output folder is missing or not writable"),
        (.cameraBusy, "the camera is busy: another program is using it"),
        (.permissionDenied, "this user may not open the camera (the video group)"),
    ]

    /// What the command takes and says: its options, arguments and help (`--help`, the man
    /// page, the completions and docs/cli.md are made from it).
    public static let spec = CommandSpec(
        name: "camrec doctor",
        abstract: "Check what a recording needs and say how to fix each problem it finds.",
        usage: "camrec doctor [options] [OUTPUT]",
        options: CameraOptions.specs + [
            OptionSpec(["--segment"], value: "T", help: "the segment length you will record with (10m, 1h), for the FAT file-size check"),
            OptionSpec(["--json"], help: "print JSON lines on stdout: one check per line, then a result"),
        ],
        positionals: [PositionalSpec("OUTPUT", help: "where recordings will go: a folder or a movie path (default: the current folder)", optional: true)],
        discussion: """
            Checks, in this order: GStreamer and the plugins camrec needs (by Debian
            package), the cameras and whether this user may open them (the one a recording
            takes with --device, --size and --fps), sound sources (a PulseAudio or PipeWire
            server that answers, ALSA capture devices), hardware encoders (each installed
            one tried on a few test frames, as --encoder auto does; v4l2h264enc, vah264enc,
            vaapih264enc and nvh264enc named when missing), the output folder (writable, free space in
            hours of video, file system: FAT cannot hold a file over 4 GB) and unfinished
            recordings (NAME.partial.EXT) left in it. Each line is ok, info, warning or
            PROBLEM, with a fix for warnings and problems. Doctor changes nothing.

            The exit status is that of the first problem.

            \(ExitCodeTable.of(exitCodes))
            """
    )
}

import ArgumentParsing
import CamrecKit

/// `camrec preview [options]`: the camera in a window, nothing recorded.
public enum PreviewCommand {
    /// What the command takes and says: its options, arguments and help (`--help`, the man
    /// page, the completions and docs/cli.md are made from it).
    public static let spec = CommandSpec(
        name: "camrec preview",
        abstract: "Show the camera in a window, recording nothing.",
        usage: "camrec preview [options]",
        options: CameraOptions.specs + PictureControlOptions.specs + PictureOptions.specs + MaskOptions.specs + [
            OptionSpec(["--stills"], value: "PATTERN", help: "where the key s and SIGUSR1 put stills: a pattern with one counter (shots/img-%04d.jpg; its extension, .jpg, .jpeg or .png, picks the format) or a folder (default: preview-still-0001.jpg, … in the current folder); existing files are never replaced"),
            OptionSpec(["--still-format"], value: "FMT", help: "jpeg (default) or png; a --stills pattern's extension decides"),
            OptionSpec(["--still-quality"], value: "Q", help: "JPEG quality, 1-100 (default: 90)"),
            OptionSpec(["--json"], help: "print JSON lines on stdout: still, warning, result"),
            OptionSpec(["--quiet", "-q"], help: "print nothing on stderr but errors"),
        ],
        positionals: [],
        discussion: """
            The camera is chosen and set up exactly as for a recording (the same format
            choice, --set controls and overlays), so what the window shows is what camrec
            would record. The window shows PREVIEW in its corner; it drops frames it cannot
            show in time.

            In the window or on an interactive terminal, the key s takes a still (the newest
            frame at full size: an MJPEG camera's own JPEG unless the picture is changed)
            and q ends the preview; SIGUSR1 takes a still too. Closing the window, q, SIGINT, SIGTERM or
            SIGHUP end it (exit 0). It needs a display: with DISPLAY and WAYLAND_DISPLAY
            unset it stops before opening the camera (exit 64).

            \(PictureControlOptions.discussion)

            Exit codes are those of camrec record (see camrec --help).
            """
    )
}

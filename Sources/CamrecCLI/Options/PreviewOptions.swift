import ArgumentParsing
import CamrecKit

/// The live-view options of `camrec` (record).
public enum PreviewOptions {
    /// The options, with their help.
    public static let specs = [
        OptionSpec(["--preview"], attachedValue: "auto", help: "show the live picture in a window while recording, with REC, the time recorded and the limit drawn in the window only (never in the movie); the window drops frames it cannot show, the movie never does; without a display (DISPLAY and WAYLAND_DISPLAY unset) camrec stops before opening the camera (exit 64), or with --preview=auto warns and records without a window", summary: "show the picture in a window while recording"),
        OptionSpec(["--preview-stops"], help: "with --preview: closing the window stops the recording (finalised, reason control); without it, the recording goes on", summary: "closing the window stops the recording"),
    ]

    /// The help's paragraph on these options.
    public static let discussion = """
        Live view (--preview): the window shows the camera's frames on a branch of
        their own that only ever drops frames, so a slow or closed window never costs
        the movie one. In the window, as on the terminal, s takes a still, c makes a
        clip and q stops. The window uses xvimagesink, else ximagesink (autovideosink
        without X11); CAMREC_PREVIEW_SINK (gst-launch syntax, e.g. ximagesink) picks
        another sink. For a recorder without a screen, --serve streams the movie's own
        frames over RTSP instead: ffplay rtsp://127.0.0.1:8554/live (127.0.0.1 unless an
        address is given; any other address needs --serve-auth or --serve-insecure).
        """
}

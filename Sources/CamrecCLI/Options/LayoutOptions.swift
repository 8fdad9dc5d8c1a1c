import ArgumentParsing
import CamrecKit

/// Several cameras: each into its own movie, all started at the same instant, or
/// (`--layout`, `--canvas`) composed onto one canvas, one movie.
public enum LayoutOptions {
    /// The help's paragraph on several cameras.
    public static let severalCamerasDiscussion = """
        Several cameras: give --device once per camera; each is recorded into its
        own movie, NAME-1.EXT, NAME-2.EXT, … in --device order (--output-per-device:
        OUTPUT is a pattern with {index} and {device}), all started at the
        same instant of one clock (the first frames of all movies captured within
        one frame interval) at the same --fps, each with its exact --max-duration.
        Sound (--audio) goes with the first movie. SIGUSR1 takes a still from every
        camera. A camera that cannot start stops the run with its own exit code,
        recording nothing. A camera lost mid-run ends its own movie and the
        others go on (--all-or-nothing: the whole run stops, exit 79).
        --segment, --keep/--keep-size/--min-free and --reconnect apply to each
        camera's own series, named as for one camera with NAME-1.EXT, NAME-2.EXT
        (or each camera's --output-per-device name) as OUTPUT: m.mp4 gives
        m-1-0001.mp4, m-1-0002.mp4, …, m-2-0001.mp4, …; all cameras are cut at
        the same instants, also a camera back after --reconnect; --all-or-nothing
        stops the run only when a camera is given up (--reconnect-timeout).
        Event clips: one trigger (ctl clip, SIGUSR2, key c) makes a clip per camera
        (NAME-1-clip-0001.EXT, …; --clips fills in {index}/{device} or adds -1, -2),
        each from its own pre-roll, all of the same instant; motion on any camera
        (--on-motion) makes a clip on every camera. --control: one socket; status
        lists every camera (cameras), still, clip, set and stop go to every camera.
        --set and --flash apply to every camera. --stills PATTERN: {index} and
        {device} filled in, or -1, -2 added before the extension.
        --settle: each camera settles in its own time (a settled line names it),
        then all movies start together. --serve: one server, a path per camera
        (rtsp://127.0.0.1:PORT/camera1, /camera2, …; the started line's cameras
        give each serve_url). --preview: a window per camera (the keys s, c and q
        work in each; --preview-stops: closing any stops every camera). With
        --layout the canvas is shown and served (at /live), and clips, --control,
        --set and --stills work as for one camera; --settle waits until every
        camera's picture on the canvas is stable. --codec copy stores each
        camera's own H.264, which starts only at one of its keyframes: each movie
        starts at its camera's first keyframe after the common start, and its
        start_offset (segment and result lines) says how long after; with
        --layout it is refused (the canvas is encoded anew).
        """

    /// The help's paragraph on --layout.
    public static let canvasDiscussion = """
        One composed movie: --layout stacked|side-by-side|grid|pip composes the
        cameras onto one canvas (--canvas WxH, default 1080x1920) recorded as one
        movie at OUTPUT, each camera scaled to fit its cell keeping its aspect
        ratio, black around it. pip: the first camera fills the canvas, the second
        is an inset in a corner, a margin from the edges, further ones beside it;
        pip:CORNER:SIZE places it: CORNER top-left, top-right, bottom-left or
        bottom-right (the default), SIZE its width in percent of the canvas's,
        5% to 60% (default 25%), either part optional (pip:top-left:30%,
        pip:top-left, pip:40%). The movie has --fps frames a second, each made of
        every camera's newest frame; it starts once every camera is on the canvas
        and has exactly --max-duration of frames. The started line and the result
        give each camera's rectangle (layout.cameras: x, y, width, height,
        device); stills (SIGUSR1) are the composed frame, with one of each
        camera. A camera lost mid-run leaves its cell black and the movie goes on
        with the others (exit 79 at the end); --all-or-nothing ends the movie
        there instead, and with --reconnect the camera comes back into its cell
        (its --set controls set again).
        --segment cuts the canvas's own series (retention as for one camera);
        clips, --preview, --serve, --control and --set work as for one camera.
        --settle T: the movie starts once every camera's picture is stable, each
        measured in its own rectangle (its brightness, and its autofocus where the
        camera reports one), or at T; one settled line for the canvas. --rotate,
        --flip and --mirror turn each camera before it is placed (its rectangle
        fits the turned picture); --overlay and --overlay-image are drawn on the
        canvas.
        """

    /// The record command's options for several cameras.
    public static let severalCamerasSpecs = [
        OptionSpec(["--all-or-nothing"], help: "several cameras: a camera lost mid-run stops the whole run (every movie finalised, exit 79) instead of the others going on without it"),
        OptionSpec(["--output-per-device"], help: "several cameras: OUTPUT is a pattern in which {index} (1, 2, … in --device order) and {device} (the camera's node, e.g. video0) are filled in for each camera's movie, e.g. lab-{device}.mp4 (default: NAME-1.EXT, NAME-2.EXT, …)"),
    ]

    /// The "several cameras" topic's options, with their short help, then --layout and --canvas.
    public static let multiCameraSpecs = severalCamerasSpecs.map { option in
        switch option.name {
        case "--all-or-nothing": option.summarized("a lost camera stops the whole run (exit 79)")
        case "--output-per-device": option.summarized("OUTPUT is a pattern with {index}, {device}")
        default: option
        }
    } + specs

    /// The options, with their help.
    public static let specs = [
        OptionSpec(["--layout"], value: "LAYOUT", help: "several cameras: compose them onto one canvas, one movie at OUTPUT: stacked (one above the other), side-by-side, grid or pip (the first fills the canvas, the others are insets, bottom right, a quarter of the canvas wide); pip:CORNER:SIZE puts the insets in CORNER (top-left, top-right, bottom-left, bottom-right), each SIZE of the canvas width (5% to 60%), either part optional, e.g. pip:top-left:30%; each camera is scaled to fit its cell keeping its aspect ratio, and the started line and the result give each camera's rectangle", summary: "stacked, side-by-side, grid or pip[:CORNER:SIZE]"),
        OptionSpec(["--canvas"], value: "WxH", help: "the canvas of --layout, the movie's frame size: even, from 64x64 (default: 1080x1920, portrait, as the mobile SDKs' dual camera)", summary: "the canvas of --layout (default: 1080x1920)"),
    ]
}

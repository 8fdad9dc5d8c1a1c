import ArgumentParsing
import CamrecKit

/// `camrec react [options] VIDEO OUTPUT`: a reaction recording.
public enum ReactCommand {
    /// What the command takes and says: its options, arguments and help (`--help`, the man
    /// page, the completions and docs/cli.md are made from it).
    public static let spec = CommandSpec(
        name: "camrec react",
        abstract: "Record yourself reacting to a video, the camera over it in a corner.",
        usage: "camrec react [options] VIDEO OUTPUT",
        options: [
            OptionSpec(["--device", "-d"], value: "DEV", help: "the camera: a path (/dev/video0), an index (0) or part of its name (default: the first camera)"),
            OptionSpec(["--audio", "-a"], value: "SOURCE", help: "the microphone: default, camera, a source name, an ALSA device such as hw:1,0, or none for the video's sound alone (default: default)"),
            OptionSpec(["--mix"], value: "VIDEO:CAMERA", help: "the two sounds' levels in dB, -60 to 12 (default: -6:0: the video 6 dB down under the voice)"),
            OptionSpec(["--pip"], value: "CORNER:SIZE", help: "where the camera sits over the video: top-left, top-right, bottom-left or bottom-right, and its width in percent of the video's, 5% to 60% (default: bottom-right:30%)"),
            OptionSpec(["--preview"], attachedValue: "auto", help: "the window showing the video with the camera over it, as it is recorded: without a display, --preview stops before anything starts (exit 64) and --preview=auto (the default) records without it"),
            OptionSpec(["--no-preview"], help: "record without a window"),
            OptionSpec(["--max-duration", "-t"], value: "T", help: "stop by itself after T (default: when the video ends)"),
            OptionSpec(["--separate"], help: "record the camera's own movie instead (OUTPUT: the camera and microphone only), the video playing beside it in a window of its own; a JSON react line (and a line for people) says at what time of OUTPUT the video started, for an editor to put them together"),
            OptionSpec(["--force", "-f"], help: "replace OUTPUT if it exists"),
            OptionSpec(["--json"], help: "print JSON lines on stdout, as a recording does: started (with the layout), warning, react (--separate), result"),
            OptionSpec(["--quiet", "-q"], help: "print nothing on stderr but errors"),
        ],
        positionals: [PositionalSpec("VIDEO", help: "the video to react to (MP4, MOV, MKV, WebM, …)"),
                      PositionalSpec("OUTPUT", help: "the movie to write (.mp4, .mov or .mkv)")],
        discussion: """
            The video plays in real time, its sound on the default output (when a sound
            server answers), while the camera and microphone record. OUTPUT is the video's
            size, the camera over it in a corner; the video and the camera start in step
            (the video starts with the camera's first frame), and the recording ends with the
            video (reason source-ended), at --max-duration, or on a signal (finalised, as any
            recording). It is `camrec record --device file:VIDEO --device DEV --layout
            pip:CORNER:SIZE --canvas VIDEO'S-SIZE` with both sounds mixed.

            Examples:
              camrec react clip.mp4 reaction.mp4
              camrec react --pip top-left:25% --mix -12:0 trailer.mkv me.mkv

            \(ExitCodeTable.all)
            """
    )
}

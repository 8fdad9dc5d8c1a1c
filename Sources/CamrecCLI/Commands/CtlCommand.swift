import ArgumentParsing
import CamrecKit

/// `camrec ctl PATH still|stop|status|split|clip|text|set NAME=VALUE`: talks to a recording started with `--control PATH`.
public enum CtlCommand {
    /// What the command takes and says: its options, arguments and help (`--help`, the man
    /// page, the completions and docs/cli.md are made from it).
    public static let spec = CommandSpec(
        name: "camrec ctl",
        abstract: "Send a command to a running recording's control socket and print its JSON reply.",
        usage: "camrec ctl SOCKET still|stop|status|split|clip [--after T] [--still]|text|set NAME=VALUE",
        options: [
            OptionSpec(["--after"], value: "T", help: "for clip: the clip goes on T after this trigger (instead of --post-roll)"),
            OptionSpec(["--still"], help: "for clip: also write the still of the trigger's frame (a Live Photo)"),
            OptionSpec(["--timeout"], value: "T", help: "how long to wait for the answer, behind other clients' commands (default 10s)"),
        ],
        positionals: [
            PositionalSpec("SOCKET", help: "the path given to camrec --control"),
            PositionalSpec("COMMAND", help: "still (take a still; the reply names the file), stop (finalise and stop), status, split (start the next segment now, with --segment), clip (make an event clip, with --pre-roll or --post-roll; the reply names it), text (read the text of the next frame, with --text or --text-every; the reply is the reading, as a text line), set (set camera controls, as --set does)"),
            PositionalSpec("NAME=VALUE", help: "for set: the controls, NAME=VALUE[,NAME=VALUE…] (e.g. exposure=1/60,zoom=200); checked against the camera first", optional: true),
        ],
        discussion: """
            Commands sent while the recorder answers others wait their turn (--timeout).
            Exit status: 0 when the recorder did it, 1 when it refused (the reply says why),
            69 when no recorder listens on SOCKET or it did not answer in time, 64 for a usage error.
            """
    )
}

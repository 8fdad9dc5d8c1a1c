import ArgumentParsing

/// The text-recognition options of `camrec` (record): `--text`, `--text-every`,
/// `--text-changes`, `--text-lang`, `--text-region` (read by `RecordOptions`, typed by
/// `RecordingTextSettings`).
public enum TextOptions {
    /// The options, with their help.
    public static let specs = [
        OptionSpec(["--text"], help: "read text on request (camrec ctl SOCKET text) and in each still taken (its text line, and NAME.txt beside it); libtesseract, loaded only when asked for", summary: "read text on request and in stills"),
        OptionSpec(["--text-every"], value: "T", help: "read the text of a frame every T of camera time (the first at the movie's start), e.g. 5s: a text line each, with the frame's index, time and capture time; a frame due while the last one is still being read is skipped", summary: "read the text of a frame every T, e.g. 5s"),
        OptionSpec(["--text-changes"], help: "with --text-every: a line only when the text differs from the last one reported", summary: "a text line only when the text changed"),
        OptionSpec(["--text-lang"], value: "L", help: "the languages' models, joined by +, e.g. eng+deu (default: eng); a missing one stops camrec before it records (exit 69)", summary: "the languages' models (default: eng)"),
        OptionSpec(["--text-region"], value: "X,Y,W,H", help: "read only this part of each frame, in the movie's pixels (e.g. 0,600,1280,120): faster, and nothing else is read", summary: "read only this part of each frame"),
    ]

    /// The help's paragraph on these options.
    public static let discussion = """
        The text is read on a thread of its own at the lowest CPU priority (SCHED_IDLE), one
        frame at a time from the encoder's input: the movie never waits for it and never
        loses a frame for it. A frame due while the last one is still being read is skipped
        (the next text line says how many were). With --json each reading is a text line
        (docs/text.md), as camrec text prints; for people, a line with the text.
        """
}

import ArgumentParsing
import CamrecKit

/// The event-clip options of `camrec` (record).
public enum ClipOptions {
    /// The options, with their help.
    public static let specs = [
        OptionSpec(["--pre-roll"], value: "T", help: "keep the last T of the encoded stream in memory: a clip starts T before its trigger (default: 0); enables clips", summary: "a clip starts T before its trigger"),
        OptionSpec(["--post-roll"], value: "T", help: "a clip goes on T after its last trigger (default: 10s); enables clips", summary: "a clip goes on T after it (default: 10s)"),
        OptionSpec(["--max-clip"], value: "T", help: "triggers during a clip extend it up to T in all (default: 5m); enables clips", summary: "a clip lasts at most T (default: 5m)"),
        OptionSpec(["--clips"], value: "PATTERN", help: "name clips with strftime fields of their start and/or a counter, as --segment names movies (clips/door-%Y%m%d-%H%M%S.mp4; --utc for UTC); the container of OUTPUT (default: NAME-clip-0001.EXT); enables clips", summary: "name clips: a pattern (clips/%Y%m%d-%H%M.mp4)"),
        OptionSpec(["--standby"], help: "record no movie, only clips on triggers (OUTPUT names them and picks the container; nothing is written to it); enables clips", summary: "record no movie, only clips"),
        OptionSpec(["--on-motion"], help: "a change in the picture triggers a clip (small grey frames compared a few times a second; noise and slow light changes ignored); enables clips", summary: "a change in the picture makes a clip"),
        OptionSpec(["--motion-sensitivity"], value: "S", help: "with --on-motion: 0 (only large, clear changes) to 1 (small, faint ones); default 0.5", summary: "0 (large changes only) to 1 (faint); 0.5"),
        OptionSpec(["--on-sound"], value: "LEVEL[:T]", help: "sound at or above LEVEL dBFS (e.g. -30; 0 is full scale) for at least T (default: 200ms) triggers a clip at its onset, as --on-motion does (a JSON sound line each); needs --audio; enables clips", summary: "loud sound (LEVEL dBFS for T) makes a clip"),
        OptionSpec(["--motion-mask"], value: "FILE", help: "with --on-motion: a PNG (any size, scaled to the picture) whose dark regions are not watched; a missing file or one that is not a PNG is refused (exit 65)", summary: "a PNG whose dark regions are not watched"),
        OptionSpec(["--clip-start"], value: "WHERE", help: "keyframe (default): a clip starts at the keyframe at or before the frame its pre-roll asks for, up to one --keyframe-interval earlier, every frame copied as encoded and nothing decoded (the clip line says where it starts); exact: at that frame, its first frames re-encoded from the keyframe before (as camrec trim cuts; this loads gst-libav, about 35 MB more memory); enables clips", summary: "keyframe (default) or exact: cut to the frame"),
        OptionSpec(["--live-photo"], help: "each clip also gets the still of its trigger's frame (a Live Photo); enables clips", summary: "each clip also gets its trigger's still"),
    ]

    /// The help's paragraph on these options.
    public static let discussion = """
        Event clips (--pre-roll, --post-roll, --max-clip): `camrec ctl SOCKET clip [--after T]`,
        SIGUSR2 or the key c writes NAME-clip-0001.EXT beside the movie, from the pre-roll
        before the trigger to the post-roll after it, alongside the movie (which it never
        disturbs). The clip starts at the keyframe at or before its pre-roll, copied as
        encoded (--clip-start exact: cut to that frame as camrec trim cuts). A trigger while a clip is written extends it.
        --live-photo (or ctl clip --still) also writes the still of the trigger's frame,
        named in the clip's line. --standby records no movie: only the clips.
        --on-motion makes a change in the picture a trigger (a JSON motion line each),
        --on-sound -30 a sound louder than -30 dBFS for 200 ms (a JSON sound line each).
        """
}
